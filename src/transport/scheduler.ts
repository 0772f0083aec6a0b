/**
 * The clock seam: the current time in seconds and a way to run a callback later. The default uses `os.clock`
 * and `task.delay`; specs pass a fake that advances time by hand.
 *
 * @example
 * ```ts
 * const scheduler: Scheduler = { now: () => os.clock(), delay: (s, f) => void task.delay(s, f) };
 * ```
 * @see README#testing
 */
export interface Scheduler {
	/** Monotonic time in seconds. */
	now(): number;
	/** Runs `callback` after `seconds` (not before). */
	delay(seconds: number, callback: () => void): void;
}

/**
 * The scheduler backed by Roblox's `os.clock` and `task.delay`.
 *
 * @example
 * ```ts
 * new RequestBudget({ perMinute: 200 }, robloxScheduler);
 * ```
 */
export const robloxScheduler: Scheduler = {
	now() {
		return os.clock();
	},
	delay(seconds, callback) {
		task.delay(seconds, callback);
	},
};

/**
 * A Promise that resolves after `seconds` on `scheduler`.
 * @internal
 */
export function sleep(scheduler: Scheduler, seconds: number): Promise<void> {
	return new Promise<void>((resolve) => scheduler.delay(math.max(seconds, 0), () => resolve()));
}
