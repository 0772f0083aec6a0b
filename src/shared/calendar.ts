/**
 * Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil), for the client's timezone
 * measure and the bridge's reading of ISO 8601 times.
 * @internal
 */
export function daysFromCivil(year: number, month: number, day: number): number {
	const y = month <= 2 ? year - 1 : year;
	const era = math.floor(y / 400);
	const yearOfEra = y - era * 400;
	const dayOfYear = math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
	const dayOfEra = yearOfEra * 365 + math.floor(yearOfEra / 4) - math.floor(yearOfEra / 100) + dayOfYear;
	return era * 146097 + dayOfEra - 719468;
}
