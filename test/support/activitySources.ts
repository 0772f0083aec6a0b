import type { ActivitySources } from "../../src/client/activity";
import { detectActivity } from "../../src/client/activity";
import type { ActivitySettings, ActivityState } from "../../src/shared/privacyProtocol";
import { Signal } from "../../src/shared/signal";

/** Hand-driven sources for the activity detector: input, TextBox focus, window focus, movement and a clock. */
export function fakeActivitySources() {
	const input = new Signal<[]>();
	const typing = new Signal<[boolean]>();
	const focus = new Signal<[boolean]>();
	const tick = new Signal<[]>();
	const state = { now: 0, moving: false };
	const sources: ActivitySources = {
		onInput: (handler) => input.Connect(handler),
		onTyping: (handler) => typing.Connect(handler),
		onWindowFocus: (handler) => focus.Connect(handler),
		isMoving: () => state.moving,
		now: () => state.now,
		every: (_, fn) => tick.Connect(fn),
	};
	/** Moves the clock by `seconds`, one tick a second. */
	const pass = (seconds: number) => {
		for (let i = 0; i < seconds; i++) {
			state.now += 1;
			tick.Fire();
		}
	};
	return { sources, input, typing, focus, state, pass };
}

/** A detector on hand-driven sources with `settings`; `send` gets each change (default: kept in `sent`). */
export function handDrivenDetector(settings: ActivitySettings, send?: (state: ActivityState) => void) {
	const fake = fakeActivitySources();
	const sent = new Array<ActivityState>();
	const detector = detectActivity(settings, send ?? ((state) => sent.push(state)), fake.sources);
	return { ...fake, sent, detector };
}
