import type {
	ActivitySession,
	ActivitySummary,
	CallMessage,
	HistoryItem,
	HistoryListItem,
	Order,
	RunningGame,
	RunningPlayer,
	TeamMembership,
	TimeOffRequest,
	Workspace,
} from "./resources";

// ---- Answers (`success: true`; extra fields the service may add are kept) ----

/** Answer of `client.history.record`. @see README#typed-client */
export interface RecordHistoryAnswer {
	readonly success: true;
	readonly history: HistoryItem;
}

/**
 * Answer of `client.history.list`: the list, or (the interface allows it) only a `reason` and no list.
 * @see README#typed-client
 */
export interface ListHistoryAnswer {
	readonly success: true;
	readonly history?: ReadonlyArray<HistoryListItem>;
	readonly reason?: string;
}

/** Answer of `client.activity.registerServer`. @see README#typed-client */
export interface CreateServerAnswer {
	readonly success: true;
	/** The internal game id (the `{internalGameId}` of `client.games.getRunning`). */
	readonly gameId: string;
	/** Identifies this running server; `playerJoin` sends it as `gameId`. */
	readonly runningGameId: string;
	/** The workspace, with `loaderId` (the key) redacted. */
	readonly workspace?: Workspace;
}

/**
 * Answer of `client.activity.reportJoin`. The deployed service sends `reason` only for a banned player, and in its
 * privacy modes may leave out `banned`, `sessionId` and `runningPlayerId`: an absent `banned` means the service did
 * not say the player is banned.
 * @see README#typed-client
 */
export interface PlayerJoinAnswer {
	readonly success: true;
	readonly banned?: boolean;
	/** The ban reason when `banned`. */
	readonly reason?: string;
	readonly isStaff?: boolean;
	readonly sessionId?: string;
	readonly runningPlayerId?: string;
}

/** Answer of `client.activity.getUserActivity`. @see README#typed-client */
export interface UserActivityAnswer {
	readonly success: true;
	/** Absent (the deployed service sends `null`) when the user has no summary for the current period. */
	readonly summary?: ActivitySummary;
	readonly sessions: ReadonlyArray<ActivitySession>;
}

/** Answer of `client.games.getRunning`. @see README#typed-client */
export interface RunningGameAnswer {
	readonly success: true;
	readonly runningGame?: RunningGame;
	/** Absent when the service did not list the players (which is not the same as listing nobody). */
	readonly players?: ReadonlyArray<RunningPlayer>;
}

/** Answer of `client.orders.create` (the order has no `status`). @see README#typed-client */
export interface CreateOrderAnswer {
	readonly success: true;
	readonly order: Order;
}

/** Answer of `client.orders.release` (the order carries `status` when the service sends it). @see README#typed-client */
export interface ReleaseOrderAnswer {
	readonly success: true;
	readonly order: Order;
}

/** Answer of `client.timeOff.list`. @see README#typed-client */
export interface TimeOffListAnswer {
	readonly success: true;
	readonly requests: ReadonlyArray<TimeOffRequest>;
}

/** Answer of `client.timeOff.get`. @see README#typed-client */
export interface TimeOffAnswer {
	readonly success: true;
	readonly request: TimeOffRequest;
}

/** Answer of `client.calls.getMessages`. @see README#typed-client */
export interface CallMessagesAnswer {
	readonly success: true;
	/** The call's status, e.g. `open`. */
	readonly status: string;
	/** Messages without an `id` are left out: the bridge could not tell them apart. */
	readonly messages: ReadonlyArray<CallMessage>;
}

/** Answer of `client.teams.forUser`. @see README#typed-client */
export interface UserTeamsAnswer {
	readonly success: true;
	readonly teams: ReadonlyArray<TeamMembership>;
}

/**
 * Answer of `client.extensions.reportLeave`: `finalized` is true when this call ended the session, false when it was
 * already ended (a repeat).
 * @see README#deployed-service-extensions
 */
export interface PlayerLeaveAnswer {
	readonly success: true;
	readonly finalized?: boolean;
}

/** Answer of `client.extensions.endServer`. @see README#deployed-service-extensions */
export interface EndServerAnswer {
	readonly success: true;
}

/** Answer of `client.extensions.getServer`: the workspace, with `loaderId` redacted. @see README#deployed-service-extensions */
export interface GetServerAnswer {
	readonly success: true;
	readonly workspace?: Workspace;
}
