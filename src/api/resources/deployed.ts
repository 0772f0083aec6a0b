import { ArgSpec, boolRule, idRule, isFiniteNumber, Rule, serviceIdRule } from "../arguments";
import type { CallOptions } from "../callOptions";
import { bool, object, opt, Reader, succeeded } from "../reader";
import { Call, route } from "../routeSpec";
import { consentMethods, ConsentMethods, consentRoutes } from "./consent";
import { syncMethods, SyncMethods, syncRoutes } from "./sync";
import { Workspace, workspace } from "./workspace";

// A running server's life on the deployed service, beyond the interface document: a player's leave, the server's
// end, reading the workspace by running game id. With the sync (`sync.ts`) and consent (`consent.ts`) they make up
// `client.extensions`; a service without them answers 404 (or 405), and the game integration then turns the feature
// that uses them off.
//
// Every deployed-only resource module (this one, `sync.ts`, `consent.ts`, `supportCalls.ts`, `commands.ts`) has the
// same shape, so a route is added in one file: its argument and answer types, argument rules and answer reader; one
// `route(...)` entry in the module's `...Routes`; its method in the module's interface and in the factory that builds
// it over the client's `call` (`...Api` when it is a namespace of its own, like `client.support`; `...Methods` when
// it joins `client.extensions`, like the sync). Then its id in `ExtensionId` (`routes.ts`); a new module also adds its
// routes to `OPERATIONS` there, and its namespace to `apiClient.ts` or its methods to `extensionsApi` below.
// Readers are tolerant (`reader.ts`): what identifies a resource or what the library itself needs is required,
// everything else optional; each answer reader is declared against its answer type, so the compiler checks the two agree.

// ---- Arguments ----

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
	/**
	 * When the player left, in Unix milliseconds: the deployed service ends the session at this time when it is sent,
	 * else at `leftTime` in whole seconds (a visit shorter than its join's second then ends before it starts).
	 */
	readonly datetime?: number;
}

const emptyListRule: Rule = [(value) => typeIs(value, "table") && next(value)[0] === undefined, "an empty list"];

// The wire body of a leave, built by `extensionsApi` from {@link PlayerLeaveArgs}.
const playerLeaveArgs: ArgSpec = {
	required: {
		gameId: serviceIdRule,
		playerId: idRule,
		events: emptyListRule,
		final: boolRule,
		leftTime: [(value) => isFiniteNumber(value) && value > 0, "a time in Unix seconds"],
	},
	optional: {
		datetime: [(value) => isFiniteNumber(value) && value > 0, "a time in Unix milliseconds"],
	},
};

/** Both server routes take only the running game id. */
const runningGameArgs: ArgSpec = { required: { gameId: serviceIdRule } };

// ---- Answers ----

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

// ---- Routes ----

/**
 * The routes of a server's life on the deployed service. A leave is not safe to repeat (docs/service-contract.md#a-leave-is-not-safe-to-repeat): it ends every open
 * session of the player on the server it names, so a repeat or a late leave can end the session of a player who came
 * back; after an unknown outcome the caller checks the running game's player list first. Ending a server twice finds
 * nothing left to end; reading the workspace changes nothing.
 * @internal
 */
export const deployedRoutes = {
	playerLeave: route({
		method: "POST",
		path: "/activity/playerLeave/v2",
		// Not repeated by the transport: a late repeat can end a session opened after it (a player who came back).
		safeToRepeat: false,
		args: playerLeaveArgs,
		answer: object({ success: succeeded, finalized: opt(bool) }) satisfies Reader<PlayerLeaveAnswer>,
	}),
	endServer: route({
		method: "DELETE",
		path: "/activity/endServer",
		safeToRepeat: true,
		priority: "high",
		args: runningGameArgs,
		answer: object({ success: succeeded }) satisfies Reader<EndServerAnswer>,
	}),
	getServer: route({
		method: "POST",
		path: "/activity/getServer",
		safeToRepeat: true,
		args: runningGameArgs,
		answer: object({ success: succeeded, workspace: opt(workspace) }) satisfies Reader<GetServerAnswer>,
	}),
};

// ---- Namespace ----

/**
 * Operations the deployed Staff Operations Service has beyond the interface document (docs/service-contract.md#routes-beyond-the-interface): `client.extensions`:
 * a player's leave, the server's end and the workspace read (here), the sync ({@link SyncMethods}) and consent
 * ({@link ConsentMethods}). A service without them answers 404 (or 405); the game integration then turns the feature
 * that uses them off.
 * @see README#deployed-service-extensions
 */
export interface ExtensionsApi extends SyncMethods, ConsentMethods {
	/**
	 * Ends a player's activity sessions on the server (`POST /activity/playerLeave/v2`, final, with `leftTime` and,
	 * when given, `datetime`, which the deployed service ends the session at). Not
	 * repeated after an unknown outcome: a late repeat ends whatever session the player has there by then (a repeat
	 * with nothing to end answers `finalized: false`). Check the running game's player list before sending again.
	 */
	reportLeave(args: PlayerLeaveArgs, options?: CallOptions): Promise<PlayerLeaveAnswer>;
	/** Ends the sessions still in game and removes the server (`DELETE /activity/endServer`). */
	endServer(runningGameId: string, options?: CallOptions): Promise<EndServerAnswer>;
	/** Reads the workspace by running game id (`POST /activity/getServer`); refreshes the server's presence there. */
	getServer(runningGameId: string, options?: CallOptions): Promise<GetServerAnswer>;
}

/** Builds `client.extensions` on the api client's call: this module's methods, the sync's and consent's. @internal */
export function extensionsApi(
	call: Call<keyof typeof deployedRoutes | keyof typeof syncRoutes | keyof typeof consentRoutes>,
): ExtensionsApi {
	return {
		...syncMethods(call),
		...consentMethods(call),
		reportLeave(args, options) {
			const given = (typeIs(args, "table") ? args : {}) as Partial<PlayerLeaveArgs>;
			const body = {
				gameId: given.runningGameId,
				playerId: typeIs(given.userId, "number") ? tostring(given.userId) : given.userId,
				events: [],
				final: true,
				leftTime: given.leftTime,
				datetime: given.datetime,
			};
			return call("playerLeave", options, [], body);
		},
		endServer(runningGameId, options) {
			return call("endServer", options, [], { gameId: runningGameId });
		},
		getServer(runningGameId, options) {
			return call("getServer", options, [], { gameId: runningGameId });
		},
	};
}
