import { handDrivenDetector } from "../../support/activitySources";

export = () => {
	describe("the activity detector", () => {
		it("reports idle after the idle time without input, active on input, typing while a TextBox has focus", () => {
			const fake = handDrivenDetector({ altTab: false, altTabSeconds: 0, movement: true, idleSeconds: 60 });
			fake.pass(59);
			expect(fake.sent.size()).to.equal(0);
			fake.pass(1);
			expect(fake.sent.join(",")).to.equal("idle");
			fake.input.Fire();
			fake.typing.Fire(true);
			fake.pass(120);
			fake.typing.Fire(false);
			expect(fake.sent.join(",")).to.equal("idle,active,typing,active");
			// Focus loss is not idle with altTab off.
			fake.focus.Fire(false);
			expect(fake.sent.size()).to.equal(4);
			fake.detector.Disconnect();
		});

		it("reports focus loss as idle at once with altTab on and no time set", () => {
			const fake = handDrivenDetector({ altTab: true, altTabSeconds: 0, movement: true, idleSeconds: 30 });
			fake.focus.Fire(false);
			expect(fake.sent.join(",")).to.equal("idle");
			fake.focus.Fire(true);
			expect(fake.sent.join(",")).to.equal("idle,active");
		});

		it("with altTab's timeUntilIdle, focus lost for that long is idle, a shorter loss is not", () => {
			const fake = handDrivenDetector({ altTab: true, altTabSeconds: 10, movement: false, idleSeconds: 45 });
			fake.focus.Fire(false);
			fake.pass(9);
			fake.focus.Fire(true);
			expect(fake.sent.size()).to.equal(0);
			fake.focus.Fire(false);
			fake.pass(10);
			expect(fake.sent.join(",")).to.equal("idle");
			fake.focus.Fire(true);
			expect(fake.sent.join(",")).to.equal("idle,active");
		});

		it("movement: idle after the time without movement and without input; either keeps the player active", () => {
			const fake = handDrivenDetector({ altTab: false, altTabSeconds: 0, movement: true, idleSeconds: 30 });
			// Input alone (mouse, camera, keys) keeps the player active.
			for (let i = 0; i < 60; i++) {
				fake.input.Fire();
				fake.pass(1);
			}
			expect(fake.sent.size()).to.equal(0);
			// Moving alone too.
			fake.state.moving = true;
			fake.pass(60);
			expect(fake.sent.size()).to.equal(0);
			fake.state.moving = false;
			fake.pass(30);
			expect(fake.sent.join(",")).to.equal("idle");
			fake.state.moving = true;
			fake.pass(1);
			expect(fake.sent.join(",")).to.equal("idle,active");
		});

		it("with movement off, no time without input makes a player idle", () => {
			const fake = handDrivenDetector({ altTab: true, altTabSeconds: 0, movement: false, idleSeconds: 45 });
			fake.pass(3600);
			expect(fake.sent.size()).to.equal(0);
		});
	});
};
