import type { Platform } from "../../shared/reportPayload";
import { PLATFORMS } from "../../shared/reportPayload";
import type { CallOptions } from "../callOptions";
import { array, bool, literal, num, object, opt, Reader, req, str, strings, succeeded } from "../reader";
import { Call, route } from "../routeSpec";

// Running games: `client.games`. Reading one running server and its players.
// Readers are tolerant (`reader.ts`): what identifies a resource or what the library itself needs is required,
// everything else optional; each answer reader is declared against its answer type, so the compiler checks the two agree.

// ---- Resources ----

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
	/** The deployed service's: the session this player's join opened (the join answer's `sessionId`). */
	readonly userSessionId?: string;
}

// ---- Answers ----

/** Answer of `client.games.getRunning`. @see README#typed-client */
export interface RunningGameAnswer {
	readonly success: true;
	readonly runningGame?: RunningGame;
	/** Absent when the service did not list the players (which is not the same as listing nobody). */
	readonly players?: ReadonlyArray<RunningPlayer>;
	/**
	 * Not sent by the service: how many listed players had a `platform` StaffOps does not know (a service may add
	 * one), left out of their entry rather than read as one it knows; absent when none had.
	 */
	readonly unknownPlatforms?: number;
}

const runningGame: Reader<RunningGame> = object({
	_id: req(str),
	version: opt(str),
	groupId: opt(str),
	internalGameId: opt(str),
	gameId: opt(num),
	placeId: opt(num),
	jobId: opt(str),
	privateServerId: opt(str),
	privateServerOwnerId: opt(num),
	placeVersion: opt(str),
	players: opt(strings),
	lastPing: opt(str),
	created: opt(str),
});

/** A player's platform StaffOps knows (`playerJoin` sends only these). */
const platform = literal<Platform>(...PLATFORMS);

const runningPlayer: Reader<RunningPlayer> = object({
	_id: req(str),
	runningGameId: opt(str),
	groupId: opt(str),
	internalGameId: opt(str),
	userId: opt(str),
	platform: opt(platform),
	isStaff: opt(bool),
	joined: opt(str),
	userSessionId: opt(str),
});

/**
 * `reader`, counting first the listed players whose `platform` is text StaffOps does not know (reading leaves it out
 * of their entry, as any value it cannot use): `unknownPlatforms`. A platform of another type is unusable, not
 * unknown; an entry without its id, or a list that is no list, is not read at all.
 */
function withUnknownPlatforms<T>(reader: Reader<T>): Reader<T> {
	return {
		read: (value, path, slices) => {
			let unknown = 0;
			const players = typeIs(value, "table") ? (value as { players?: unknown }).players : undefined;
			if (typeIs(players, "table")) {
				for (const [, entry] of pairs(players)) {
					slices?.step();
					if (!typeIs(entry, "table")) continue;
					const { _id: id, platform: given } = entry as { _id?: unknown; platform?: unknown };
					if (typeIs(id, "string") && typeIs(given, "string") && platform.read(given, "") !== undefined)
						unknown += 1;
				}
			}
			const problem = reader.read(value, path, slices);
			const answer = value as { players?: unknown; unknownPlatforms?: number };
			if (problem === undefined && unknown > 0 && answer.players !== undefined) answer.unknownPlatforms = unknown;
			return problem;
		},
	};
}

// ---- Routes ----

/** The routes of running games. @internal */
export const gamesRoutes = {
	getRunningGame: route({
		method: "GET",
		path: "/games/running/{internalGameId}",
		safeToRepeat: true,
		answer: withUnknownPlatforms(
			object({
				success: succeeded,
				runningGame: opt(runningGame),
				players: opt(array(runningPlayer)),
			}),
		) satisfies Reader<RunningGameAnswer>,
	}),
};

// ---- Namespace ----

/**
 * Running games: `client.games`.
 * @see README#typed-client
 */
export interface GamesApi {
	/** Reads one running server and its players (`GET /games/running/{internalGameId}`). */
	getRunning(internalGameId: string, options?: CallOptions): Promise<RunningGameAnswer>;
}

/** Builds `client.games` on the api client's call. @internal */
export function gamesApi(call: Call<keyof typeof gamesRoutes>): GamesApi {
	return {
		getRunning(internalGameId, options) {
			return call("getRunningGame", options, [internalGameId]);
		},
	};
}
