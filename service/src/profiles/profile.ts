/**
 * A profile decides how the service answers. `default` follows the interface document; `deployed` reproduces
 * what the deployed service really sends (docs/service-contract.md#what-the-deployed-service-sends), so the library can be tested against both.
 */
export const PROFILES = ["default", "deployed"] as const;
export type ProfileName = (typeof PROFILES)[number];

/** The deployed service deletes a server after 20 silent minutes; the default profile forgets after 3. */
const DEFAULT_FORGET_AFTER_SECONDS: Record<ProfileName, number> = { default: 180, deployed: 1200 };

export function isProfileName(value: unknown): value is ProfileName {
	return PROFILES.includes(value as ProfileName);
}

export function defaultForgetAfterSeconds(profile: ProfileName): number {
	return DEFAULT_FORGET_AFTER_SECONDS[profile];
}

/** What a request sees of the service's current settings, taken when it arrives. */
export interface Settings {
	profile: ProfileName;
	/** Deployed profile only: join answers leave out `banned` (when false), `sessionId` and `runningPlayerId`. */
	privacy: boolean;
	forgetAfterMs: number;
}
