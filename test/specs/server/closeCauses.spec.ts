import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { waitUntil } from "../../support/waits";
import {
	cleanUp,
	freshStart,
	join,
	joinsOf,
	linesWith,
	requestsFor,
	startDeployed,
	startStaffOps,
	waitForFailures,
	warnings,
} from "./support";

// Issue 32, point 6: the close records every join it can, settles joins whose outcome was unknown with one read of
// the player list, says in one line what it left unsent and why, and does not hold BindToClose for work that cannot
// succeed. Counted at the reference service (requests as received, joins recorded) and in the printed lines.

/** A deadline long enough that a close which waits for it is plainly told from one that does not. */
const DEADLINE = 8;

/** The close's one summary line (`shutting down with ... unsent: <cause>`). */
function closeLines(): Array<string> {
	return linesWith(warnings(), "shutting down with");
}

export = () => {
	beforeEach(() => freshStart());
	afterEach(() => {
		harness.http.setEnabled(true);
		cleanUp();
	});
	afterAll(() => serviceControl.reset());

	describe("joins whose outcome was unknown at the close (issue 32, point 6)", () => {
		it("are recorded once each: one read of the player list settles them all", () => {
			freshStart("deployed");
			const started = startDeployed({ timeout: 1, heartbeatSeconds: 600, shutdownDeadlineSeconds: DEADLINE });
			// Two joins the service acts on before the connection drops, two it never gets: all four unknown.
			serviceControl.fault({ operation: "playerJoin", kind: "drop-after", times: 2 });
			serviceControl.fault({ operation: "playerJoin", kind: "drop", times: 2 });
			const users = [2401, 2402, 2403, 2404];
			users.forEach((userId, index) => {
				join(userId);
				waitForFailures(started.server, "joins", index + 1);
			});
			serviceControl.clearFaults();
			const readsBefore = serviceControl.count("getRunningGame");

			const [seconds, finished] = harness.server.close();
			expect(finished).to.equal(true);
			expect(seconds < DEADLINE).to.equal(true);
			// One read at the close answered for all four (was 0: the grace periods outlast the close).
			expect(serviceControl.count("getRunningGame") - readsBefore).to.equal(1);
			// Acted on: never sent again. Never received: sent once more, recorded once.
			expect(requestsFor("playerJoin", 2401)).to.equal(1);
			expect(requestsFor("playerJoin", 2402)).to.equal(1);
			expect(requestsFor("playerJoin", 2403)).to.equal(2);
			expect(requestsFor("playerJoin", 2404)).to.equal(2);
			const records = serviceControl.records();
			for (const userId of users) {
				expect(joinsOf(userId).size()).to.equal(1);
				expect(records.sessionsByUser[tostring(userId)]).to.equal(1);
			}
			// Nothing unsent, and no line saying otherwise.
			expect(started.server.diagnostics().joins.closed?.unsentJoins).to.equal(0);
			expect(closeLines().size()).to.equal(0);
		});
	});

	describe("work that cannot succeed does not hold BindToClose (issue 32, point 6)", () => {
		it("a refused key: the close ends at once with a line naming the key", () => {
			const started = startStaffOps({
				apiKey: "sk_wrong_key_for_the_spec_000000",
				shutdownDeadlineSeconds: DEADLINE,
			});
			join(2411);
			join(2412);
			// PlayerAdded's handlers run deferred: the close must find both joins known, or there is nothing unsent.
			waitUntil(() => started.server.diagnostics().joins.players === 2, "StaffOps to know both joins");
			waitForFailures(started.server, "register", 1);

			const [seconds, finished] = harness.server.close();
			expect(finished).to.equal(true);
			expect(seconds < 1.5).to.equal(true); // was the whole deadline
			expect(serviceControl.count("playerJoin")).to.equal(0);
			expect(serviceControl.count("createServer") <= 2).to.equal(true);
			const lines = closeLines();
			expect(lines.size()).to.equal(1);
			expect(linesWith(lines, "2 join report(s) unsent: the service refused the API key").size()).to.equal(1);
			expect(linesWith(warnings(), "sk_wrong_key_for_the_spec").size()).to.equal(0);
			expect(started.server.diagnostics().joins.closed?.unsentJoins).to.equal(2);
		});

		it("HTTP turned off: the close ends at once with a line saying so", () => {
			harness.http.setEnabled(false);
			const started = startStaffOps({ shutdownDeadlineSeconds: DEADLINE });
			join(2421);
			// PlayerAdded's handlers run deferred; with HTTP off the registration can fail before they ran.
			waitUntil(() => started.server.diagnostics().joins.players === 1, "StaffOps to know the join");
			waitForFailures(started.server, "register", 1);

			const [seconds, finished] = harness.server.close();
			expect(finished).to.equal(true);
			expect(seconds < 1.5).to.equal(true); // was the whole deadline
			// The spec's own reads of the service go through HttpService too.
			harness.http.setEnabled(true);
			expect(serviceControl.count("createServer")).to.equal(0);
			const lines = closeLines();
			expect(lines.size()).to.equal(1);
			expect(linesWith(lines, "1 join report(s) unsent: HTTP requests are not enabled").size()).to.equal(1);
		});

		it("the service unreachable: the close stops after a bounded try and names it", () => {
			const started = startStaffOps({ shutdownDeadlineSeconds: DEADLINE, clientReportTimeoutSeconds: 0 });
			waitUntil(() => started.server.isRegistered(), "registration");
			serviceControl.fault({ operation: "*", kind: "drop" });
			join(2431);
			join(2432);
			waitForFailures(started.server, "joins", 1);

			const [seconds, finished] = harness.server.close();
			expect(finished).to.equal(true);
			expect(seconds < DEADLINE / 2).to.equal(true); // was the whole deadline
			const lines = closeLines();
			expect(lines.size()).to.equal(1);
			expect(linesWith(lines, "2 join report(s) unsent: the service could not be reached").size()).to.equal(1);
			expect(linesWith(lines, "deadline").size()).to.equal(0);
			// No join was recorded, and none was sent blindly again: each outcome was unknown.
			for (const userId of [2431, 2432]) expect(joinsOf(userId).size()).to.equal(0);
		});
	});
};
