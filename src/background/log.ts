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
