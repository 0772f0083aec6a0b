import { meaningOf } from "../api/failurePolicy";
import type { FailureMeaning } from "../api/failurePolicy";
import type { Scheduler } from "../transport/scheduler";

/**
 * The library's log lines: one prefix, `[StaffOps]`, on everything it prints or warns. Nothing here ever receives
 * the key or a config table; callers pass short sentences.
 * @internal
 */
export const LOG_PREFIX = "[StaffOps]";

/**
 * How much StaffOps prints (setting `logLevel`, attribute `LogLevel`): `quiet` only warnings, `info` (the default) one
 * line per notable event, `verbose` also the detail of the work behind them (join decisions, answers).
 * @see README#settings
 */
export type LogLevel = "quiet" | "info" | "verbose";

/** The level when none is set. @internal */
export const DEFAULT_LOG_LEVEL: LogLevel = "info";

// One StaffOps runs per game server (`StaffOps.start` keeps the running one), so the level is the module's: every
// line of the library, the health log's included, goes through here without each caller carrying a setting.
let level: LogLevel = DEFAULT_LOG_LEVEL;

/** Sets how much StaffOps prints from now on (`StaffOps.start` from the setting, `stop` back to the default). @internal */
export function setLogLevel(wanted: LogLevel): void {
	level = wanted;
}

/** Prints a notable event's line (every level but `quiet`). @internal */
export function logInfo(text: string): void {
	if (level !== "quiet") print(`${LOG_PREFIX} ${text}`);
}

/** Prints a line of detail for debugging (`verbose` only). @internal */
export function logVerbose(text: string): void {
	if (level === "verbose") print(`${LOG_PREFIX} ${text}`);
}

/**
 * A player as a log line names them: their name and UserId, never a text from outside the game about them.
 * @internal
 */
export function playerLabel(player: Player): string {
	return `${player.Name} (${player.UserId})`;
}

/** Warns, at every level. @internal */
export function logWarn(text: string): void {
	warn(`${LOG_PREFIX} ${text}`);
}

/**
 * How long an area must work without a failure before its outage ends with a recovery line (seconds on the
 * scheduler's clock). A service that fails every other request, or a mix of failures among successes, is one outage:
 * one warning, then one recovery line once it has held for a minute, not a pair of lines per flip. A minute is the
 * heartbeat's default period and the backoff's ceiling, so by then every background task has tried at least once.
 * @internal
 */
export const RECOVERY_QUIET = 60;

/** One area's open outage. */
interface Outage {
	/** When the area last failed (scheduler seconds). */
	lastFailure: number;
	/** A success came after that failure. */
	succeededSince: boolean;
	/** The recovery line to print once the quiet period has held. */
	text?: string;
	/** A check at the end of the quiet period is on the clock. */
	checking: boolean;
}

/**
 * Warn-once bookkeeping for background work that keeps failing (registration, heartbeats, join reports, rank reads),
 * with hysteresis: the first failure of an area warns and opens an outage; later failures stay quiet; the outage
 * ends, with its recovery line, only once the area has worked for {@link RECOVERY_QUIET} seconds without failing,
 * and until then it does not warn again. A failure given with the service's error also records what it meant (the
 * failure policy's meaning), which the integration's status is read from (`server/status.ts`): that record follows
 * each answer at once (a success clears it); `changed` runs whenever it or the open outages change.
 * Without a clock an outage ends at the first success (the support-call bridge's own log).
 * @internal
 */
export class HealthLog {
	private readonly outages = new Map<string, Outage>();
	private readonly meanings = new Map<string, FailureMeaning>();
	private stopped = false;

	/** Failures recorded so far (every `problem`, quiet or not): the close reads what failed while it ran. */
	failuresSeen = 0;
	/** The error of the latest failure given with one. */
	latestError?: unknown;
	/** Successes recorded so far (every `recovered` and `ended`). */
	successesSeen = 0;

	/** Runs after every change of the open outages or their meanings. */
	changed?: () => void;

	constructor(private readonly clock?: Scheduler) {}

	/**
	 * Records a failure of `area`; warns only when no outage of the area is open. `err`, when the failure is the
	 * service's answer (or the lack of one), is kept as the area's latest meaning; `meaning` overrides what `err`
	 * says when the caller knows better (a 404 that a read showed to be a missing route).
	 */
	problem(area: string, text: string, err?: unknown, meaning?: FailureMeaning): void {
		this.failuresSeen += 1;
		if (err !== undefined) this.latestError = err;
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
	 * Records a success of `area`. When an outage of the area is open, `text` is printed once the area has worked
	 * for {@link RECOVERY_QUIET} seconds since its last failure (checked on the clock; at once without one).
	 * Returns whether the outage ended now.
	 */
	recovered(area: string, text: string): boolean {
		this.successesSeen += 1;
		if (this.meanings.delete(area)) this.changed?.();
		const outage = this.outages.get(area);
		if (outage === undefined) return false;
		outage.succeededSince = true;
		outage.text = text;
		return this.endIfQuiet(area, outage);
	}

	/**
	 * The area's work is done after a success (a registration is made once): its outage ends now without a line, as
	 * the caller prints its own. Returns whether an outage was open.
	 */
	ended(area: string): boolean {
		this.successesSeen += 1;
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

	/** The integration stopped: checks still on the clock print nothing. */
	stop(): void {
		this.stopped = true;
	}

	private endIfQuiet(area: string, outage: Outage): boolean {
		if (this.stopped || this.outages.get(area) !== outage || !outage.succeededSince) return false;
		const clock = this.clock;
		const left = clock === undefined ? 0 : outage.lastFailure + RECOVERY_QUIET - clock.now();
		// A hair of slack: float sums on the clock may leave a remainder no timer moves past.
		if (left <= 0.001) {
			this.outages.delete(area);
			logInfo(outage.text!);
			this.changed?.();
			return true;
		}
		if (!outage.checking && clock !== undefined) {
			outage.checking = true;
			clock.delay(left, () => {
				outage.checking = false;
				this.endIfQuiet(area, outage);
			});
		}
		return false;
	}
}
