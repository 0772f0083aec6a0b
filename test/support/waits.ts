// The specs' ways of waiting, one of each (not a spec: TestEZ runs only *.spec modules). Real time: `waitUntil`
// (a condition), `waitSeconds` (a span, for deferred events and short round trips), `must` (a Promise that must
// resolve). A fake clock: `settle` (a Promise, by advancing the clock), `advanceInSteps` (steps whose work must land).
import { FakeScheduler } from "./fakes";
import { harness } from "./harness";

// Each wait that yields says what it waits for while it waits (harness.waitingFor), so a spec that the runner stops
// at its file's time limit fails naming it ("waiting for: the service to log 3 joins"), not only where it was.

/** Yields (real time) until `condition()` holds; errors after `seconds`, naming `what` it waited for. */
export function waitUntil(condition: () => boolean, what: string, seconds = 15): void {
	const started = os.clock();
	const done = harness.waitingFor(`${what} (waitUntil, at most ${seconds} s)`);
	while (!condition()) {
		if (os.clock() - started > seconds) {
			done();
			error(`timed out after ${seconds} s waiting for ${what}`, 2);
		}
		task.wait(0.01);
	}
	done();
}

/** Yields for `seconds` of real time, so deferred events and short HTTP round trips can happen. */
export function waitSeconds(seconds: number): void {
	const started = os.clock();
	const done = harness.waitingFor(`${seconds} s to pass (waitSeconds)`);
	while (os.clock() - started < seconds) task.wait(0.01);
	done();
}

/** Waits (real time) for `promise` and returns its value; errors, at the caller, when it rejects. */
export function must<T>(promise: Promise<T>): T {
	const done = harness.waitingFor("a Promise to settle (must)");
	const [ok, value] = promise.await();
	done();
	if (!ok) error(`expected success, got ${tostring(value)}`, 2);
	return value as T;
}

/**
 * Settles a Promise by advancing `clock` in steps of `step` seconds, for at most `limit` seconds; returns
 * [resolved, value or error]. Errors if it has not settled by then.
 */
export function settle<T>(clock: FakeScheduler, promise: Promise<T>, step = 0.05, limit = 600): [boolean, unknown] {
	let result: [boolean, unknown] | undefined;
	promise.then(
		(value) => {
			result = [true, value];
		},
		(err: unknown) => {
			result = [false, err];
		},
	);
	let waited = 0;
	while (result === undefined && waited < limit) {
		clock.advance(step);
		waited += step;
	}
	if (result === undefined) error("the promise did not settle", 2);
	return result;
}

/**
 * Advances `clock` `steps` times by `stepSeconds`. Before the first step and after each one it waits (real time, at
 * most `seconds`) until `landed(step, now)` holds (`step` 0 before the first, `now` the clock's time), then
 * `settleSeconds` more so the library can handle the answer. For work whose next timer is scheduled when an answer is
 * handled (heartbeats, retries, probes): moving the clock before then schedules that timer a step late, so a fixed
 * pause loses a step on a busy machine.
 */
export function advanceInSteps(
	clock: FakeScheduler,
	steps: number,
	stepSeconds: number,
	landed: (step: number, now: number) => boolean,
	what: string,
	settleSeconds = 0.15,
	seconds = 10,
): void {
	for (let step = 0; step <= steps; step++) {
		if (step > 0) clock.advance(stepSeconds);
		waitUntil(() => landed(step, clock.now()), `${what} by step ${step} (t = ${clock.now()} s)`, seconds);
		waitSeconds(settleSeconds);
	}
}
