import { StaffOpsApiClient } from "../../../src/api/apiClient";
import { RequestBudget } from "../../../src/transport/budget";
import { FakeScheduler } from "../../support/fakes";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { cleanUp, DEFAULT_INFO, freshStart, Started, startStaffOps, waitForFailures } from "./support";

// A registration whose answer comes after its 30 s (docs/failure-policy.md#a-late-registration-answer): the service
// made that server, so StaffOps uses it or ends it, and the service never holds two for one game server. Against the
// deployed profile, which makes a new server for every createServer (no dedup by jobId).

/** The servers the service holds as running for this game server (its JobId). */
function runningHeld(): Array<string> {
	return serviceControl
		.records()
		.servers.filter((server) => !server.deleted && server.jobId === DEFAULT_INFO.JobId)
		.map((server) => server.runningGameId);
}

/** Starts with the first createServer answered `latencyMs` late, and lets its 30 s pass on a fake clock. */
function firstAttemptTimedOut(latencyMs: number): Started {
	serviceControl.fault({ operation: "createServer", latencyMs, times: 1 });
	// The requests' own timers run on a clock of the spec's: the registration's 30 s pass when the spec says.
	const requestClock = new FakeScheduler();
	const client = new StaffOpsApiClient(
		{
			baseUrl: harness.serviceUrl,
			apiKey: harness.serviceKey,
			budget: new RequestBudget({ perMinute: 100_000, burst: 10_000 }),
			retry: { maxAttempts: 1 },
		},
		{ scheduler: requestClock },
	);
	const sentBefore = harness.http.requestsSent();
	const started = startStaffOps({ clientReportTimeoutSeconds: 0 }, { client });
	// The attempt's timer is on that clock once its request went out.
	waitUntil(() => harness.http.requestsSent() > sentBefore, "the registration to go out");
	requestClock.advance(30);
	waitForFailures(started.server, "register", 1);
	return started;
}

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUp());

	describe("a registration answered after its timeout", () => {
		it("uses the late answer's server and sends no second registration", () => {
			const started = firstAttemptTimedOut(1500);
			// The service answers the first attempt now (its request is logged once answered).
			waitUntil(() => serviceControl.count("createServer") >= 1, "the late answer", 10);
			// Bounded, and not failing here: without the late answer the retry below registers, and the counts tell.
			pcall(() => waitUntil(() => started.server.isRegistered(), "the late answer to be used", 3));
			// The retry's time passes: nothing is registered again.
			started.clock.advance(120);
			waitUntil(() => started.server.isRegistered(), "a registration");
			waitSeconds(0.3);
			expect(serviceControl.count("createServer")).to.equal(1);
			const held = runningHeld();
			expect(held.size()).to.equal(1);
			expect(started.server.getRunningGameId()).to.equal(held[0]);
			expect(serviceControl.count("endServer")).to.equal(0);
		});

		it("ends the late answer's server when a later attempt registered first", () => {
			const started = firstAttemptTimedOut(3000);
			// The retry goes out at once and is answered before the first attempt's late answer.
			started.clock.advance(60);
			waitUntil(() => started.server.isRegistered(), "the second attempt's registration");
			waitUntil(() => serviceControl.count("createServer") >= 2, "the first attempt's late answer", 10);
			waitUntil(() => runningHeld().size() <= 1, "the second server to be ended", 5);
			waitSeconds(0.3);
			expect(serviceControl.count("createServer")).to.equal(2);
			expect(serviceControl.count("endServer")).to.equal(1);
			const held = runningHeld();
			expect(held.size()).to.equal(1);
			expect(started.server.getRunningGameId()).to.equal(held[0]);
		});
	});
};
