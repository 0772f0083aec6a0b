// What dashboard actions show game code: a signal for each kind of action that reaches a player or the server.
import { Signal } from "../../../shared/signal";
import type { FeatureFace } from "../../face";

/** The dashboard actions' signals in `StaffOps`. */
export interface DashboardSignals {
	/**
	 * Fires when a dashboard (or Discord) kick reaches a player on this server, just before they are kicked, with the
	 * message they see (filtered for them). Deployed profile.
	 *
	 * @example
	 * ```ts
	 * StaffOps.dashboardKick.Connect((player, message) => print(`${player.Name} kicked: ${message}`));
	 * ```
	 * @see README#deployed-service-extensions
	 */
	readonly dashboardKick: Signal<[player: Player, message: string]>;

	/**
	 * Fires when the dashboard sends a player a notification, with its text filtered for them. StaffOps also shows it
	 * in a small built-in UI unless `builtInNotifications` is false. Deployed profile.
	 *
	 * @example
	 * ```ts
	 * StaffOps.notified.Connect((player, text) => showBanner(player, text));
	 * ```
	 * @see README#deployed-service-extensions
	 */
	readonly notified: Signal<[player: Player, text: string]>;

	/**
	 * Fires once when the dashboard shuts this server down, before everyone is kicked with `message` (every later
	 * joiner is kicked too). Deployed profile.
	 *
	 * @example
	 * ```ts
	 * StaffOps.shutdownRequested.Connect((message) => saveEverything());
	 * ```
	 * @see README#deployed-service-extensions
	 */
	readonly shutdownRequested: Signal<[message: string]>;
}

/** The dashboard actions' part of `StaffOps`: signals only. (In the package's declarations for the entry's type; not an API.) */
export const DASHBOARD_ACTIONS_FACE: FeatureFace<DashboardSignals, {}> = {
	signals: {
		dashboardKick: new Signal<[player: Player, message: string]>(),
		notified: new Signal<[player: Player, text: string]>(),
		shutdownRequested: new Signal<[message: string]>(),
	},
	functions: () => ({}),
};
