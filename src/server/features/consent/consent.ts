import type { StaffOpsApiClient } from "../../../api/apiClient";
import { HealthLog, logInfo, playerLabel } from "../../../background/log";
import type { ConsentCommand } from "../../../shared/privacyProtocol";
import { RateLimiter } from "../../../shared/rateLimiter";
import type { Signal } from "../../../shared/signal";
import type { Scheduler } from "../../../transport/scheduler";

/** What the consent prompts need from the integration. @internal */
export interface ConsentSeams {
	readonly client: StaffOpsApiClient;
	readonly scheduler: Scheduler;
	readonly health: HealthLog;
	/** The `Consent` remote. */
	readonly remote: RemoteEvent;
	/** Show the built-in prompt (drop-in and `mountConsentPrompt`); false when game code draws its own. */
	readonly builtInPrompt: boolean;
	/** `StaffOps.consentRequested`. */
	readonly requested: Signal<[player: Player]>;
	readonly guard: (label: string, fn: () => void) => void;
}

/** Counts of the consent flow, for checks and diagnostics. @internal */
export interface ConsentStats {
	prompted: number;
	/** Decisions sent to the service. */
	sent: number;
	/** Client answers dropped: malformed, unasked, already answered, or over the rate. */
	refused: number;
}

interface Pending {
	readonly player: Player;
	/** The registration the join was last answered under: the decision names that server. */
	runningGameId: string;
	/** The built-in prompt was sent to this player's client: only then may the client answer. */
	readonly prompted: boolean;
}

/** A visit whose prompt was raised: its decision once given, and the servers it was sent for. */
interface Asked {
	readonly player: Player;
	decision?: boolean;
	/** The running game ids the decision was sent for (each at most once). */
	readonly sentFor: Set<string>;
}

/** A client may try to answer twice a second at most (one answer is all it ever needs). */
const ANSWERS_PER_SECOND = 0.5;
const ANSWER_BURST = 2;

/**
 * The consent prompt of the deployed service's privacy mode (docs/service-contract.md#privacy-and-consent): a join answered `needsConsent: true` fires
 * `consentRequested`, shows the built-in prompt (unless turned off), and the player's decision is sent once as
 * `POST /activity/consent`. Nothing waits for it: a player who never answers plays on, and the service keeps or
 * deletes the visit as it does for anyone who did not grant.
 *
 * Sent once per server: the decision is not sent again after an unknown outcome (a timeout, a 5xx). The service stores
 * every decision it gets and has no route to read one back, so a blind repeat could store it twice; losing it costs
 * what a player who never answered costs (the visit is not kept), and the warning says so. When the service forgot
 * the server and the player's join is answered again under the new registration (`needsConsent` again), the player
 * is not asked again: the decision they gave is sent for the new server, whose session is a new one that would
 * otherwise be deleted at their leave (docs/service-contract.md#privacy-and-consent).
 * @internal
 */
export class ConsentPrompts {
	readonly stats: ConsentStats = { prompted: 0, sent: 0, refused: 0 };
	private readonly pending = new Map<number, Pending>();
	/** Players (by UserId) whose prompt was raised on this server: a prompt is raised once per visit. */
	private readonly asked = new Map<number, Asked>();
	private readonly limiter: RateLimiter;

	constructor(private readonly seams: ConsentSeams) {
		this.limiter = new RateLimiter(ANSWERS_PER_SECOND, ANSWER_BURST, () => seams.scheduler.now());
	}

	/**
	 * A join was answered: asks for consent when the service wants it, once per visit. A visit answered again under a
	 * new registration (the service forgot the server) is not asked again: its decision goes to the new server.
	 */
	answered(player: Player, needsConsent: boolean, runningGameId: string | undefined): void {
		if (!needsConsent || runningGameId === undefined) return;
		const asked = this.asked.get(player.UserId);
		if (asked !== undefined && asked.player === player) {
			this.answeredAgain(asked, runningGameId);
			return;
		}
		this.asked.set(player.UserId, { player, sentFor: new Set() });
		const prompted = this.seams.builtInPrompt;
		this.pending.set(player.UserId, { player, runningGameId, prompted });
		this.stats.prompted += 1;
		this.seams.requested.Fire(player);
		if (prompted) this.command(player, "show");
	}

	/** Whether `player` has a consent question open. */
	isPending(player: Player): boolean {
		return this.pending.get(player.UserId)?.player === player;
	}

	/**
	 * Records `player`'s decision (game code's own prompt, or the built-in one): sends it once. False when no prompt
	 * is open for that player (never asked, already answered, or left).
	 */
	answer(player: Player, granted: boolean): boolean {
		const pending = this.pending.get(player.UserId);
		if (pending === undefined || pending.player !== player || !typeIs(granted, "boolean")) return false;
		this.pending.delete(player.UserId);
		if (pending.prompted) this.command(player, "close");
		const asked = this.asked.get(player.UserId);
		if (asked !== undefined && asked.player === player) asked.decision = granted;
		logInfo(`${playerLabel(player)} answered the consent prompt: ${granted ? "granted" : "not granted"}`);
		this.send(pending.player, pending.runningGameId, granted);
		return true;
	}

	/** The same visit answered under `runningGameId` again: an open question names it; a decision is sent for it. */
	private answeredAgain(asked: Asked, runningGameId: string): void {
		const pending = this.pending.get(asked.player.UserId);
		if (pending !== undefined && pending.player === asked.player) {
			pending.runningGameId = runningGameId;
			return;
		}
		if (asked.decision !== undefined) this.send(asked.player, runningGameId, asked.decision);
	}

	/** One event of the `Consent` remote. The answer is the sender's own: a client can never name another player. */
	handle(player: Player, args: Array<unknown>): void {
		if (!typeIs(player, "Instance") || !player.IsA("Player")) return;
		const pending = this.pending.get(player.UserId);
		const allowed = this.limiter.allow(player.UserId);
		if (
			!allowed ||
			pending === undefined ||
			pending.player !== player ||
			!pending.prompted ||
			args.size() !== 1 ||
			!typeIs(args[0], "boolean")
		) {
			this.stats.refused += 1;
			return;
		}
		this.answer(player, args[0]);
	}

	/** The player left: their open question and rate bucket go (a rejoin is a new visit, asked anew). */
	forget(player: Player): void {
		if (this.pending.get(player.UserId)?.player === player) this.pending.delete(player.UserId);
		if (this.asked.get(player.UserId)?.player === player) this.asked.delete(player.UserId);
		this.limiter.forget(player.UserId);
	}

	/** Players with an open question or a rate bucket (memory checks). */
	size(): number {
		return this.pending.size() + this.asked.size() + this.limiter.size();
	}

	private command(player: Player, command: ConsentCommand): void {
		this.seams.guard("consent prompt", () => this.seams.remote.FireClient(player, command));
	}

	/** Sends `player`'s decision for the server `runningGameId`, unless it was sent for that server already. */
	private send(player: Player, runningGameId: string, granted: boolean): void {
		const asked = this.asked.get(player.UserId);
		if (asked !== undefined && asked.player === player) {
			if (asked.sentFor.has(runningGameId)) return;
			asked.sentFor.add(runningGameId);
		}
		this.seams.client.extensions
			.recordConsent({ runningGameId, userId: player.UserId, granted }, { priority: "normal" })
			.andThen(
				() => this.seams.guard("consent", () => (this.stats.sent += 1)),
				(err: unknown) =>
					this.seams.guard("consent", () =>
						this.seams.health.problem(
							"consent",
							`a consent decision could not be recorded (${tostring(err)}); it is not sent again, so ` +
								"that visit counts as not granted",
						),
					),
			);
	}
}
