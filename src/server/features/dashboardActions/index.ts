// The dashboard actions feature: kicks, notifications and shutdowns that ride the sync's answers into the game.
import { NOTIFICATIONS_REMOTE } from "../../../shared/notifyProtocol";
import { robloxTextFilter } from "../../../roblox/textFilter";
import { DashboardActions } from "./dashboardActions";
import { DASHBOARD_ACTIONS_FACE, DashboardSignals } from "./face";
import type { ServerContext } from "../../context";
import type { Feature, FeatureDeclaration } from "../../feature";

/**
 * The dashboard actions' setting in `StaffOpsConfig`.
 */
export interface DashboardActionsConfig {
	/**
	 * Show a dashboard notification to the player in StaffOps' own small UI (attribute `BuiltInNotifications`).
	 * Default true; false for games that draw their own from `StaffOps.notified`.
	 */
	readonly builtInNotifications?: boolean;
}

// Its settings join `StaffOpsConfig` (and their resolved types `StaffOpsSettings`): the core names no feature.
declare module "../../config" {
	interface StaffOpsBaseConfig extends DashboardActionsConfig {}
	interface ResolvedSettings {
		readonly builtInNotifications: boolean;
	}
}
// Its signals join the server's.
declare module "../../records" {
	interface ServerSignals extends DashboardSignals {}
}

/**
 * Dashboard actions (deployed profile): kicks, notifications and shutdowns that ride the sync's answers into the
 * game; a notification shows in the built-in UI unless turned off.
 * In the package's declarations for the config type; not an API.
 */
export const DASHBOARD_ACTIONS: FeatureDeclaration<
	DashboardActionsConfig,
	"dashboardActions",
	typeof DASHBOARD_ACTIONS_FACE
> = {
	name: "dashboardActions",
	settings: [{ field: "builtInNotifications", attribute: "BuiltInNotifications", default: true }],
	remotes: [NOTIFICATIONS_REMOTE],
	clientParts: [{ folder: "notify", start: "startNotifications" }],
	face: DASHBOARD_ACTIONS_FACE,
};

/** Dashboard actions acted on, by type. @internal */
export interface DashboardActionsDiagnostics {
	readonly kick: number;
	readonly notify: number;
	readonly shutdown: number;
	readonly dropped: number;
	/** Kicks and notifications for a player not on this server, passed on to the others (cross-server delivery). */
	readonly passedOn: number;
	/** Actions whose message was longer than a notification shows and a cross-server message carries: cut, then acted on. */
	readonly cut: number;
	/** Actions of a type this game does not know (the service may add one): left alone, warned once, never shown. */
	readonly unknown: number;
}

/** The dashboard actions feature. @internal */
export class DashboardActionsFeature implements Feature {
	readonly declaration = DASHBOARD_ACTIONS;
	readonly actions: DashboardActions;

	constructor(ctx: ServerContext) {
		this.actions = new DashboardActions({
			players: ctx.players,
			filter: ctx.seams.textFilter ?? robloxTextFilter,
			signals: ctx.signals,
			notifications: () => (ctx.config.builtInNotifications ? ctx.remotes?.[NOTIFICATIONS_REMOTE] : undefined),
		});
	}

	joined(player: Player): void {
		// A server the dashboard shut down kicks every later joiner too.
		this.actions.joined(player);
	}

	diagnostics(): DashboardActionsDiagnostics {
		return { ...this.actions.counts };
	}
}
