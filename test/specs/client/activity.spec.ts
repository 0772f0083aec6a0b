import { ActivitySources, detectActivity } from "../../../src/client/activity";
import type { ActivityState } from "../../../src/shared/privacyProtocol";
import { Signal } from "../../../src/shared/signal";

/** Hand-driven sources: input, TextBox focus, window focus, movement and a clock. */
function fakeSources() {
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

export = () => {
	describe("the activity detector", () => {
		it("reports idle after the idle time without input, active on input, typing while a TextBox has focus", () => {
			const fake = fakeSources();
			const sent = new Array<ActivityState>();
			const detector = detectActivity(
				{ altTab: false, movement: false, idleSeconds: 60 },
				(s) => sent.push(s),
				fake.sources,
			);
			fake.pass(59);
			expect(sent.size()).to.equal(0);
			fake.pass(1);
			expect(sent.join(",")).to.equal("idle");
			fake.input.Fire();
			fake.typing.Fire(true);
			fake.pass(120);
			fake.typing.Fire(false);
			expect(sent.join(",")).to.equal("idle,active,typing,active");
			// Focus loss is not idle with altTab off.
			fake.focus.Fire(false);
			expect(sent.size()).to.equal(4);
			detector.Disconnect();
		});

		it("reports focus loss as idle with altTab on, and movement-based idle with movement on", () => {
			const fake = fakeSources();
			const sent = new Array<ActivityState>();
			detectActivity({ altTab: true, movement: true, idleSeconds: 30 }, (s) => sent.push(s), fake.sources);
			fake.focus.Fire(false);
			expect(sent.join(",")).to.equal("idle");
			fake.focus.Fire(true);
			expect(sent.join(",")).to.equal("idle,active");
			// Input without moving does not keep a player active when movement counts.
			for (let i = 0; i < 30; i++) {
				fake.input.Fire();
				fake.pass(1);
			}
			expect(sent.join(",")).to.equal("idle,active,idle");
			fake.state.moving = true;
			fake.pass(1);
			expect(sent.join(",")).to.equal("idle,active,idle,active");
		});
	});
};
