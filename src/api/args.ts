import type { Platform } from "../shared/reportPayload";
import type { HistoryType, OrderItem } from "./resources";

// Arguments of the typed client's calls, as game code passes them.

/**
 * Arguments of `client.history.record` (`POST /staff/history`).
 * @see README#typed-client
 */
export interface RecordHistoryArgs {
	/** Who takes the action (a user id). */
	readonly actioningUser: string;
	/** Whom it concerns (a user id). */
	readonly userId: string;
	readonly reason: string;
	readonly type: HistoryType;
	/** The service's own spelling. */
	readonly approval_required: boolean;
	readonly notify?: boolean;
	readonly role?: string;
	/** From 0 to 36500. */
	readonly expiresInDays?: number;
}

/**
 * Arguments of `client.activity.registerServer` (`POST /activity/createServer`); see DESIGN §3 for the values.
 * @see README#typed-client
 */
export interface CreateServerArgs {
	/** `game.GameId` (0 in an unpublished place). */
	readonly gameId: number;
	/** `game.PlaceId`. */
	readonly placeId: number;
	/** `game.JobId` (empty in Studio). */
	readonly jobId: string;
	/** `game.PrivateServerId` (empty on public servers). */
	readonly privateServerId: string;
	/** `game.PrivateServerOwnerId` (0 on public servers). */
	readonly privateServerOwnerId: number;
	/** `tostring(game.PlaceVersion)`. */
	readonly placeVersion: string;
}

/**
 * Arguments of `client.activity.reportJoin` (`POST /activity/playerJoin`).
 * @see README#typed-client
 */
export interface PlayerJoinArgs {
	/** `player.UserId`, a positive integer. */
	readonly playerId: number;
	/** Whether safe chat is on for the player. */
	readonly safechat: boolean;
	readonly username: string;
	/** `±HH:MM`, e.g. `-05:00`. */
	readonly tzOffset: string;
	readonly platform: Platform;
	/** The `runningGameId` the server was registered under. */
	readonly gameId: string;
	/** Deployed service: when the player joined, in Unix milliseconds (the session starts then, not on arrival). */
	readonly datetime?: number;
	/** Deployed service: the UserId as a string. */
	readonly userKey?: string;
	/** Deployed service: `player.DisplayName`. */
	readonly displayName?: string;
}

/**
 * Arguments of `client.orders.create` (`POST /orders`).
 * @see README#typed-client
 */
export interface CreateOrderArgs {
	readonly customerId: string;
	readonly cashierId: string;
	/** At least one line; quantities positive. */
	readonly items: ReadonlyArray<OrderItem>;
	readonly placeId: string;
	readonly gameId: string;
}

/**
 * Arguments of `client.orders.release` (`PUT /orders/{orderId}/release`).
 * @see README#typed-client
 */
export interface ReleaseOrderArgs {
	/** Who releases the order (a user id). */
	readonly actorId: string;
}

/**
 * Arguments of `client.extensions.reportLeave` (`POST /activity/playerLeave/v2`, an extension of the deployed
 * service).
 * @see README#deployed-service-extensions
 */
export interface PlayerLeaveArgs {
	/** The `runningGameId` the server was registered under. */
	readonly runningGameId: string;
	/** `player.UserId`. */
	readonly userId: number;
	/** When the player left, in Unix seconds (`os.time()`). */
	readonly leftTime: number;
}
