import type { PlayerJoinAnswer } from "../../../api/resources/activity";
import { DEFAULT_IDLE_SECONDS, MAX_IDLE_SECONDS, MIN_IDLE_SECONDS } from "../../../shared/privacyProtocol";
import type { ActivitySettings } from "../../../shared/privacyProtocol";
import type { JoinResult } from "../../records";

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

/** One signal of `afkReportingSettings` read: on or off, and seconds until idle. */
interface AfkSignal {
	readonly on: boolean;
	readonly seconds: number;
}

const clampSeconds = (value: number) => math.clamp(math.floor(value), MIN_IDLE_SECONDS, MAX_IDLE_SECONDS);
const isFiniteNumber = (value: unknown): value is number =>
	typeIs(value, "number") && value === value && math.abs(value) !== math.huge;

/**
 * Reads one signal in any shape seen (docs/service-contract.md#session-events): the deployed service's
 * `{active, timeUntilIdle?}`, or the older `true` / number (seconds) / `false`. `false`, `{active: false}` and a
 * number not above 0 turn it off; a signal left out, or of no known shape, is the service's own default, on. Without
 * a time, `fallback` seconds.
 */
function signalOf(value: unknown, fallback: number): AfkSignal {
	if (value === false) return { on: false, seconds: fallback };
	if (isFiniteNumber(value)) {
		return value > 0 ? { on: true, seconds: clampSeconds(value) } : { on: false, seconds: fallback };
	}
	if (typeIs(value, "table")) {
		const fields = value as { active?: unknown; timeUntilIdle?: unknown };
		if (fields.active === false) return { on: false, seconds: fallback };
		const time = fields.timeUntilIdle;
		if (fields.active === true) return { on: true, seconds: isFiniteNumber(time) ? clampSeconds(time) : fallback };
	}
	return { on: true, seconds: fallback };
}

/**
 * The registration answer's `afkReportingSettings {altTab, movement}` read into the settings a client gets
 * (docs/service-contract.md#session-events). `movement`: idle after its `timeUntilIdle` without movement or input.
 * `altTab`: idle once the window has been out of focus for its `timeUntilIdle`. Either signal without a time takes
 * the official module's {@link DEFAULT_IDLE_SECONDS} s, as the official module and the website do for both: a short
 * alt-tab is no idle at all. `false` or `{active: false}` turns a signal off; a signal left out, or an answer without
 * the field, is the deployed service's default: on.
 * @internal
 */
export function activitySettingsOf(registrationAnswer: unknown): ActivitySettings {
	const afk = typeIs(registrationAnswer, "table")
		? (registrationAnswer as { afkReportingSettings?: unknown }).afkReportingSettings
		: undefined;
	const fields = typeIs(afk, "table") ? (afk as { altTab?: unknown; movement?: unknown }) : {};
	const altTab = signalOf(fields.altTab, DEFAULT_IDLE_SECONDS);
	const movement = signalOf(fields.movement, DEFAULT_IDLE_SECONDS);
	return { altTab: altTab.on, altTabSeconds: altTab.seconds, movement: movement.on, idleSeconds: movement.seconds };
}
