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
				{ altTab: false, altTabSeconds: 0, movement: true, idleSeconds: 60 },
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

		it("reports focus loss as idle at once with altTab on and no time set", () => {
			const fake = fakeSources();
			const sent = new Array<ActivityState>();
			const settings = { altTab: true, altTabSeconds: 0, movement: true, idleSeconds: 30 };
			detectActivity(settings, (s) => sent.push(s), fake.sources);
			fake.focus.Fire(false);
			expect(sent.join(",")).to.equal("idle");
			fake.focus.Fire(true);
			expect(sent.join(",")).to.equal("idle,active");
		});

		it("with altTab's timeUntilIdle, focus lost for that long is idle, a shorter loss is not", () => {
			const fake = fakeSources();
			const sent = new Array<ActivityState>();
			const settings = { altTab: true, altTabSeconds: 10, movement: false, idleSeconds: 45 };
			detectActivity(settings, (s) => sent.push(s), fake.sources);
			fake.focus.Fire(false);
			fake.pass(9);
			fake.focus.Fire(true);
			expect(sent.size()).to.equal(0);
			fake.focus.Fire(false);
			fake.pass(10);
			expect(sent.join(",")).to.equal("idle");
			fake.focus.Fire(true);
			expect(sent.join(",")).to.equal("idle,active");
		});

		it("movement: idle after the time without movement and without input; either keeps the player active", () => {
			const fake = fakeSources();
			const sent = new Array<ActivityState>();
			const settings = { altTab: false, altTabSeconds: 0, movement: true, idleSeconds: 30 };
			detectActivity(settings, (s) => sent.push(s), fake.sources);
			// Input alone (mouse, camera, keys) keeps the player active.
			for (let i = 0; i < 60; i++) {
				fake.input.Fire();
				fake.pass(1);
			}
			expect(sent.size()).to.equal(0);
			// Moving alone too.
			fake.state.moving = true;
			fake.pass(60);
			expect(sent.size()).to.equal(0);
			fake.state.moving = false;
			fake.pass(30);
			expect(sent.join(",")).to.equal("idle");
			fake.state.moving = true;
			fake.pass(1);
			expect(sent.join(",")).to.equal("idle,active");
		});

		it("with movement off, no time without input makes a player idle", () => {
			const fake = fakeSources();
			const sent = new Array<ActivityState>();
			const settings = { altTab: true, altTabSeconds: 0, movement: false, idleSeconds: 45 };
			detectActivity(settings, (s) => sent.push(s), fake.sources);
			fake.pass(3600);
			expect(sent.size()).to.equal(0);
		});
	});
};
