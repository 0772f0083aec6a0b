import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { cleanUp, freshStart, startRegistered, waitForFailures } from "./support";

// Joins while the service fails, where a one-expression bug (issue 33) sent one probe per waiting player. Counts the
// joins that reached the reference service.

export = () => {
	beforeEach(() => freshStart());
	afterEach(() => cleanUp());
	afterAll(() => serviceControl.reset());

	describe("joins while the service fails (issue 33)", () => {
		it("sends one probe at a time, not one per waiting player", () => {
			const started = startRegistered({ clientReportTimeoutSeconds: 0 });
			// Each refusal takes a second to come back, so the four are all sent before the first fails, however busy the
			// machine (a refusal that came back first would hold the others back as waiting for a probe already).
			serviceControl.fault({ operation: "playerJoin", status: 503, latencyMs: 1000 });
			for (let userId = 2901; userId <= 2904; userId++) harness.players.add(userId);
			// The four go out together and fail: the queue is failing, and every join waits for a probe.
			waitForFailures(started.server, "joins", 4);
			waitUntil(() => serviceControl.count("playerJoin") === 4, "the four failed joins in the service's log");
			serviceControl.clearRequests();
			// Past every backoff at once: the waiting joins may go out, but only as one probe.
			started.clock.advance(61);
			// The service logs a request when it answers (a second later here): wait for the first, then for long
			// enough that any sent beside it would be logged too.
			waitUntil(() => serviceControl.count("playerJoin") >= 1, "the probe in the service's log");
			waitSeconds(1.5);
			expect(serviceControl.count("playerJoin")).to.equal(1);
		});
	});
};
