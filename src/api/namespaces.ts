import type { CallOptions } from "./callOptions";
import type { ConsentAnswer, ConsentArgs } from "./resources/consent";
import type {
	CallMessagesAnswer,
	CreateOrderAnswer,
	CreateOrderArgs,
	CreateServerAnswer,
	CreateServerArgs,
	EndServerAnswer,
	GetServerAnswer,
	ListHistoryAnswer,
	PlayerJoinAnswer,
	PlayerJoinArgs,
	PlayerLeaveAnswer,
	PlayerLeaveArgs,
	RecordHistoryAnswer,
	RecordHistoryArgs,
	ReleaseOrderAnswer,
	ReleaseOrderArgs,
	RunningGameAnswer,
	TimeOffAnswer,
	TimeOffListAnswer,
	UserActivityAnswer,
	UserTeamsAnswer,
} from "./types";

// The client's namespaces, one per resource: what game code calls as `client.history.record(...)` and so on.

/**
 * Staff history: `client.history`.
 * @see README#typed-client
 */
export interface HistoryApi {
	/**
	 * Records a promotion, suspension, termination or writeup (`POST /staff/history`). Not retried after an
	 * unknown outcome: a repeat would record the action twice.
	 */
	record(args: RecordHistoryArgs, options?: CallOptions): Promise<RecordHistoryAnswer>;
	/** Lists the workspace's staff history (`GET /staff/history`); items come without `type`. */
	list(options?: CallOptions): Promise<ListHistoryAnswer>;
}

/**
 * Activity tracking: `client.activity`.
 * @see README#typed-client
 */
export interface ActivityApi {
	/** Registers this running server (`POST /activity/createServer`); priority `high`. */
	registerServer(args: CreateServerArgs, options?: CallOptions): Promise<CreateServerAnswer>;
	/** Reports a player joining (`POST /activity/playerJoin`); priority `high`. */
	reportJoin(args: PlayerJoinArgs, options?: CallOptions): Promise<PlayerJoinAnswer>;
	/** Reads a staff member's activity summary and recent sessions (`GET /activity/workspace/users/{userId}/activity`). */
	getUserActivity(userId: string, options?: CallOptions): Promise<UserActivityAnswer>;
}

/**
 * Running games: `client.games`.
 * @see README#typed-client
 */
export interface GamesApi {
	/** Reads one running server and its players (`GET /games/running/{internalGameId}`). */
	getRunning(internalGameId: string, options?: CallOptions): Promise<RunningGameAnswer>;
}

/**
 * Orders: `client.orders`.
 * @see README#typed-client
 */
export interface OrdersApi {
	/** Creates an order (`POST /orders`). Not retried after an unknown outcome: a repeat would create two. */
	create(args: CreateOrderArgs, options?: CallOptions): Promise<CreateOrderAnswer>;
	/**
	 * Releases an order (`PUT /orders/{orderId}/release`). Retried after an unknown outcome; if the repeat is
	 * refused (409) the error's message says the earlier attempt may have released it.
	 */
	release(orderId: string, args: ReleaseOrderArgs, options?: CallOptions): Promise<ReleaseOrderAnswer>;
}

/**
 * Time off requests: `client.timeOff`.
 * @see README#typed-client
 */
export interface TimeOffApi {
	/** Lists every time off request (`GET /time-off`). */
	list(options?: CallOptions): Promise<TimeOffListAnswer>;
	/** Reads one time off request (`GET /time-off/{requestId}`). */
	get(requestId: string, options?: CallOptions): Promise<TimeOffAnswer>;
}

/**
 * Support calls: `client.calls`.
 * @see README#typed-client
 */
export interface CallsApi {
	/** Reads a call's status and message transcript (`GET /calls/{callId}/messages`); meant for polling. */
	getMessages(callId: string, options?: CallOptions): Promise<CallMessagesAnswer>;
}

/**
 * Teams: `client.teams`.
 * @see README#typed-client
 */
export interface TeamsApi {
	/** Lists the teams a user belongs to and their role on each (`GET /teams/users/{userId}`). */
	forUser(userId: string, options?: CallOptions): Promise<UserTeamsAnswer>;
}

/**
 * Operations the deployed Staff Operations Service has beyond the interface document (DESIGN §3): `client.extensions`.
 * A service without them answers 404 (or 405); the game integration then turns the feature that uses them off.
 * @see README#deployed-service-extensions
 */
export interface ExtensionsApi {
	/**
	 * Ends a player's activity session (`POST /activity/playerLeave/v2`, final, with `leftTime`). Idempotent on that
	 * service: a repeat answers `finalized: false`, so it is retried after an unknown outcome.
	 */
	reportLeave(args: PlayerLeaveArgs, options?: CallOptions): Promise<PlayerLeaveAnswer>;
	/** Ends the sessions still in game and removes the server (`DELETE /activity/endServer`). */
	endServer(runningGameId: string, options?: CallOptions): Promise<EndServerAnswer>;
	/** Reads the workspace by running game id (`POST /activity/getServer`); refreshes the server's presence there. */
	getServer(runningGameId: string, options?: CallOptions): Promise<GetServerAnswer>;
	/** Records a player's answer to the consent prompt (`POST /activity/consent`); sent once, never repeated blindly. */
	recordConsent(args: ConsentArgs, options?: CallOptions): Promise<ConsentAnswer>;
}
