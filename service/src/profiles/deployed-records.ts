/**
 * What the deployed profile keeps per workspace for the in-game routes beyond the interface (docs/service-contract.md#routes-beyond-the-interface):
 * in-game settings, tickets, session events, consent and dashboard actions.
 */

/** The createServer answer's extra top-level settings; the control API changes them. */
export interface InGameSettings {
	/** The workspace takes in-game support calls (the official module shows its call menu only then). */
	moderation: boolean;
	privacy: { trackStaffOnly: boolean; requireConsent: boolean };
	/** Which activity signals to report, in the deployed service's shape (docs/service-contract.md#session-events). */
	afkReportingSettings: { altTab: AfkSignal; movement: AfkSignal };
}

/**
 * One signal of `afkReportingSettings` as the deployed service answers it: on or off, and seconds until idle
 * (integer 0 to 3600; absent: the official module's 45 s). The control API may set the older `true`/number shapes
 * too, so specs can show the library still reads them.
 */
export type AfkSignal = { active: boolean; timeUntilIdle?: number } | boolean | number;

/** Calls on (so the demo shows them), tracking of everyone, both AFK signals as the deployed service's default. */
export function defaultInGameSettings(): InGameSettings {
	return {
		moderation: true,
		privacy: { trackStaffOnly: false, requireConsent: false },
		afkReportingSettings: { altTab: { active: true }, movement: { active: true } },
	};
}

export type CallType = "support" | "report";

/** Why a ticket closed: the three `support/end` reasons, or an agent's end. */
export type ClosedReason = "closedByUser" | "userLeft" | "serverClosed" | "closedByAgent" | string;

export interface TicketInfo {
	_id: string;
	callType: CallType | string;
	/** The caller's UserId (a dashboard-started chat: the member it was started with). */
	callerId: number;
	reason: string;
	/** The reported player's name; null for support. */
	reporting: string | null;
	/** `[[userId, name, displayName], ...]` as the caller's server sent them. */
	players: unknown[];
	/** The running game the call belongs to: ongoingChats of that server carry it. */
	runningGameId: string;
	createdMs: number;
	claimedBy: string | null;
	closedReason: ClosedReason | null;
	/** A closed ticket goes out once in ongoingChats; then it is acknowledged and never sent again. */
	acknowledged: boolean;
}

export interface ConsentRecord {
	userId: string;
	runningGameId: string;
	granted: boolean;
	at: number;
}

export interface SessionEventRecord {
	/** The event as sent (type, date, datetime, user, userKey, sessionIds and any other field). */
	event: Record<string, unknown>;
	/** The session it was stored for (`sessionIds.userGameSession`). */
	sessionId: string;
	userId: string;
	runningGameId: string;
	receivedAt: number;
}

/** A dashboard action for one server, kept as given so hostile actions can be injected too. */
export interface QueuedAction {
	runningGameId: string;
	action: Record<string, unknown>;
	queuedAt: number;
}

export interface DeliveredAction extends QueuedAction {
	deliveredAt: number;
	/** The fault kind of the sendData answer that carried it (e.g. "drop-after": it was lost), or null. */
	fault: string | null;
}
