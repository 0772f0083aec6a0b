import type { CreateServerAnswer } from "../api/resources/activity";

/**
 * Which service StaffOps talks to: `interface` (the documented interface only), `deployed` (the deployed service,
 * with its sync, leaves and end of server on by default), or `auto` (the default): decided from the registration
 * answer, which on the deployed service carries `moderation`, `afkReportingSettings` or `privacy` at its top level.
 *
 * @example
 * ```ts
 * StaffOps.start({ ...config, serviceProfile: "deployed" });
 * ```
 * @see README#deployed-service-extensions
 */
export type ServiceProfile = "auto" | "deployed" | "interface";

/** The profile once decided. @see README#deployed-service-extensions */
export type DecidedProfile = "deployed" | "interface";

/**
 * What the deployed service's registration answer says about the workspace (absent on the interface): whether it
 * uses in-game support calls (`moderation`), which activity signals to report (`afkReportingSettings`) and its
 * privacy modes (`privacy`). Each is kept as the service sent it, when it is an object or a boolean.
 * @see README#deployed-service-extensions
 */
export interface RegistrationFacts {
	readonly moderation?: unknown;
	readonly afkReportingSettings?: { readonly altTab?: unknown; readonly movement?: unknown };
	readonly privacy?: { readonly trackStaffOnly?: unknown; readonly requireConsent?: unknown };
}

const DEPLOYED_FIELDS = ["moderation", "afkReportingSettings", "privacy"] as const;

/** The facts of a registration answer. @internal */
export function registrationFacts(answer: CreateServerAnswer | undefined): RegistrationFacts {
	const raw = (answer ?? {}) as Record<string, unknown>;
	const tableOrUndefined = (value: unknown) => (typeIs(value, "table") ? value : undefined);
	return {
		moderation: typeIs(raw.moderation, "table") || typeIs(raw.moderation, "boolean") ? raw.moderation : undefined,
		afkReportingSettings: tableOrUndefined(raw.afkReportingSettings) as RegistrationFacts["afkReportingSettings"],
		privacy: tableOrUndefined(raw.privacy) as RegistrationFacts["privacy"],
	};
}

/** Decides the profile: the setting, or with `auto` what the registration answer shows. @internal */
export function decideProfile(setting: ServiceProfile, answer: CreateServerAnswer | undefined): DecidedProfile {
	if (setting !== "auto") return setting;
	const raw = (answer ?? {}) as Record<string, unknown>;
	for (const field of DEPLOYED_FIELDS) if (raw[field] !== undefined) return "deployed";
	return "interface";
}
