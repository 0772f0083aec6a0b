import { harness } from "../../support/harness";
import { failure, referenceClient } from "../../support/referenceClient";
import { serviceControl } from "../../support/serviceControl";
import { must } from "../../support/waits";

// Per-call options: a call's own timeout in place of the api client's (the registration waits longer than the rest).
export = () => {
	describe("per-call options", () => {
		beforeEach(() => serviceControl.reset());
		afterEach(() => harness.reset());

		it("a call's own timeout replaces the client's, for that call only", () => {
			const client = referenceClient({ timeout: 0.2, retry: { maxAttempts: 1 } });
			serviceControl.fault({ operation: "getUserTeams", latencyMs: 600, times: 2 });
			// The client's 0.2 s: given up on.
			expect(failure(client.teams.forUser("1002")).kind).to.equal("timeout");
			// Its own 3 s: the answer is taken.
			const answer = must(client.teams.forUser("1002", { timeout: 3 }));
			expect(typeIs(answer, "table")).to.equal(true);
			expect(serviceControl.count("getUserTeams")).to.equal(2);
		});

		it("refuses a timeout outside 0.1 to 60 seconds before sending anything", () => {
			const client = referenceClient({ retry: { maxAttempts: 1 } });
			for (const timeout of [0, 61, 0 / 0]) {
				const err = failure(client.teams.forUser("1002", { timeout }));
				expect(err.kind).to.equal("invalid");
				expect(err.message.find("options.timeout must be from 0.1 to 60", 1, true)[0]).to.be.ok();
			}
			expect(serviceControl.count("getUserTeams")).to.equal(0);
		});
	});
};
