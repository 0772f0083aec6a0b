/**
 * When a call message was written, in Unix seconds: the service's `created` (ISO 8601), else now. Its own module so
 * that changes to time parsing stay apart from the bridge's polling and delivery.
 * @internal
 */
export function unixSeconds(created: string | undefined): number {
	if (created !== undefined) {
		const [ok, parsed] = pcall(() => DateTime.fromIsoDate(created));
		if (ok && parsed !== undefined) return parsed.UnixTimestampMillis / 1000;
	}
	return DateTime.now().UnixTimestampMillis / 1000;
}
