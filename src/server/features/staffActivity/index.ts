// The staff activity feature: clients report active, idle and typing as session events the sync carries.
import { flagsRule } from "../../settingRules";
import { defaultChatted } from "../../seams";
import { StaffActivity, StaffActivityStats } from "./staffActivity";
import { activitySettingsOf, isTrackedResult } from "../joins/tracking";
import type { ServerContext } from "../../context";
import type { Feature, FeatureDeclaration } from "../../feature";
import type { JoinsFeature } from "../joins";
import type { PresenceFeature } from "../presence";
import type { SessionEvent } from "../presence/sessionEvents";

/**
 * Staff activity for the deployed service (docs/service-contract.md#the-sync-route): who reports `active`/`idle`/`typing`, and whether chat
 * messages are logged. Only players the service tracks and gave a session are ever reported.
 *
 * @example
 * ```ts
 * StaffOps.start({ ...config, activity: { everyone: false, chatMessages: false } });
 * ```
 * @see README#staff-activity
 */
export interface ActivityOptions {
	/** Report every tracked player, not only staff. Default false: the service credits staff minutes only. */
	readonly everyone?: boolean;
	/** Send each chat message of a reported player as a `message` event. Default false (privacy and volume). */
	readonly chatMessages?: boolean;
}

/**
 * Staff activity's setting in `StaffOpsConfig`.
 */
export interface StaffActivityConfig {
	/** Staff activity reporting (deployed service). Default: staff only, no chat messages. */
	readonly activity?: ActivityOptions;
}

// Its settings join `StaffOpsConfig` (and their resolved types `StaffOpsSettings`): the core names no feature.
declare module "../../config" {
	interface StaffOpsBaseConfig extends StaffActivityConfig {}
	interface ResolvedSettings {
		readonly activity: ActivityOptions;
	}
}
// Its seam joins the server's.
declare module "../../seams" {
	interface ServerSeams {
		/**
		 * Where staff activity's session events go: the sync's queue (`POST /activity/sendData`). Default: nowhere (no
		 * sync runs), so nothing is detected on clients either.
		 */
		readonly emitSessionEvent?: (event: SessionEvent) => void;
	}
}

/**
 * Staff activity (deployed service): clients report `active`/`idle`/`typing` as session events the sync carries,
 * and chat messages when asked.
 * In the package's declarations for the config type; not an API.
 */
export const STAFF_ACTIVITY: FeatureDeclaration<StaffActivityConfig, "staffActivity"> = {
	name: "staffActivity",
	settings: [
		{
			field: "activity.everyone",
			attribute: "ActivityForEveryone",
			default: false,
			luau: "ActivityOptions?",
			check: flagsRule(["everyone", "chatMessages"]),
			// Resolved as a table, `{}` when left out.
			resolve: (given) => given ?? {},
		},
		{ field: "activity.chatMessages", attribute: "ChatLogging", default: false },
	],
	remotes: ["Activity"],
	clientParts: [{ folder: "activity", start: "startActivityReport" }],
};

/** The staff activity feature; its reporter exists once the remotes do. @internal */
export class StaffActivityFeature implements Feature {
	readonly declaration = STAFF_ACTIVITY;
	activity?: StaffActivity;

	constructor(
		private readonly ctx: ServerContext,
		private readonly joins: JoinsFeature,
		private readonly presence: PresenceFeature,
	) {}

	start(): void {
		const ctx = this.ctx;
		const { seams, config } = ctx;
		const remote = ctx.remotes!.Activity;
		// Session events ride the sync's queue; a spec may take them itself.
		const emit = seams.emitSessionEvent ?? ((event) => this.presence.events.add(event));
		const registrationAnswer = seams.registrationAnswer ?? (() => ctx.registration.current?.answer);
		const activity = (this.activity = new StaffActivity({
			scheduler: ctx.scheduler,
			remote,
			emit,
			settings: () => activitySettingsOf(registrationAnswer()),
			everyone: config.activity.everyone === true,
			chatMessages: config.activity.chatMessages === true,
			chatted: seams.chatted ?? defaultChatted,
			guard: ctx.guard,
		}));
		this.joins.onAnswered((player, result) => {
			// Activity is asked of clients only where the sync carries it (the deployed profile, sync on).
			const tracked = isTrackedResult(result) && ctx.syncRuns();
			activity.answered(player, tracked, result.isStaff, result.sessionId);
		});
		ctx.listen(remote, "activity report", (player, args) => activity.handle(player, args));
	}

	left(player: Player): void {
		this.activity?.forget(player);
	}

	/** The old sessions are gone: nothing is reported until each player's join under the new registration. */
	forgotten(): void {
		this.activity?.suspend();
	}

	stop(): void {
		this.activity?.stop();
	}

	diagnostics(): Partial<StaffActivityStats> {
		return this.activity ? { ...this.activity.stats } : {};
	}
}
