import type { StaffOpsStatus } from "./status";
import type { Platform } from "../shared/reportPayload";
import type { PlayerJoinArgs } from "../api/resources/activity";
import type { ClientReportPayload } from "../shared/reportPayload";
import type { Signal } from "../shared/signal";
import type { CreateServerAnswer } from "../api/resources/activity";

/**
 * What the service answered to a player's join, with what was reported.
 *
 * @example
 * ```ts
 * StaffOps.playerReported.Connect((player, result) => print(player.Name, result.isStaff, result.platform));
 * ```
 * @see README#game-integration
 */
export interface JoinResult {
	/** The service reported the player as banned (they are kicked unless `kickBanned` is false). */
	readonly banned: boolean;
	/** The ban reason; empty when not banned. */
	readonly reason: string;
	/** Staff according to the service; never true for a banned player. */
	readonly isStaff: boolean;
	/** The activity session the join opened; absent for a banned player or when the service did not say. */
	readonly sessionId?: string;
	/** The player's id as a running player of this server; absent for a banned player or when the service did not say. */
	readonly runningPlayerId?: string;
	/** What was reported: the platform (from the client, or `unknown`). */
	readonly platform: Platform;
	/** What was reported: the offset (from the client, or `-00:00` when unknown). */
	readonly tzOffset: string;
	/** What was reported: whether safe chat is on (the player may not chat freely). */
	readonly safechat: boolean;
	/** False when the service tracks nothing for this player (its staff-only mode, data removal, consent denied). */
	readonly tracked?: boolean;
	/** The service asks for the player's consent before it keeps this visit (`StaffOps.consentRequested`). */
	readonly needsConsent?: boolean;
}

/**
 * A player's session with the service, from the answer to their join.
 *
 * @example
 * ```ts
 * const session = StaffOps.getSession(player);
 * if (session) print(session.sessionId);
 * ```
 * @see README#game-integration
 */
export interface PlayerSession {
	/** Absent when the service did not say (its privacy modes, or a join confirmed from the player list). */
	readonly sessionId?: string;
	/** Absent when the service did not say. */
	readonly runningPlayerId?: string;
	readonly isStaff: boolean;
}

/**
 * The signals a server fires (`StaffOps` owns them, so game code can connect before `start`): the status here,
 * each feature's from its face (`declare module`). @internal
 */
export interface ServerSignals {
	readonly statusChanged: Signal<[status: StaffOpsStatus]>;
}

/**
 * The player attribute that marks staff (`true`/`false` once the service answered the join). Attributes replicate,
 * so client code can read it too.
 *
 * @example
 * ```ts
 * // client or server
 * const isStaff = player.GetAttribute(STAFF_ATTRIBUTE) === true;
 * ```
 * @see README#game-integration
 */
export const STAFF_ATTRIBUTE = "StaffOpsIsStaff";

/**
 * Where a player's join is:
 * - `gathering`: waiting for the client report (or its timeout) and the safechat read;
 * - `ready`: waiting to be sent (registration pending, or a retry after a failure);
 * - `sending`: the request is out;
 * - `checking`: its outcome is unknown; the running game's player list will tell (`joinLookup.ts`);
 * - `answered`: the service answered (or acted with an answer that could not be read);
 * - `refused`: the service refused it for good.
 * @internal
 */
export type Phase = "gathering" | "ready" | "sending" | "checking" | "answered" | "refused";

/** One player the integration tracks. @internal */
export interface PlayerRecord {
	readonly player: Player;
	readonly userId: number;
	readonly username: string;
	/** 1, 2, 3, ... in the order players were tracked: joins go out in that order. */
	readonly order: number;
	phase: Phase;
	report?: ClientReportPayload;
	reportTimedOut: boolean;
	safechat?: boolean;
	request?: Promise<unknown>;
	answer?: JoinResult;
	/** Sequence number of the answer, to tell which answers a heartbeat's player list can already contain. */
	answeredSeq: number;
	/** The registration (`runningGameId`) the join was answered under: a leave names that server. */
	answeredUnder?: string;
	announced: boolean;
	/** The player left while their join was still pending; when it settles, the leave follows (or nothing is sent). */
	left: boolean;
	/** When the player left, in Unix milliseconds. */
	leftAtMs?: number;
	/** What the last join request carried. */
	sentArgs?: PlayerJoinArgs;
	/** The staff hint says this player likely is staff: their join goes ahead of the queue. */
	likelyStaff: boolean;
	/** The staff hint's rank read is done (or timed out, or there is no hint). */
	rankKnown: boolean;
	/** When the player joined (PlayerAdded), in Unix milliseconds: the deployed service's `datetime`. */
	readonly joinedAtMs: number;
}

/** The server this integration registered as. @internal */
export interface Registered {
	readonly internalGameId: string;
	readonly runningGameId: string;
	/** The registration answer (the deployed profile and its facts are read from it). */
	readonly answer?: CreateServerAnswer;
}
