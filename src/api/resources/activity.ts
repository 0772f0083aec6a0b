import type { Platform } from "../../shared/reportPayload";
import { isPlatform, PLATFORMS } from "../../shared/reportPayload";
import {
	ArgSpec,
	boolRule,
	idRule,
	isFiniteNumber,
	positiveIdRule,
	robloxIdRule,
	Rule,
	serviceIdRule,
	shortTextRule,
} from "../arguments";
import type { CallOptions } from "../callOptions";
import { anyTable, bool, list, num, object, opt, Reader, req, str, strings, succeeded } from "../reader";
import { Call, route } from "../routeSpec";
import { Workspace, workspace } from "./workspace";

// Activity tracking: `client.activity`. Registering a running server, reporting joins, reading a user's activity.
// Readers are tolerant (`reader.ts`): what identifies a resource or what the library itself needs is required,
// everything else optional; each answer reader is declared against its answer type, so the compiler checks the two agree.

// ---- Resources ----

// The workspace `createServer` answers with is its own module (the deployed service's `getServer` answers it too);
// named here as well, beside the answer that carries it.
export type { Workspace } from "./workspace";

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

// ---- Arguments ----

/**
 * Arguments of `client.activity.registerServer` (`POST /activity/createServer`); see docs/service-contract.md#createserver-body for the values.
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

const platformRule: Rule = [isPlatform, `one of ${PLATFORMS.join(", ")}`];
const tzOffsetRule: Rule = [
	(value) => {
		if (!typeIs(value, "string")) return false;
		const [hours, minutes] = value.match("^[+-](%d%d):(%d%d)$");
		if (!typeIs(hours, "string") || !typeIs(minutes, "string")) return false;
		return tonumber(hours)! <= 14 && tonumber(minutes)! <= 59;
	},
	"an offset like +02:00 or -05:30",
];

const createServerArgs: ArgSpec = {
	required: {
		gameId: robloxIdRule,
		placeId: robloxIdRule,
		jobId: shortTextRule,
		privateServerId: shortTextRule,
		privateServerOwnerId: robloxIdRule,
		placeVersion: shortTextRule,
	},
};

const playerJoinArgs: ArgSpec = {
	required: {
		playerId: positiveIdRule,
		safechat: boolRule,
		username: idRule,
		tzOffset: tzOffsetRule,
		platform: platformRule,
		gameId: serviceIdRule,
	},
	// The deployed service's fields; never `groupRank`, which it trusts for players it has no member record of.
	optional: {
		datetime: [(value) => isFiniteNumber(value) && value > 1e12, "a time in Unix milliseconds"],
		userKey: idRule,
		displayName: idRule,
	},
};

// ---- Answers ----

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

const minutes = object({
	total: opt(num),
	active: opt(num),
	inactive: opt(num),
	typing: opt(num),
	messages: opt(num),
});

const activitySummary: Reader<ActivitySummary> = object({
	_id: req(str),
	userId: opt(str),
	groupId: opt(str),
	distribution: opt(str),
	sessions: opt(strings),
	minutes: opt(minutes),
	goals: opt(anyTable),
	created: opt(str),
	attendedSessions: opt(strings),
	updated: opt(str),
});

const activitySession: Reader<ActivitySession> = object({
	_id: req(str),
	groupId: opt(num),
	userId: opt(num),
	gameId: opt(num),
	placeId: opt(num),
	internalGameId: opt(str),
	platform: opt(str),
	staff: opt(bool),
	inGame: opt(bool),
	distribution: opt(num),
	minutes: opt(minutes),
	started: opt(str),
	ended: opt(str),
	created: opt(str),
});

// ---- Routes ----

/** The routes of activity tracking. @internal */
export const activityRoutes = {
	createServer: route({
		method: "POST",
		path: "/activity/createServer",
		safeToRepeat: false,
		priority: "high",
		args: createServerArgs,
		answer: object({
			success: succeeded,
			gameId: req(str),
			runningGameId: req(str),
			workspace: opt(workspace),
		}) satisfies Reader<CreateServerAnswer>,
	}),
	playerJoin: route({
		method: "POST",
		path: "/activity/playerJoin",
		safeToRepeat: false,
		priority: "high",
		args: playerJoinArgs,
		answer: object({
			success: succeeded,
			banned: opt(bool),
			reason: opt(str),
			isStaff: opt(bool),
			sessionId: opt(str),
			runningPlayerId: opt(str),
		}) satisfies Reader<PlayerJoinAnswer>,
	}),
	getActivity: route({
		method: "GET",
		path: "/activity/workspace/users/{userId}/activity",
		safeToRepeat: true,
		answer: object({
			success: succeeded,
			summary: opt(activitySummary),
			sessions: list(activitySession),
		}) satisfies Reader<UserActivityAnswer>,
	}),
};

// ---- Namespace ----

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

/** Builds `client.activity` on the api client's call. @internal */
export function activityApi(call: Call<keyof typeof activityRoutes>): ActivityApi {
	return {
		registerServer(args, options) {
			return call("createServer", options, [], args);
		},
		reportJoin(args, options) {
			return call("playerJoin", options, [], args);
		},
		getUserActivity(userId, options) {
			return call("getActivity", options, [userId]);
		},
	};
}
