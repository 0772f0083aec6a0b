import { backoff } from "../shared/backoff";
import { ThrownFailure } from "./httpDoor";

/**
 * How failed requests are retried: capped exponential backoff with full jitter, `Retry-After` honoured.
 *
 * Only these are retried: transport failures (no connection, a dropped connection, a timeout, Roblox's request
 * limit), HTTP 408, 429 and 5xx. Other 4xx answers, `success: false` refusals with a 2xx status, and answers that
 * fail to decode are never retried.
 *
 * An operation whose request may have reached the service (a timeout or a dropped connection after sending, or
 * a 500/502/504 answer, which may come after the work was done) is repeated only when it is safe to repeat:
 *
 * | operation | safe to repeat | why |
 * |---|---|---|
 * | every GET (listHistory, getActivity, getRunningGame, listTimeOff, getTimeOff, getCallMessages, getUserTeams) | yes | reads change nothing |
 * | releaseOrder (PUT) | yes | a second release cannot release twice; it is refused with 409, and the error then says the earlier attempt may have released the order |
 * | playerJoin | no | the deployed service opens a new player record and session for every call; the game integration checks the running game's player list before it sends a join again |
 * | createServer | no | each call registers another server |
 * | recordHistory | no | each call records another history item |
 * | createOrder | no | each call creates another order |
 *
 * Requests that certainly did not reach the service (connect and DNS failures, Roblox's limit, 408, 429, 503)
 * are retried for every operation.
 *
 * @example
 * ```ts
 * new StaffOpsApiClient({ baseUrl, apiKey, retry: { maxAttempts: 5, maxDelay: 4 } });
 * ```
 * @see README#retries
 */
export interface RetryOptions {
	/** Attempts in total, including the first. Default 3; 1 turns retries off. */
	readonly maxAttempts?: number;
	/** Backoff before the second attempt is drawn from [0, baseDelay] seconds. Default 0.5. */
	readonly baseDelay?: number;
	/** The backoff cap in seconds. Default 8. */
	readonly maxDelay?: number;
	/** The longest `Retry-After` honoured, in seconds; a longer one ends the retries. Default 30. */
	readonly maxRetryAfter?: number;
}

/** The retry settings: {@link RetryOptions} with every field set. @internal */
export interface RetrySettings {
	readonly maxAttempts: number;
	readonly baseDelay: number;
	readonly maxDelay: number;
	readonly maxRetryAfter: number;
}

function finitePositive(value: number | undefined, fallback: number, min = 0): number {
	if (value === undefined || value !== value || value < min || value >= math.huge) return fallback;
	return value;
}

/** Fills in the defaults and ignores invalid numbers. @internal */
export function retrySettings(options: RetryOptions = {}): RetrySettings {
	return {
		maxAttempts: math.floor(finitePositive(options.maxAttempts, 3, 1)),
		baseDelay: finitePositive(options.baseDelay, 0.5),
		maxDelay: finitePositive(options.maxDelay, 8),
		maxRetryAfter: finitePositive(options.maxRetryAfter, 30),
	};
}

/**
 * The backoff before the next attempt: uniform in [0, min(maxDelay, baseDelay * 2^(failures - 1))], and never
 * shorter than the service's `Retry-After` (up to `maxRetryAfter`; the transport does not retry after a longer one).
 * @param failures how many attempts have failed so far (1 after the first)
 * @param random a uniform draw in [0, 1)
 * @param retryAfter the service's `Retry-After` in seconds, when it sent one
 * @internal
 */
export function backoffDelay(
	settings: RetrySettings,
	failures: number,
	random: () => number,
	retryAfter?: number,
): number {
	return backoff(failures, random, {
		base: settings.baseDelay,
		cap: settings.maxDelay,
		retryAfter,
		maxRetryAfter: settings.maxRetryAfter,
	});
}

/**
 * Reads `Retry-After` as seconds (`"2"`, `"1.5"`); an HTTP date or garbage yields undefined.
 * @internal
 */
export function parseRetryAfter(headers: Record<string, string> | undefined): number | undefined {
	if (headers === undefined) return undefined;
	let raw: unknown = headers["retry-after"];
	if (raw === undefined) {
		for (const [name, value] of pairs(headers)) {
			if (typeIs(name, "string") && name.lower() === "retry-after") raw = value;
		}
	}
	if (!typeIs(raw, "string")) return undefined;
	const trimmed = raw.match("^%s*(.-)%s*$")[0];
	if (!typeIs(trimmed, "string") || trimmed.match("^%d+%.?%d*$")[0] === undefined) return undefined;
	const seconds = tonumber(trimmed);
	if (seconds === undefined || seconds !== seconds || seconds < 0 || seconds >= math.huge) return undefined;
	return seconds;
}

/** What one attempt ended with, as far as retrying is concerned. @internal */
export type AttemptOutcome =
	{ readonly type: "thrown"; readonly failure: ThrownFailure } | { readonly type: "status"; readonly status: number };

/** Statuses that say the service did not act on the request. */
const NOT_PROCESSED = new Set([408, 429, 503]);

/**
 * Whether `status` says the service did not act on the request (408, 429, 503): sending it again is always safe.
 * The failure policy reads these statuses as transient with this same list.
 * @internal
 */
export function isNotProcessed(status: number): boolean {
	return NOT_PROCESSED.has(status);
}

/**
 * Whether the outcome may be retried at all, and whether the request may have reached the service.
 * @internal
 */
export function classifyOutcome(outcome: AttemptOutcome): { retryable: boolean; mayHaveActed: boolean } {
	if (outcome.type === "thrown") {
		return { retryable: outcome.failure.retryable, mayHaveActed: outcome.failure.sent };
	}
	const status = outcome.status;
	if (isNotProcessed(status)) return { retryable: true, mayHaveActed: false };
	if (status >= 500 && status <= 599) return { retryable: true, mayHaveActed: true };
	return { retryable: false, mayHaveActed: true };
}

/**
 * Whether to try again after `outcome`, for an operation that is (or is not) safe to repeat.
 * @internal
 */
export function shouldRetry(outcome: AttemptOutcome, safeToRepeat: boolean): boolean {
	const { retryable, mayHaveActed } = classifyOutcome(outcome);
	return retryable && (safeToRepeat || !mayHaveActed);
}
