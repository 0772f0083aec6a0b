import type { PlayerJoinAnswer } from "../api/resources/activity";
import { DEFAULT_IDLE_SECONDS, MAX_IDLE_SECONDS, MIN_IDLE_SECONDS } from "../shared/privacyProtocol";
import type { ActivitySettings } from "../shared/privacyProtocol";
import type { JoinResult } from "./records";

/** What a join answer says about privacy (docs/service-contract.md#privacy-and-consent): whether the player is tracked, and whether to ask consent. @internal */
export interface JoinPrivacy {
	readonly tracked: boolean;
	readonly needsConsent: boolean;
}

/**
 * Reads the deployed service's privacy fields of a join answer (the tolerant reader keeps fields it does not know).
 * `tracked: false` (staff-only mode, a data-removal request, consent denied) means track nothing. One exception: an
 * answer that says `tracked: false` yet hands over a `sessionId` opened a session; the leave that ends it is sent, so
 * it does not stay open for the server's life (the deployed service leaves `sessionId` out in those modes; the
 * reference service's deployed profile answers `tracked: isStaff` with a session for everyone). Anything that is not
 * a boolean reads as the default: tracked, no consent asked.
 * @internal
 */
export function privacyOf(answer: PlayerJoinAnswer): JoinPrivacy {
	const raw = answer as unknown as { tracked?: unknown; needsConsent?: unknown };
	const untracked = raw.tracked === false && answer.sessionId === undefined;
	return { tracked: !untracked, needsConsent: raw.needsConsent === true && !untracked ? true : false };
}

/** Whether an answered join is tracked: not banned, and not `tracked: false`. @internal */
export function isTrackedResult(result: JoinResult | undefined): boolean {
	return result !== undefined && !result.banned && result.tracked !== false;
}

/**
 * The registration answer's `afkReportingSettings {altTab, movement}` read into the settings a client gets. Each field
 * turns its signal on when `true` or a number; a number in `movement` is also the idle time in seconds (clamped to
 * 30..3600). The service's documents name no time: the default is {@link DEFAULT_IDLE_SECONDS}. Without the field (another service,
 * or the answer not at hand): focus loss on, movement off.
 * @internal
 */
export function activitySettingsOf(registrationAnswer: unknown): ActivitySettings {
	const afk = typeIs(registrationAnswer, "table")
		? (registrationAnswer as { afkReportingSettings?: unknown }).afkReportingSettings
		: undefined;
	const fields = typeIs(afk, "table") ? (afk as { altTab?: unknown; movement?: unknown }) : {};
	const on = (value: unknown, fallback: boolean) =>
		value === true || (typeIs(value, "number") && value > 0) || (value === undefined && fallback);
	const movement = fields.movement;
	const seconds =
		typeIs(movement, "number") && movement === movement && movement > 0
			? math.clamp(movement, MIN_IDLE_SECONDS, MAX_IDLE_SECONDS)
			: DEFAULT_IDLE_SECONDS;
	return { altTab: on(fields.altTab, true), movement: on(movement, false), idleSeconds: seconds };
}
