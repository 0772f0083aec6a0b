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

import type { Platform } from "../shared/reportPayload";

export type { Platform } from "../shared/reportPayload";

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
