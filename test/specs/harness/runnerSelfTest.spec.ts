import { harness } from "../../support/harness";
import { waitUntil } from "../../support/waits";

// The runner's check of its own time limits (scripts/test.mjs, the summary's "runner self-test" row), with specs only
// when STAFFOPS_RUNNER_SELFTEST is set. This file's limit is 3 s (test/runner/limits.luau). The first spec waits past
// it in a bounded wait: the runner must fail it by name, saying what it waited for, within the limit. The second
// never yields for longer than the limit: Luau cannot interrupt it, so scripts/test.mjs stops the run from outside,
// names it and resumes the run after it. The third must still run and pass.
export = () => {
	if (harness.runnerSelfTest === "") return;

	describe("the runner's time limits", () => {
		it("stops a spec that waits past its file's limit", () => {
			waitUntil(() => false, "a condition that never holds (the runner's self-test)", 60);
		});

		it("stops a spec that never yields past its file's limit", () => {
			const started = os.clock();
			let spins = 0;
			while (os.clock() - started < 30) spins += 1;
			expect(spins > 0).to.equal(true);
		});

		it("runs the specs after the stuck ones", () => {
			expect(harness.runnerSelfTest).never.to.equal("");
		});
	});
};
