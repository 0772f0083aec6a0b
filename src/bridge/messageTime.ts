import { daysFromCivil } from "../shared/calendar";
import { MAX_OFFSET_MINUTES } from "../shared/reportPayload";

/**
 * Reading the service's message times. `DateTime.fromIsoDate` is documented for `YYYY-MM-DDThh:mm:ssZ` only; the
 * service writes milliseconds (`2024-06-01T12:00:00.123Z`), and other servers may send an offset instead of `Z`.
 * So the bridge parses ISO 8601 itself and never relies on the engine accepting a fraction.
 */

function daysInMonth(year: number, month: number): number {
	if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
	return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Unix seconds of an ISO 8601 date-time `YYYY-MM-DDThh:mm:ss[.fraction][Z|±hh:mm|±hhmm]` (a space may stand for
 * `T`; no zone means UTC), or undefined when the text is not one or names an impossible time.
 *
 * @example
 * ```ts
 * parseIsoTime("1970-01-01T00:00:01.500Z"); // 1.5
 * parseIsoTime("2024-06-01T14:00:00+02:00"); // 1717243200
 * ```
 * @internal
 */
export function parseIsoTime(text: unknown): number | undefined {
	if (!typeIs(text, "string") || text.size() > 64) return undefined;
	const [year, month, day, hour, minute, second, rest] = text.match(
		"^(%d%d%d%d)%-(%d%d)%-(%d%d)[Tt ](%d%d):(%d%d):(%d%d)(.*)$",
	);
	if (!typeIs(rest, "string")) return undefined;
	const num = (field: unknown) => tonumber(field as string) ?? 0;
	const [y, mo, d, h, mi, s] = [num(year), num(month), num(day), num(hour), num(minute), num(second)];
	if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 60) return undefined;
	let remainder = rest;
	let fraction = 0;
	const [digits, afterFraction] = remainder.match("^[.,](%d+)(.*)$");
	if (typeIs(digits, "string") && typeIs(afterFraction, "string")) {
		fraction = tonumber(`0.${digits}`)!;
		remainder = afterFraction;
	}
	let offsetMinutes = 0;
	if (remainder !== "" && remainder !== "Z" && remainder !== "z") {
		const [sign, offsetHours, offsetMins] = remainder.match("^([+-])(%d%d):?(%d%d)$");
		if (!typeIs(sign, "string") || !typeIs(offsetHours, "string") || !typeIs(offsetMins, "string"))
			return undefined;
		const magnitude = tonumber(offsetHours)! * 60 + tonumber(offsetMins)!;
		if (tonumber(offsetMins)! > 59 || magnitude > MAX_OFFSET_MINUTES) return undefined;
		offsetMinutes = sign === "-" ? -magnitude : magnitude;
	}
	return daysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s + fraction - offsetMinutes * 60;
}
