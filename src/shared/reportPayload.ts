import { t } from "@rbxts/t";
/**
 * The platforms `playerJoin` accepts, exactly as the service spells them.
 * @see README#typed-client
 */
export type Platform = "Phone" | "Tablet" | "Console" | "Desktop" | "unknown";

/**
 * Every {@link Platform}, written once, in the order a refused argument names them: a client's report, a join's
 * arguments and a running player's entry are each checked against this list.
 * @internal
 */
export const PLATFORMS = [
	"Phone",
	"Tablet",
	"Console",
	"Desktop",
	"unknown",
] as const satisfies ReadonlyArray<Platform>;

/** Whether `value` is one of the {@link PLATFORMS}. @internal */
export function isPlatform(value: unknown): value is Platform {
	return PLATFORMS.includes(value as Platform);
}

/** The largest offset from UTC in use (UTC+14:00, Kiribati), in minutes. @internal */
export const MAX_OFFSET_MINUTES = 14 * 60;

/**
 * What a client reports about itself through the `ClientReport` remote, once: its platform and its offset from
 * UTC. The server checks it with {@link isClientReportPayload} and treats it as untrusted.
 *
 * @example
 * ```ts
 * const payload: ClientReportPayload = { platform: "Phone", tzOffset: "-05:00" };
 * ```
 * @see README#game-integration
 */
export interface ClientReportPayload {
	readonly platform: Platform;
	/** `±HH:MM`, from -14:00 to +14:00. */
	readonly tzOffset: string;
}

/**
 * The offset reported when a client's timezone is not known (no report, or one that could not be measured):
 * `-00:00`, RFC 3339's "unknown local offset" (section 4.3), never `+00:00`, so a real UTC player stays apart. The
 * service accepts it where it accepts any offset, and cannot take the field left out
 * (docs/service-contract.md#an-unknown-tzoffset-is--0000).
 *
 * @example
 * ```ts
 * const tzOffset = measureTzOffset() ?? UNKNOWN_TZ_OFFSET;
 * ```
 * @see README#game-integration
 */
export const UNKNOWN_TZ_OFFSET = "-00:00";

/**
 * Whether `value` is an offset `±HH:MM` within ±14:00 (exactly six characters, minutes 00..59).
 * @internal
 */
export function isTzOffset(value: unknown): value is string {
	if (!typeIs(value, "string") || value.size() !== 6) return false;
	const [hours, minutes] = value.match("^[+-](%d%d):(%d%d)$");
	if (!typeIs(hours, "string") || !typeIs(minutes, "string")) return false;
	const h = tonumber(hours)!;
	const m = tonumber(minutes)!;
	return m <= 59 && h * 60 + m <= MAX_OFFSET_MINUTES;
}

const shapeCheck = t.strictInterface({ platform: isPlatform, tzOffset: isTzOffset });

/**
 * Whether `value` is a well-formed {@link ClientReportPayload}: a table with exactly the keys `platform` (one of
 * the five platforms) and `tzOffset` (see {@link isTzOffset}), nothing else. Cheap for any input: a table with more
 * than two keys is refused before its values are looked at.
 * @internal
 */
export function isClientReportPayload(value: unknown): value is ClientReportPayload {
	if (!typeIs(value, "table") || getmetatable(value) !== undefined) return false;
	let keys = 0;
	for (const [key] of pairs(value)) {
		keys += 1;
		if (keys > 2 || !typeIs(key, "string")) return false;
	}
	return shapeCheck(value);
}
