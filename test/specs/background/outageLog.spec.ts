import { HealthLog, RECOVERY_QUIET } from "../../../src/background/log";
import { FakeScheduler } from "../../support/fakes";
import { harness } from "../../support/harness";

// Issue 33: the outage log, where a one-expression bug ended an outage with a recovery line though the area failed
// again after its last success. Counts the lines the game's developer sees in the output.

function linesWith(text: string): number {
	return harness
		.output()
		.filter((line) => line.text.find(text, 1, true)[0] !== undefined)
		.size();
}

export = () => {
	beforeEach(() => harness.clearOutput());

	describe("the outage log (issue 33)", () => {
		it("after a success and then another failure, the outage stays open: no recovery line without a new success", () => {
			const clock = new FakeScheduler();
			const health = new HealthLog(clock);
			health.problem("joins", "joins failing");
			clock.advance(5);
			health.recovered("joins", "joins work again");
			clock.advance(5);
			health.problem("joins", "joins failing");
			clock.advance(RECOVERY_QUIET * 3);
			expect(linesWith("joins work again")).to.equal(0);
			expect(health.isFailing("joins")).to.equal(true);
			expect(linesWith("joins failing")).to.equal(1);
			// The next success starts the quiet minute again; the line comes once it has held.
			health.recovered("joins", "joins work again");
			clock.advance(RECOVERY_QUIET + 1);
			expect(linesWith("joins work again")).to.equal(1);
			expect(health.isFailing("joins")).to.equal(false);
		});
	});
};
