import { waitUntil } from "../../support/waits";

// The harness's real-time waits (lune/roblox/sleeper.luau): Roblox has no limit on how many threads wait at once, and
// a wait always gives the scheduler one turn, as task.wait does. Lune 0.8.8 alone stops resuming any thread past about
// 130 threads in its task.wait (lune/bench/README.md#the-lune-sleeper-limit): without the sleeper the first spec never
// ends, and the runner's limit names it.

export = () => {
	describe("real-time waits (sleeper)", () => {
		it("resumes 300 threads that each wait three times at once, in under 10 s", () => {
			let resumed = 0;
			for (let i = 0; i < 300; i++) {
				task.spawn(() => {
					for (let round = 0; round < 3; round++) {
						task.wait(0.05);
						resumed += 1;
					}
				});
			}
			waitUntil(() => resumed === 900, "900 resumptions of 300 waiting threads", 10);
			expect(resumed).to.equal(900);
		});

		it("resumes 300 delayed functions with their own arguments", () => {
			const seen = new Array<number>();
			for (let i = 0; i < 300; i++) task.delay(0.05, (value: number) => seen.push(value), i);
			waitUntil(() => seen.size() === 300, "300 delayed functions", 10);
			let sum = 0;
			for (const value of seen) sum += value;
			expect(sum).to.equal((299 * 300) / 2);
		});

		it("gives deferred work its turn before even a wait of 0 ends", () => {
			// Resumed from a wait first, as a spec's loop is: the next wait must still yield to the scheduler.
			task.wait(0.01);
			let ran = false;
			task.defer(() => {
				ran = true;
			});
			task.wait();
			expect(ran).to.equal(true);
		});

		it("never runs a delayed thread that was cancelled", () => {
			let ran = false;
			const thread = task.delay(0.05, () => {
				ran = true;
			});
			task.cancel(thread);
			task.wait(0.2);
			expect(ran).to.equal(false);
		});

		it("returns the seconds waited, at least those asked for", () => {
			const waited = task.wait(0.1);
			expect(waited >= 0.1).to.equal(true);
			expect(waited < 1).to.equal(true);
		});
	});
};
