import { BudgetOptions, RequestBudget } from "../transport/budget";
import { RetryOptions } from "../transport/retry";
import type { LogLevel } from "../background/log";
import type { DECLARATIONS } from "./features";
import type { FeatureDeclaration } from "./feature";
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
 * The settings of {@link StaffOpsConfig} other than the key source: every feature's settings, each documented where
 * its feature declares it (`ServiceConfig`, `PresenceConfig`, ... in `src/server/features/`).
 *
 * @example
 * ```ts
 * const common: StaffOpsBaseConfig = { baseUrl: "https://staff.example.com", heartbeatSeconds: 60 };
 * StaffOps.start({ ...common, apiKeySecret: "staffops_api_key" });
 * ```
 */
export type StaffOpsBaseConfig = DeclaredSettings<(typeof DECLARATIONS)[number]>;

/** One type from a union of them: `A | B` gives `A & B`. */
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/**
 * The settings every feature declares, one interface each beside its declaration (`ServiceConfig`, `JoinsConfig`,
 * ...), as one type: what makes a new setting a line of its feature's module only.
 */
type DeclaredSettings<D> = Intersection<D extends FeatureDeclaration<infer C> ? C : never>;

/**
 * The configuration with every default filled in and the key resolved: the fields below as resolved, every other
 * declared setting as given (or its declared default). @internal
 */
export type StaffOpsSettings = ResolvedSettings &
	Pick<StaffOpsBaseConfig, Exclude<keyof StaffOpsBaseConfig, keyof ResolvedSettings>>;

/** The settings whose resolved type differs from what game code gives (a default filled in, the key read). */
interface ResolvedSettings {
	readonly baseUrl: string;
	readonly apiKey: string | Secret;
	/** Read from its Secret when `rankingKeySecret` named one; undefined: no `/rank`. */
	readonly rankingKey?: string | Secret;
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
	readonly callsNeedModeration: boolean;
	readonly callSyncSeconds: number;
	readonly activity: ActivityOptions;
	readonly logLevel: LogLevel;
}

/** The default kick message template. @internal */
