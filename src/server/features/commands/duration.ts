// How long a ban or a suspension lasts, as staff write it: `3d`, `2w`, `48h` or a bare number of days.

/** The longest length the service takes (`expiresInDays`, docs/service-contract.md#admin-chat-commands). @internal */
export const MAX_DAYS = 36_500;

/** The forms a length may take, said with every refusal. @internal */
export const DURATION_FORMS = `Give the length as 3d, 2w, 48h or a number of days (whole days, 1 to ${MAX_DAYS}), or leave it out for no end.`;

const DAYS_PER_UNIT: { readonly [unit: string]: number | undefined } = {
	"": 1,
	d: 1,
	day: 1,
	days: 1,
	w: 7,
	wk: 7,
	week: 7,
	weeks: 7,
};
const HOURS = new Set(["h", "hr", "hrs", "hour", "hours"]);

/**
 * A typed length: whole days, `undefined` when the word is no length at all (it is the next parameter's, as the
 * reason in `/ban x spam`), or a sentence saying why not. Anything that starts like a number is a length: it is read
 * exactly or refused, never sent as a reason and never rounded, so a ban always ends when staff said it would. The
 * service counts whole days, so hours must make whole days (`48h`) and minutes are refused.
 * @internal
 */
export function readDuration(token: string): [days: number | undefined, problem?: string] {
	if (token.match("^[%d%.%+%-]")[0] === undefined) return [undefined];
	const [digits, unit] = token.lower().match("^(%d+)(%a*)$");
	if (!typeIs(digits, "string") || !typeIs(unit, "string"))
		return [undefined, `${token} is not a length. ${DURATION_FORMS}`];
	const count = tonumber(digits)!;
	let days: number;
	const perUnit = DAYS_PER_UNIT[unit];
	if (perUnit !== undefined) days = count * perUnit;
	else if (HOURS.has(unit) && count % 24 === 0) days = count / 24;
	else if (HOURS.has(unit))
		return [undefined, `The website keeps lengths in whole days, so ${token} cannot be kept. ${DURATION_FORMS}`];
	else return [undefined, `${token} is not a length. ${DURATION_FORMS}`];
	if (days < 1) return [undefined, `A length of ${token} would end at once, so nothing was done. ${DURATION_FORMS}`];
	if (days > MAX_DAYS) return [undefined, `${token} is longer than the website keeps. ${DURATION_FORMS}`];
	return [days];
}

/** How an answer says when something ends: `for 3 days, until 2026-12-05 14:00 UTC`, or with no end. @internal */
export function endText(days: number | undefined, now = os.time()): string {
	if (days === undefined) return "with no end";
	const ends = os.date("!%Y-%m-%d %H:%M UTC", now + days * 86_400);
	return `for ${days} day${days === 1 ? "" : "s"}, until ${ends}`;
}
