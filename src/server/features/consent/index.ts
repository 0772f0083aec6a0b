// The consent feature: the deployed service's privacy mode asks a player once per visit; the answer goes once.
import { ConsentPrompts, ConsentStats } from "./consent";
import { isTrackedResult } from "../joins/tracking";
import type { ServerContext } from "../../context";
import { CONSENT_FACE, ConsentSignals } from "./face";
import type { Feature, FeatureDeclaration } from "../../feature";
import type { JoinsFeature } from "../joins";

/**
 * Consent's setting in `StaffOpsConfig`.
 */
export interface ConsentConfig {
	/**
	 * Show the built-in consent prompt when the service asks for a player's consent (`needsConsent`). Default true;
	 * false when game code draws its own (`StaffOps.consentRequested`, then `StaffOps.answerConsent`).
	 */
	readonly consentPrompt?: boolean;
}

// Its settings join `StaffOpsConfig` (and their resolved types `StaffOpsSettings`): the core names no feature.
declare module "../../config" {
	interface StaffOpsBaseConfig extends ConsentConfig {}
	interface ResolvedSettings {
		readonly consentPrompt: boolean;
	}
}
// Its signal joins the server's.
declare module "../../records" {
	interface ServerSignals extends ConsentSignals {}
}

/**
 * Consent (the deployed service's privacy mode): a join answered `needsConsent` asks the player once per visit, in
 * the built-in prompt or game code's own, and the decision goes to the service once.
 * In the package's declarations for the config type; not an API.
 */
export const CONSENT: FeatureDeclaration<ConsentConfig, "consent", typeof CONSENT_FACE> = {
	name: "consent",
	settings: [{ field: "consentPrompt", attribute: "ConsentPrompt", default: true }],
	remotes: ["Consent"],
	clientParts: [{ folder: "consent", start: "startConsentPrompt" }],
	face: CONSENT_FACE,
};

/** The consent feature; its prompts exist once the remotes do. @internal */
export class ConsentFeature implements Feature {
	readonly declaration = CONSENT;
	prompts?: ConsentPrompts;

	constructor(
		private readonly ctx: ServerContext,
		private readonly joins: JoinsFeature,
	) {}

	start(): void {
		const ctx = this.ctx;
		const remote = ctx.remotes!.Consent;
		const prompts = (this.prompts = new ConsentPrompts({
			client: ctx.client,
			scheduler: ctx.scheduler,
			health: ctx.health,
			remote,
			builtInPrompt: ctx.config.consentPrompt,
			requested: ctx.signals.consentRequested,
			guard: ctx.guard,
		}));
		this.joins.onAnswered((player, result, record) =>
			prompts.answered(player, isTrackedResult(result) && result.needsConsent === true, record.answeredUnder),
		);
		ctx.listen(remote, "consent answer", (player, args) => prompts.handle(player, args));
	}

	/** Records `player`'s decision (game code's own prompt); false when no question is open for them. */
	answer(player: Player, granted: boolean): boolean {
		return this.prompts !== undefined && this.prompts.answer(player, granted);
	}

	left(player: Player): void {
		this.prompts?.forget(player);
	}

	diagnostics(): Partial<ConsentStats> {
		return this.prompts ? { ...this.prompts.stats } : {};
	}
}
