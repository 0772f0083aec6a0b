import { meaningOf } from "../api/failurePolicy";
import type { FailureMeaning } from "../api/failurePolicy";

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
 * failure of an area warns, later ones stay quiet, and the first success after a failure says it recovered. A
 * failure given with the service's error also records what it meant (the failure policy's meaning), which the
 * integration's status is read from (`server/status.ts`); `changed` runs whenever that record changes.
 * @internal
 */
export class HealthLog {
	private readonly failing = new Set<string>();
	private readonly meanings = new Map<string, FailureMeaning>();

	/** Runs after every change of the failing areas or their meanings. */
	changed?: () => void;

	/**
	 * Records a failure of `area`; warns only when the area was healthy. `err`, when the failure is the service's
	 * answer (or the lack of one), is kept as the area's latest meaning; `meaning` overrides what `err` says when the
	 * caller knows better (a 404 that a read showed to be a missing route).
	 */
	problem(area: string, text: string, err?: unknown, meaning?: FailureMeaning): void {
		const before = this.meanings.get(area);
		if (err !== undefined || meaning !== undefined) this.meanings.set(area, meaning ?? meaningOf(err));
		const fresh = !this.failing.has(area);
		if (fresh) {
			this.failing.add(area);
			logWarn(text);
		}
		if (fresh || before !== this.meanings.get(area)) this.changed?.();
	}

	/** Records a success of `area`; prints `text` when the area had been failing. Returns whether it had. */
	recovered(area: string, text: string): boolean {
		if (!this.failing.has(area)) return false;
		this.failing.delete(area);
		this.meanings.delete(area);
		logInfo(text);
		this.changed?.();
		return true;
	}

	/** Whether `area` is failing now. */
	isFailing(area: string): boolean {
		return this.failing.has(area);
	}

	/** The failing areas whose failure came from the service, with what it meant. */
	serviceFailures(): ReadonlyMap<string, FailureMeaning> {
		return this.meanings;
	}
}
