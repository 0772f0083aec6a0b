import { daysFromCivil } from "../../shared/calendar";
import { MAX_OFFSET_MINUTES } from "../../shared/reportPayload";

/**
 * The calendar fields of a moment, as `os.date("*t")` (local) and `os.date("!*t")` (UTC) give them.
 *
 * @example
 * ```ts
 * const fields: ClockFields = { year: 2024, month: 6, day: 1, hour: 7, min: 0 };
 * ```
 * @see README#game-integration
 */
export interface ClockFields {
	readonly year: number;
	readonly month: number;
	readonly day: number;
	readonly hour?: number;
	readonly min?: number;
}

function isWhole(value: unknown): value is number {
	return typeIs(value, "number") && value === value && value % 1 === 0 && math.abs(value) < 1e7;
}

/**
 * Minutes the local clock is ahead of UTC, from the local and UTC fields of the same moment; undefined when the
 * fields are unusable or the offset is beyond ±14:00.
 *
 * @example
 * ```ts
 * const now = os.time();
 * offsetMinutes(os.date("*t", now), os.date("!*t", now)); // e.g. -300 in New York in winter
 * ```
 * @see README#game-integration
 */
export function offsetMinutes(localTime: ClockFields, utcTime: ClockFields): number | undefined {
	const fields = [
		localTime.year,
		localTime.month,
		localTime.day,
		localTime.hour ?? 0,
		localTime.min ?? 0,
		utcTime.year,
		utcTime.month,
		utcTime.day,
		utcTime.hour ?? 0,
		utcTime.min ?? 0,
	];
	for (const field of fields) if (!isWhole(field)) return undefined;
	const minutesOf = (time: ClockFields) =>
		daysFromCivil(time.year, time.month, time.day) * 1440 + (time.hour ?? 0) * 60 + (time.min ?? 0);
	const offset = minutesOf(localTime) - minutesOf(utcTime);
	return math.abs(offset) <= MAX_OFFSET_MINUTES ? offset : undefined;
}

/**
 * Formats an offset in minutes as `±HH:MM` (`+00:00` for UTC); undefined beyond ±14:00 or when not a whole number.
 *
 * @example
 * ```ts
 * formatOffset(-300); // "-05:00"
 * formatOffset(345); // "+05:45"
 * ```
 * @see README#game-integration
 */
export function formatOffset(minutes: number | undefined): string | undefined {
	if (!isWhole(minutes) || math.abs(minutes) > MAX_OFFSET_MINUTES) return undefined;
	const sign = minutes < 0 ? "-" : "+";
	const magnitude = math.abs(minutes);
	return string.format("%s%02d:%02d", sign, math.floor(magnitude / 60), magnitude % 60);
}

/**
 * This machine's offset from UTC as `±HH:MM`, measured at `time` (seconds since the epoch; default now). Meant
 * for the client: on a Roblox server it reads the server's own timezone.
 *
 * @example
 * ```ts
 * const tzOffset = measureTzOffset() ?? "+00:00";
 * ```
 * @see README#game-integration
 */
export function measureTzOffset(time: number = os.time()): string | undefined {
	return formatOffset(offsetMinutes(os.date("*t", time), os.date("!*t", time)));
}
