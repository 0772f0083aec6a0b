import type { RequestPriority } from "../transport/budget";

/**
 * Per-call options.
 *
 * @example
 * ```ts
 * client.calls.getMessages(callId, { priority: "low" });
 * ```
 * @see README#request-budget
 */
export interface CallOptions {
	/** The call's place in the budget queue; registration and join reports default to `high`, the rest `normal`. */
	readonly priority?: RequestPriority;
	/**
	 * At most this many attempts for this call (1 or more), instead of the api client's retry settings. The game integration
	 * sends its background work with 1 and retries it itself, at a pace that keeps an outage cheap.
	 */
	readonly maxAttempts?: number;
	/**
	 * Seconds each attempt of this call waits for its answer (0.1 to 60), instead of the api client's `timeout`. The
	 * game integration registers with a long one: an attempt given up on while the service still acts would leave a
	 * second server.
	 */
	readonly timeout?: number;
	/**
	 * Keeps listening `listen` seconds after the call was given up on (a timeout), and gives `take` the typed answer
	 * that still comes: the game integration adopts or ends a server its registration made after all.
	 * @internal
	 */
	readonly late?: { readonly listen: number; readonly take: (answer: unknown) => void };
}

/**
 * Reads per-call options: the priority (or `fallback`), the attempt cap and the timeout; a text saying what is wrong
 * otherwise.
 * @internal
 */
export function readCallOptions(
	options: CallOptions | undefined,
	fallback: RequestPriority,
):
	| [ok: true, priority: RequestPriority, maxAttempts: number | undefined, timeout: number | undefined]
	| [ok: false, problem: string] {
	if (options === undefined) return [true, fallback, undefined, undefined];
	if (!typeIs(options, "table")) return [false, "options must be a table"];
	const priority: unknown = options.priority ?? fallback;
	if (priority !== "urgent" && priority !== "high" && priority !== "normal" && priority !== "low") {
		return [false, "options.priority must be urgent, high, normal or low"];
	}
	const maxAttempts: unknown = options.maxAttempts;
	if (maxAttempts !== undefined && (!typeIs(maxAttempts, "number") || !(maxAttempts >= 1 && maxAttempts <= 10))) {
		return [false, "options.maxAttempts must be from 1 to 10"];
	}
	const timeout: unknown = options.timeout;
	if (timeout !== undefined && (!typeIs(timeout, "number") || !(timeout >= 0.1 && timeout <= 60))) {
		return [false, "options.timeout must be from 0.1 to 60 seconds"];
	}
	return [true, priority, maxAttempts !== undefined ? math.floor(maxAttempts) : undefined, timeout];
}
