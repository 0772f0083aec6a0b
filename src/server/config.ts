import { BudgetOptions, RequestBudget } from "../transport/budget";
import { RetryOptions } from "../transport/retry";
import type { LogLevel } from "../background/log";
import type { ServiceProfile } from "./profile";

/**
 * A route that keeps the server present on a service whose reads do not (the deployed service, docs/service-contract.md#presence-needs-the-running-game-id): sent as
 * the heartbeat instead of the read, with `{ gameId: runningGameId }` as its body.
 *
 * @example
 * ```ts
 * StaffOps.start({ ...config, keepAlive: { method: "POST", path: "/activity/getServer" } });
 * ```
 * @see README#game-integration
 */
export interface KeepAliveRoute {
	readonly method: "GET" | "POST" | "PUT" | "PATCH";
	readonly path: string;
}

/**
 * Ending sessions on a service that has the deployed service's extension routes (docs/service-contract.md#ending-a-players-session). Both off by default.
 *
 * @example
 * ```ts
 * StaffOps.start({ ...config, sessions: { reportLeaves: true, endServer: true } });
 * ```
 * @see README#deployed-service-extensions
 */
export interface SessionsOptions {
	/** Report each leave (`POST /activity/playerLeave/v2`), so the player's activity session ends when they leave. */
	readonly reportLeaves?: boolean;
	/** At shutdown, after the queued joins, end the server (`DELETE /activity/endServer`): every session still open ends. */
	readonly endServer?: boolean;
}

/**
 * A hint for a join storm: a player whose rank in the group is at least `minRank` is likely staff, and their join is
 * sent ahead of the queue, so staff get their tools first. It reads Roblox's `GroupService:GetRolesInGroupAsync` (the
 * highest rank among the player's roles, once per stay), which is no HttpService request and costs nothing from the
 * budget. Who is staff is still what the service answers.
 *
 * @example
 * ```ts
 * StaffOps.start({ ...config, staffHint: { groupId: 5012345, minRank: 200 } });
 * ```
 * @see README#game-integration
 */
export interface StaffHint {
	/** The Roblox group whose ranks tell staff apart. */
	readonly groupId: number;
	/** The lowest rank (1 to 255) that counts as likely staff. */
	readonly minRank: number;
}

/**
 * Staff activity for the deployed service (docs/service-contract.md#the-sync-route): who reports `active`/`idle`/`typing`, and whether chat
 * messages are logged. Only players the service tracks and gave a session are ever reported.
 *
 * @example
 * ```ts
 * StaffOps.start({ ...config, activity: { everyone: false, chatMessages: false } });
 * ```
 * @see README#staff-activity
 */
export interface ActivityOptions {
	/** Report every tracked player, not only staff. Default false: the service credits staff minutes only. */
	readonly everyone?: boolean;
	/** Send each chat message of a reported player as a `message` event. Default false (privacy and volume). */
	readonly chatMessages?: boolean;
}

/**
 * Where the API key comes from: exactly one of `apiKeySecret` (preferred) or `apiKey`. TypeScript refuses a
 * configuration with neither or both. Luau callers, who have no such check, get the default Secret name
 * `staffops_api_key` when they give neither (the drop-in model's `ApiKeySecret` default).
 *
 * @example
 * ```ts
 * const key: StaffOpsKeySource = { apiKeySecret: "staffops_api_key" };
 * ```
 */
export type StaffOpsKeySource =
	| {
			/** The name of the Roblox Secret that holds the workspace's API key, e.g. `staffops_api_key`. */
			readonly apiKeySecret: string;
			readonly apiKey?: undefined;
	  }
	| {
			/**
			 * The API key itself, or a `Secret`. Prefer `apiKeySecret`: a key in a script or attribute is saved with
			 * the place.
			 */
			readonly apiKey: string | Secret;
			readonly apiKeySecret?: undefined;
	  };

/**
 * Settings of {@link StaffOps.start}: `baseUrl`, a key source ({@link StaffOpsKeySource}: `apiKeySecret` or
 * `apiKey`) and the settings of {@link StaffOpsBaseConfig}, which all have defaults. A wrong optional setting makes
 * `start` warn one line naming it and use its default; a missing or wrong address or key (or an unknown field) leaves
 * StaffOps off with one such line. Nothing is thrown.
 *
 * The drop-in model reads the same settings from attributes on the model (`BaseUrl`, `ApiKeySecret`, ...), and its
 * warnings name the attribute; see docs/api-notes.md.
 *
 * @example
 * ```ts
 * StaffOps.start({ baseUrl: "https://staff.example.com", apiKeySecret: "staffops_api_key" });
 * ```
 */
export type StaffOpsConfig = StaffOpsBaseConfig & StaffOpsKeySource;

/**
 * The settings of {@link StaffOpsConfig} other than the key source.
 *
 * @example
 * ```ts
 * const common: StaffOpsBaseConfig = { baseUrl: "https://staff.example.com", heartbeatSeconds: 60 };
 * StaffOps.start({ ...common, apiKeySecret: "staffops_api_key" });
 * ```
 */
export interface StaffOpsBaseConfig {
	/** The Staff Operations Service's base address, `https://...`. Required: the interface names no public one. */
	readonly baseUrl: string;
	/** Kick players the service reports as banned. Default true. */
	readonly kickBanned?: boolean;
	/**
	 * The kick message for banned players: a template where `{reason}` stands for the service's reason, or a function
	 * of the reason. Default `"You are banned from this experience: {reason}"`.
	 */
	readonly kickMessage?: string | ((reason: string) => string);
	/** Seconds between presence heartbeats. Default 60; from 5 to 600. */
	readonly heartbeatSeconds?: number;
	/**
	 * Seconds to wait for a player's client report before reporting the join with platform `unknown` and timezone
	 * `-00:00`. Default 20 (chosen from client load times: README#game-integration); 0 to 60.
	 */
	readonly clientReportTimeoutSeconds?: number;
	/** Seconds `BindToClose` may spend sending what is still queued. Default 25; from 1 to 28 (Roblox allows 30 in all). */
	readonly shutdownDeadlineSeconds?: number;
	/** Register and report in Studio playtests (JobId is empty there). Default true; false keeps StaffOps off in Studio. */
	readonly trackStudio?: boolean;
	/**
	 * Deliver the client part to players (the drop-in model and the Wally package: it clones the client part of the
	 * model, with a `RunContext` Client loader, into ReplicatedStorage). Default: on where that client part is there
	 * (the model, the Wally package), off in an npm game, whose own client code calls `startClientReport()`.
	 */
	readonly deliverClient?: boolean;
	/** The request budget: a `RequestBudget`, or options that reconfigure the library-wide one. Default: the library-wide budget. */
	readonly budget?: RequestBudget | BudgetOptions;
	/** Seconds one HTTP attempt may take. Default 10. */
	readonly timeout?: number;
	/** How failed requests are retried by the transport. */
	readonly retry?: RetryOptions;
	/**
	 * Sends likely staff first in a join storm: a player whose rank in `groupId` is at least `minRank` has their join
	 * sent ahead of the queue (Roblox's `GroupService:GetRolesInGroupAsync`; no HttpService request). Default: none.
	 */
	readonly staffHint?: StaffHint;
	/**
	 * A route to send as the heartbeat instead of reading the running game, for a service whose reads do not keep a
	 * server present (the deployed service: `{ method: "POST", path: "/activity/getServer" }`). Default: none.
	 */
	readonly keepAlive?: KeepAliveRoute;
	/**
	 * Ending sessions on a service with the deployed service's extension routes. Default: both off, except with the
	 * deployed profile, where both are on unless set to false.
	 */
	readonly sessions?: SessionsOptions;
	/**
	 * Which service this is (attribute `ServiceProfile`): `auto` (default) decides from the registration answer,
	 * `deployed` or `interface` decide now. See {@link ServiceProfile}.
	 */
	readonly serviceProfile?: ServiceProfile;
	/**
	 * With the deployed profile, the one sync (`POST /activity/sendData`) replaces the heartbeat and brings dashboard
	 * kicks, notifications and shutdowns into the game (attribute `Sync`). Default on with that profile; false turns it off.
	 */
	readonly sync?: boolean;
	/**
	 * Show a dashboard notification to the player in StaffOps' own small UI (attribute `BuiltInNotifications`).
	 * Default true; false for games that draw their own from `StaffOps.notified`.
	 */
	readonly builtInNotifications?: boolean;
	/**
	 * Show the built-in consent prompt when the service asks for a player's consent (`needsConsent`). Default true;
	 * false when game code draws its own (`StaffOps.consentRequested`, then `StaffOps.answerConsent`).
	 */
	readonly consentPrompt?: boolean;
	/**
	 * Offer players the "Call staff" entry (attribute `CallStaff`): with the deployed profile, when the workspace takes
	 * calls (its `moderation` flag). Default true; false hides it and refuses calls from players and game code.
	 */
	readonly callStaff?: boolean;
	/**
	 * Seconds between syncs while a support call is open (attribute `CallSyncSeconds`). Default 3; from 2 to 10. An
	 * agent's message waits for the next sync, so its p95 is about 0.95 × this plus the answer's latency and the text
	 * filter: 3 s keeps every open call together within 20 requests a minute, 2.5 s brings an agent's message within 3 s
	 * p95 for 24 (lune/bench/README.md, call-sync).
	 */
	readonly callSyncSeconds?: number;
	/** Staff activity reporting (deployed service). Default: staff only, no chat messages. */
	readonly activity?: ActivityOptions;
	/**
	 * How much StaffOps prints (attribute `LogLevel`): `"info"` (default) one line per notable event (a staff member
	 * found, a banned player kicked, a dashboard action applied, a consent answered), `"quiet"` warnings only,
	 * `"verbose"` also each join's answer and the join queue's decisions, for debugging. No level prints a key or a
	 * text from outside the game (a ban reason, a dashboard message). See {@link LogLevel}.
	 */
	readonly logLevel?: LogLevel;
}

/** The configuration with every default filled in and the key resolved. @internal */
export interface StaffOpsSettings {
	readonly baseUrl: string;
	readonly apiKey: string | Secret;
	readonly kickBanned: boolean;
	readonly kickMessage: (reason: string) => string;
	readonly heartbeatSeconds: number;
	readonly clientReportTimeoutSeconds: number;
	readonly shutdownDeadlineSeconds: number;
	readonly trackStudio: boolean;
	/** As the developer set it (undefined: on where the model's client part is there). */
	readonly deliverClient?: boolean;
	readonly budget?: RequestBudget | BudgetOptions;
	readonly timeout?: number;
	readonly retry?: RetryOptions;
	readonly staffHint?: StaffHint;
	readonly keepAlive?: KeepAliveRoute;
	readonly sessions: SessionsOptions;
	readonly serviceProfile: ServiceProfile;
	/** As the developer set it (undefined: the profile's default). */
	readonly sync?: boolean;
	readonly builtInNotifications: boolean;
	readonly consentPrompt: boolean;
	readonly callStaff: boolean;
	readonly callSyncSeconds: number;
	readonly activity: ActivityOptions;
	readonly logLevel: LogLevel;
}

/** The default kick message template. @internal */
