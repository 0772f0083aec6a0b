// What the joins feature shows game code: who is staff, who is tracked, each player's session, and three signals.
import { Signal } from "../../../shared/signal";
import type { FeatureFace } from "../../face";
import type { JoinResult, PlayerSession } from "../../records";

/** The joins' signals in `StaffOps`. */
export interface JoinsSignals {
	/**
	 * Fires once per player when the service says they are staff (after their attribute `StaffOpsIsStaff` is set).
	 *
	 * @example
	 * ```ts
	 * StaffOps.staffJoined.Connect((player) => giveStaffTools(player));
	 * ```
	 * @see README#game-integration
	 */
	readonly staffJoined: Signal<[player: Player]>;

	/**
	 * Fires each time the service answers a player's join (again after the service forgot the server and the join
	 * was reported anew), banned players included.
	 *
	 * @example
	 * ```ts
	 * StaffOps.playerReported.Connect((player, result) => print(player.Name, result.sessionId));
	 * ```
	 * @see README#game-integration
	 */
	readonly playerReported: Signal<[player: Player, result: JoinResult]>;

	/**
	 * Fires once per player the service reports as banned, just before they are kicked (unless `kickBanned` is false).
	 *
	 * @example
	 * ```ts
	 * StaffOps.playerBanned.Connect((player, reason) => print(`${player.Name} banned: ${reason}`));
	 * ```
	 * @see README#game-integration
	 */
	readonly playerBanned: Signal<[player: Player, reason: string]>;
}

/** The joins' functions in `StaffOps`. */
export interface JoinsFunctions {
	/**
	 * Whether the service marked `player` as staff. False until their join is answered, for banned players, and
	 * when StaffOps is not running.
	 *
	 * @example
	 * ```ts
	 * if (StaffOps.isStaff(player)) openStaffPanel(player);
	 * ```
	 * @see README#game-integration
	 */
	readonly isStaff: (player: Player) => boolean;

	/**
	 * Whether the service tracks `player`. False until their join is answered, for banned players, for players the
	 * service tracks nothing for (`tracked: false`: its staff-only mode, data removal, consent denied; such a player
	 * is not banned and plays on), and when StaffOps is not running. Nothing is sent for an untracked player: no
	 * leave, no activity, no support call.
	 *
	 * @example
	 * ```ts
	 * if (StaffOps.isTracked(player)) showSupportButton(player);
	 * ```
	 * @see README#tracking-modes
	 */
	readonly isTracked: (player: Player) => boolean;

	/**
	 * The player's session with the service (`sessionId`, `runningPlayerId`, `isStaff`), or undefined until their
	 * join is answered.
	 *
	 * @example
	 * ```ts
	 * const session = StaffOps.getSession(player);
	 * ```
	 * @see README#game-integration
	 */
	readonly getSession: (player: Player) => PlayerSession | undefined;
}

/** What the joins' functions read of the running feature. @internal */
export interface JoinsLookup {
	isStaff(player: Player): boolean;
	isTracked(player: Player): boolean;
	sessionOf(player: Player): PlayerSession | undefined;
}

/** The joins' part of `StaffOps`. (In the package's declarations for the entry's type; not an API.) */
export const JOINS_FACE: FeatureFace<JoinsSignals, JoinsFunctions, JoinsLookup> = {
	signals: {
		staffJoined: new Signal<[player: Player]>(),
		playerReported: new Signal<[player: Player, result: JoinResult]>(),
		playerBanned: new Signal<[player: Player, reason: string]>(),
	},
	functions: (running) => ({
		isStaff: (player) => running()?.isStaff(player) ?? false,
		isTracked: (player) => running()?.isTracked(player) ?? false,
		getSession: (player) => running()?.sessionOf(player),
	}),
};
