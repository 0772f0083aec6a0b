// The shapes of the Staff Operations Service's answers, as the client hands them to game code. The client reads
// answers tolerantly (DESIGN §3, `schemas.ts`): only what identifies a resource (`_id`, a call message's `id`, a
// membership's `teamId`) or what the library itself needs is required. Every other field may be absent: the
// deployed service leaves fields out when it has no value, and a field whose value has a type we cannot use is
// left out rather than failing the answer. Lists the service leaves out when empty read as empty lists. Fields
// the service adds beyond these are kept.

/**
 * The kinds of staff history action.
 * @see README#typed-client
 */
export type HistoryType = "promotion" | "suspension" | "termination" | "writeup";

/**
 * The platforms `playerJoin` accepts, exactly as the service spells them.
 * @see README#typed-client
 */
export type Platform = "Phone" | "Tablet" | "Console" | "Desktop" | "unknown";

/**
 * A staff history item (a promotion, suspension, termination or writeup).
 * @see README#typed-client
 */
export interface HistoryItem {
	readonly _id: string;
	readonly groupId?: string;
	/** `promotion`, `suspension`, `termination` or `writeup` (see {@link HistoryType}); other values pass as they are. */
	readonly type?: string;
	/** The interface allows a boolean or a string; the deployed service also sends numbers. */
	readonly userId?: boolean | string | number;
	/** A user id; the deployed service may send it as a number. */
	readonly disciplinarianId?: string | number;
	readonly reason?: string;
	readonly created?: string;
	readonly expires?: string;
	/** The rank given; `false` when there is none (the deployed service's way of saying so). */
	readonly rankTo?: string | false;
	readonly rankFrom?: string;
	/** Absent on the deployed service when the item has not ended. */
	readonly ended?: boolean;
	readonly endedBy?: string;
	readonly evidence?: ReadonlyArray<string>;
	readonly pendingApproval?: boolean;
	readonly approvedBy?: string;
	readonly notify?: boolean;
	readonly distribution?: number;
}

/**
 * A history item as `GET /staff/history` lists it: the interface says without `type`, the deployed service sends it.
 * @see README#typed-client
 */
export type HistoryListItem = HistoryItem;

/**
 * The five minute counters of an activity summary or session.
 * @see README#typed-client
 */
export interface ActivityMinutes {
	readonly total?: number;
	readonly active?: number;
	readonly inactive?: number;
	readonly typing?: number;
	readonly messages?: number;
}

/**
 * The workspace (group) a server was registered in, as `createServer` returns it.
 * @see README#typed-client
 */
export interface Workspace {
	readonly groupId?: string;
	/** The deployed service names these fields differently; what it sends is kept as it is. */
	readonly owner?: { readonly serviceId?: string; readonly platformId?: string };
	readonly minSyncRole?: number;
	/**
	 * The service echoes the workspace's API key here; the client always replaces it with `<redacted>`, so the key
	 * never reaches game code, a log line or a signal.
	 */
	readonly loaderId?: string;
	readonly currentDistribution?: number;
	readonly distributionPeriod?: string;
	readonly distributionDMs?: boolean;
	readonly premium?: {
		readonly is?: boolean;
		readonly subscriptionId?: string;
		readonly planType?: string;
		/** The deployed service names these fields differently; what it sends is kept as it is. */
		readonly managedBy?: { readonly platformId?: string; readonly customerId?: string };
	};
	readonly tags?: ReadonlyArray<string>;
	readonly created?: string;
	readonly brandColor?: string;
	readonly groupName?: string;
	readonly syncing?: boolean;
	readonly lastSynced?: string;
	readonly trackedStaff?: number;
	readonly overrideRoleMaximumSize?: number;
	readonly banStatus?: { readonly is?: boolean; readonly reason?: string; readonly bannedBy?: string };
}

/**
 * One item line of an order.
 * @see README#typed-client
 */
export interface OrderItem {
	readonly item: string;
	readonly quantity: number;
}

/**
 * An order; `status` appears in the release answer only.
 * @see README#typed-client
 */
export interface Order {
	readonly _id: string;
	readonly groupId?: string;
	readonly customerId?: string;
	readonly cashierId?: string;
	readonly status?: string;
	readonly items?: ReadonlyArray<Partial<OrderItem>>;
	readonly placeId?: string;
	readonly gameId?: string;
	readonly created?: string;
	readonly log?: ReadonlyArray<{ readonly event?: string; readonly userId?: string; readonly date?: string }>;
	readonly involvedUsers?: ReadonlyArray<string>;
	readonly lastModified?: string;
}

/**
 * A staff member's activity summary for the current distribution period.
 * @see README#typed-client
 */
export interface ActivitySummary {
	readonly _id: string;
	readonly userId?: string;
	readonly groupId?: string;
	readonly distribution?: string;
	readonly sessions?: ReadonlyArray<string>;
	readonly minutes?: ActivityMinutes;
	/** Inner fields not described by the interface. */
	readonly goals?: object;
	readonly created?: string;
	readonly attendedSessions?: ReadonlyArray<string>;
	readonly updated?: string;
}

/**
 * One game session of a staff member.
 * @see README#typed-client
 */
export interface ActivitySession {
	readonly _id: string;
	readonly groupId?: number;
	readonly userId?: number;
	readonly gameId?: number;
	readonly placeId?: number;
	readonly internalGameId?: string;
	readonly platform?: string;
	readonly staff?: boolean;
	readonly inGame?: boolean;
	readonly distribution?: number;
	readonly minutes?: ActivityMinutes;
	readonly started?: string;
	readonly ended?: string;
	readonly created?: string;
}

/**
 * A running game server as the service knows it.
 * @see README#typed-client
 */
export interface RunningGame {
	readonly _id: string;
	readonly version?: string;
	readonly groupId?: string;
	readonly internalGameId?: string;
	readonly gameId?: number;
	readonly placeId?: number;
	readonly jobId?: string;
	readonly privateServerId?: string;
	readonly privateServerOwnerId?: number;
	readonly placeVersion?: string;
	readonly players?: ReadonlyArray<string>;
	readonly lastPing?: string;
	readonly created?: string;
}

/**
 * A player in a running game server.
 * @see README#typed-client
 */
export interface RunningPlayer {
	readonly _id: string;
	readonly runningGameId?: string;
	readonly groupId?: string;
	readonly internalGameId?: string;
	readonly userId?: string;
	readonly platform?: Platform;
	readonly isStaff?: boolean;
	readonly joined?: string;
}

/**
 * One step of a time off request's approval chain.
 * @see README#typed-client
 */
export interface ApprovalStep {
	readonly index?: number;
	readonly label?: string;
	readonly type?: string;
	readonly approverIds?: ReadonlyArray<string>;
	readonly status?: string;
	readonly decidedBy?: string;
	readonly decidedAt?: string;
	readonly note?: string;
}

/**
 * A time off request with its approval chain.
 * @see README#typed-client
 */
export interface TimeOffRequest {
	readonly _id: string;
	readonly groupId?: string;
	readonly userId?: string;
	readonly reason?: string;
	readonly starts?: string;
	readonly ends?: string;
	readonly status?: string;
	readonly created?: string;
	readonly teamId?: string;
	readonly reviewedBy?: string;
	readonly reviewNote?: string;
	readonly reviewedAt?: string;
	readonly approvalChain?: ReadonlyArray<ApprovalStep>;
	readonly currentStepIndex?: number;
	readonly currentApproverIds?: ReadonlyArray<string>;
}

/**
 * One message of a support call's transcript; `id` tells new messages from seen ones.
 * @see README#typed-client
 */
export interface CallMessage {
	readonly id: string;
	readonly username?: string;
	readonly userId?: number;
	readonly message?: string;
	readonly origin?: string;
	readonly sentFrom?: string;
	readonly created?: string;
}

/**
 * A team a user belongs to, with the user's role on it.
 * @see README#typed-client
 */
export interface TeamMembership {
	readonly teamId: string;
	readonly teamName?: string;
	readonly roleId?: string;
	readonly roleName?: string;
	readonly isLead?: boolean;
	readonly created?: string;
}

// ---- Arguments ----

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
