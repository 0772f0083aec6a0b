import { BudgetOptions, RequestBudget } from "../transport/budget";
import type { CheckedNever } from "../shared/typeChecks";
import { RetryOptions } from "../transport/retry";
import type { LogLevel } from "../background/log";
import type { ServiceProfile } from "./profile";

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
// Empty here: each feature adds its settings interface to it, in its declaration's module (`declare module`), so the
// core names no feature and a new setting is written in its feature only.
export interface StaffOpsBaseConfig {}

/**
 * The configuration with every default filled in and the key resolved: the fields below as resolved, every other
 * declared setting as given (or its declared default). @internal
 */
export type StaffOpsSettings = ResolvedSettings &
	Pick<StaffOpsBaseConfig, Exclude<keyof StaffOpsBaseConfig, keyof ResolvedSettings>>;

/**
 * The settings whose resolved type differs from what game code gives (a default filled in, the key read): the
 * service's connection here, each feature's in its declaration's module (`declare module`). Every field must be a
 * declared setting ({@link UndeclaredResolved} does not compile otherwise). @internal
 */
export interface ResolvedSettings {
	readonly baseUrl: string;
	readonly apiKey: string | Secret;
	readonly shutdownDeadlineSeconds: number;
	readonly trackStudio: boolean;
	readonly budget?: RequestBudget | BudgetOptions;
	readonly timeout?: number;
	readonly retry?: RetryOptions;
	readonly serviceProfile: ServiceProfile;
	readonly logLevel: LogLevel;
}

/** A resolved setting no feature declares: none, or this does not compile. @internal */
export type UndeclaredResolved = CheckedNever<Exclude<keyof ResolvedSettings, keyof StaffOpsConfig>>;

/** The default kick message template. @internal */
