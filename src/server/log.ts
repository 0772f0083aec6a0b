/**
 * The library's log lines: one prefix, `[StaffOps]`, on everything it prints or warns. Nothing here ever receives
 * the key or a config table; callers pass short sentences.
 * @internal
 */
export const LOG_PREFIX = "[StaffOps]";

/** Prints an informational line. @internal */
export function logInfo(text: string): void {
	print(`${LOG_PREFIX} ${text}`);
}

/** Warns. @internal */
export function logWarn(text: string): void {
	warn(`${LOG_PREFIX} ${text}`);
}

/**
 * Warn-once bookkeeping for background work that keeps failing (registration, heartbeats, join reports): the first
 * failure of an area warns, later ones stay quiet, and the first success after a failure says it recovered.
 * @internal
 */
export class HealthLog {
	private readonly failing = new Set<string>();

	/** Records a failure of `area`; warns only when the area was healthy. */
	problem(area: string, text: string): void {
		if (this.failing.has(area)) return;
		this.failing.add(area);
		logWarn(text);
	}

	/** Records a success of `area`; prints `text` when the area had been failing. Returns whether it had. */
	recovered(area: string, text: string): boolean {
		if (!this.failing.has(area)) return false;
		this.failing.delete(area);
		logInfo(text);
		return true;
	}

	/** Whether `area` is failing now. */
	isFailing(area: string): boolean {
		return this.failing.has(area);
	}
}

/**
 * Capped exponential backoff with equal jitter: a delay in [ceiling/2, ceiling], where the ceiling doubles with each
 * failure from `base` up to `cap`. Background retries never hammer the service and never bunch up across servers.
 * @internal
 */
export function backoffSeconds(failures: number, random: () => number, base = 2, cap = 60): number {
	const ceiling = math.min(cap, base * 2 ** math.max(failures - 1, 0));
	let draw = random();
	if (!typeIs(draw, "number") || draw !== draw || draw < 0 || draw > 1) draw = 0.5;
	return ceiling / 2 + (ceiling / 2) * draw;
}
