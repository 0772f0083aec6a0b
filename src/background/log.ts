import { meaningOf } from "../api/failurePolicy";
import type { FailureMeaning } from "../api/failurePolicy";
import type { Scheduler } from "../transport/scheduler";

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
 * How long an area must go without a failure, after a success, before its recovery is reported (seconds on the
 * scheduler's clock). A flapping service (every other request failing, a mix of failures) is one outage: one warning
 * and, once it has held for this long, one recovery line, not a pair of lines per flip.
 * @internal
 */
export const RECOVERY_QUIET = 30;

/** One area's outage: when it last failed, and whether a success came after that. */
interface Outage {
	lastFailure: number;
	succeededSince: boolean;
	/** A check of the quiet period is on the clock. */
	checking: boolean;
}

/**
 * Warn-once bookkeeping for background work that keeps failing (registration, heartbeats, join reports), with
 * hysteresis: the first failure of a healthy area warns and opens an outage; later failures stay quiet; the outage
 * ends, with its recovery line, only once a success has held for {@link RECOVERY_QUIET} seconds without a failure,
 * and until then the area does not warn again. A failure given with the service's error also records what it meant
 * (the failure policy's meaning), which the integration's status is read from (`server/status.ts`): that record
 * follows each answer at once (a success clears it); `changed` runs whenever it or the failing areas change.
 * Without a clock (a user of the log that has none) a recovery is reported at the first success.
 * @internal
 */
export class HealthLog {
	private readonly outages = new Map<string, Outage>();
	private readonly meanings = new Map<string, FailureMeaning>();

	/** Runs after every change of the failing areas or their meanings. */
	changed?: () => void;

	constructor(private readonly clock?: Scheduler) {}

	/**
	 * Records a failure of `area`; warns only when no outage of the area is open. `err`, when the failure is the
	 * service's answer (or the lack of one), is kept as the area's latest meaning; `meaning` overrides what `err`
	 * says when the caller knows better (a 404 that a read showed to be a missing route).
	 */
	problem(area: string, text: string, err?: unknown, meaning?: FailureMeaning): void {
		const before = this.meanings.get(area);
		if (err !== undefined || meaning !== undefined) this.meanings.set(area, meaning ?? meaningOf(err));
		const outage = this.outages.get(area);
		const now = this.clock?.now() ?? 0;
		if (outage === undefined) {
			this.outages.set(area, { lastFailure: now, succeededSince: false, checking: false });
			logWarn(text);
		} else {
			outage.lastFailure = now;
			outage.succeededSince = false;
		}
		if (outage === undefined || before !== this.meanings.get(area)) this.changed?.();
	}

	/**
	 * Records a success of `area`. When an outage of the area is open, `text` is printed once the success has held
	 * (at once without a clock, else when {@link RECOVERY_QUIET} seconds have passed since the last failure, checked
	 * on the clock). Returns whether the recovery was reported now.
	 */
	recovered(area: string, text: string): boolean {
		const outage = this.outages.get(area);
		if (this.meanings.delete(area)) this.changed?.();
		if (outage === undefined) return false;
		outage.succeededSince = true;
		return this.endIfQuiet(area, outage, text);
	}

	/**
	 * The area's work is over after a success (a registration made): its outage ends now without a line, because
	 * the caller prints its own. Returns whether an outage was open.
	 */
	ended(area: string): boolean {
		const had = this.outages.delete(area);
		const meant = this.meanings.delete(area);
		if (had || meant) this.changed?.();
		return had;
	}

	/** Whether an outage of `area` is open (it failed and its recovery has not been reported). */
	isFailing(area: string): boolean {
		return this.outages.has(area);
	}

	/** The areas whose latest answer was a failure from the service, with what it meant. */
	serviceFailures(): ReadonlyMap<string, FailureMeaning> {
		return this.meanings;
	}

	private endIfQuiet(area: string, outage: Outage, text: string): boolean {
		if (this.outages.get(area) !== outage || !outage.succeededSince) return false;
		const clock = this.clock;
		const left = clock === undefined ? 0 : outage.lastFailure + RECOVERY_QUIET - clock.now();
		// A hair of slack: clock arithmetic in floats may leave a remainder too small for a timer to move past.
		if (left <= 0.001) {
			this.outages.delete(area);
			logInfo(text);
			this.changed?.();
			return true;
		}
		if (!outage.checking && clock !== undefined) {
			outage.checking = true;
			clock.delay(left, () => {
				outage.checking = false;
				this.endIfQuiet(area, outage, text);
			});
		}
		return false;
	}
}
