// The connection to the service: the settings every feature shares (address, key, budget, profile, the close).
import { t } from "@rbxts/t";
import type { LogLevel } from "../../../background/log";
import type { BudgetOptions, RequestBudget } from "../../../transport/budget";
import type { RetryOptions } from "../../../transport/retry";
import type { ServiceProfile } from "../../profile";
import type { FeatureDeclaration } from "../../feature";
import {
	baseUrlRule,
	budgetRule,
	DEFAULT_SECRET_NAME,
	keyRule,
	retryRule,
	secretNameRule,
	SERVICE_CHECKS,
} from "./settingChecks";

/**
 * The connection's settings in `StaffOpsConfig` (the key source aside: `StaffOpsKeySource`).
 */
export interface ServiceConfig {
	/** The Staff Operations Service's base address, `https://...`. Required: the interface names no public one. */
	readonly baseUrl: string;
	/** The request budget: a `RequestBudget`, or options that reconfigure the library-wide one. Default: the library-wide budget. */
	readonly budget?: RequestBudget | BudgetOptions;
	/** Seconds one HTTP attempt may take. Default 10. */
	readonly timeout?: number;
	/** How failed requests are retried by the transport. */
	readonly retry?: RetryOptions;
	/**
	 * Which service this is (attribute `ServiceProfile`): `auto` (default) decides from the registration answer,
	 * `deployed` or `interface` decide now. See {@link ServiceProfile}.
	 */
	readonly serviceProfile?: ServiceProfile;
	/** Register and report in Studio playtests (JobId is empty there). Default true; false keeps StaffOps off in Studio. */
	readonly trackStudio?: boolean;
	/**
	 * Seconds a server may wait, at random, before it first registers (attribute `StartJitterSeconds`): when a game
	 * update restarts every server at once, their registrations and first joins spread over this many seconds instead
	 * of reaching the service in the same second. Joins wait for the registration, so a player's first report may come
	 * this much later. Default 0 (register at once); from 0 to 120. Never in Studio playtests.
	 */
	readonly startJitterSeconds?: number;
	/** Seconds `BindToClose` may spend sending what is still queued. Default 25; from 1 to 28 (Roblox allows 30 in all). */
	readonly shutdownDeadlineSeconds?: number;
	/**
	 * How much StaffOps prints (attribute `LogLevel`): `"info"` (default) one line per notable event (a staff member
	 * found, a banned player kicked, a dashboard action applied, a consent answered), `"quiet"` warnings only,
	 * `"verbose"` also each join's answer and the join queue's decisions, for debugging. No level prints a key or a
	 * text from outside the game (a ban reason, a dashboard message). See {@link LogLevel}.
	 */
	readonly logLevel?: LogLevel;
}

// Its settings join `StaffOpsConfig` (and their resolved types `StaffOpsSettings`): the core names no feature.
declare module "../../config" {
	interface StaffOpsBaseConfig extends ServiceConfig {}
}

/**
 * The connection to the service: its address and key (the only settings whose fault stops StaffOps), the request
 * budget and timeouts, which service it is, whether Studio counts, how long the close may take, and how much it prints
 * (`logLevel`). Not a feature
 * that runs: the server's context (`context.ts`) builds the api client and the registration from these.
 * In the package's declarations for the config type; not an API.
 */
export const SERVICE: FeatureDeclaration<ServiceConfig, "service"> = {
	name: "service",
	settings: [
		{
			field: "baseUrl",
			attribute: "BaseUrl",
			modelDefault: "",
			required: true,
			luau: "string",
			check: baseUrlRule,
		},
		{
			field: "apiKeySecret",
			attribute: "ApiKeySecret",
			default: DEFAULT_SECRET_NAME,
			required: true,
			check: secretNameRule,
		},
		{
			field: "apiKey",
			attribute: "ApiKey",
			modelDefault: "",
			required: true,
			luau: "(string | Secret)?",
			check: keyRule,
		},
		{ field: "budget", luau: "BudgetOptions?", check: budgetRule },
		// Its default (10 s) is the transport's own, applied there.
		{ field: "timeout", min: 0.1, max: 60, luau: "number?" },
		{ field: "retry", luau: "RetryOptions?", check: retryRule },
		{
			field: "serviceProfile",
			attribute: "ServiceProfile",
			default: "auto",
			luau: "ServiceProfile?",
			check: [t.literal("auto", "deployed", "interface"), '"auto", "deployed" or "interface"'],
		},
		{ field: "trackStudio", attribute: "TrackStudio", default: true },
		{ field: "startJitterSeconds", attribute: "StartJitterSeconds", default: 0, min: 0, max: 120 },
		{ field: "shutdownDeadlineSeconds", attribute: "ShutdownDeadlineSeconds", default: 25, min: 1, max: 28 },
		{
			field: "logLevel",
			attribute: "LogLevel",
			default: "info",
			luau: "LogLevel?",
			check: [t.literal("quiet", "info", "verbose"), '"quiet", "info" or "verbose"'],
		},
	],
	remotes: [],
	clientParts: [],
	checks: SERVICE_CHECKS,
};
