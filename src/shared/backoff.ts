/**
 * The one backoff of the library's background work (registration, joins, leaves, call polling; heartbeats keep
 * their steady `heartbeatSeconds`) and of the transport's retries: capped exponential with full jitter, a delay drawn
 * uniformly from [0, min(cap, base * 2^(failures - 1))], and never shorter than the service's `Retry-After`. Full
 * jitter spreads the retries of many servers over the whole window, so an outage's end is not met by a wall of
 * requests.
 * @internal
 */
export interface BackoffSettings {
	/** The ceiling after the first failure, in seconds. */
	readonly base: number;
	/** The largest ceiling, in seconds. */
	readonly cap: number;
	/** The service's `Retry-After`, honoured up to `maxRetryAfter` (default `cap`). */
	readonly retryAfter?: number;
	readonly maxRetryAfter?: number;
}

/**
 * Seconds to wait after `failures` failures in a row (1 after the first).
 * @param random a uniform draw in [0, 1); anything else counts as 0.5
 * @internal
 */
export function backoff(failures: number, random: () => number, options: BackoffSettings): number {
	const ceiling = math.min(options.cap, options.base * 2 ** math.max(failures - 1, 0));
	let draw = random();
	if (!typeIs(draw, "number") || draw !== draw || draw < 0 || draw > 1) draw = 0.5;
	const wait = ceiling * draw;
	const retryAfter = options.retryAfter;
	if (retryAfter === undefined || retryAfter !== retryAfter || retryAfter <= 0) return wait;
	return math.max(wait, math.min(retryAfter, options.maxRetryAfter ?? options.cap));
}

/**
 * Background work backs off from 2 s up to a minute, and honours the service's `Retry-After` up to 10 minutes
 * (half the deployed service's 20-minute silence sweep, so a server told to wait is not deleted for waiting).
 * @internal
 */
export const BACKGROUND = { base: 2, cap: 60, maxRetryAfter: 600 } as const;
