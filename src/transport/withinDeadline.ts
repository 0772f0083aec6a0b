// Game code called with a deadline: a callback of the game that never returns costs its own result only.
import type { Scheduler } from "./scheduler";

/** What a call came to: returned, threw, or still running at its deadline (late). @internal */
export type CallOutcome<T> =
	| { readonly kind: "returned"; readonly value: T }
	| { readonly kind: "threw"; readonly err: unknown }
	| { readonly kind: "late" };

/** Runs `fn` on the caller's thread without a deadline (StaffOps' own code, bounded by its own timeouts). @internal */
export function callNow<T>(fn: () => T): CallOutcome<T> {
	const [ok, value] = pcall(fn);
	return ok ? { kind: "returned", value: value as T } : { kind: "threw", err: value };
}

/**
 * Runs `fn` on its own thread and waits for it at most `seconds` on `scheduler`, yielding the caller meanwhile (a
 * function that does not yield answers without a wait). Past the deadline the caller goes on with `late`; the call's
 * thread is left to finish (or to wait for ever) on its own, and what it returns then is dropped, unless
 * `cancelLate` cancels it.
 * @internal
 */
export function callWithin<T>(fn: () => T, seconds: number, scheduler: Scheduler, cancelLate = false): CallOutcome<T> {
	const caller = coroutine.running();
	let outcome: CallOutcome<T> | undefined;
	let parked = false;
	const finish = (result: CallOutcome<T>) => {
		if (outcome !== undefined) return;
		outcome = result;
		if (parked) task.spawn(caller);
	};
	const worker = task.spawn(() => {
		finish(callNow(fn));
	});
	if (outcome === undefined) {
		scheduler.delay(seconds, () => {
			if (outcome !== undefined) return;
			if (cancelLate) pcall(() => task.cancel(worker));
			finish({ kind: "late" });
		});
		parked = true;
		coroutine.yield();
	}
	return outcome!;
}
