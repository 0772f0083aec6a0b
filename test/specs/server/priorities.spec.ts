import { StaffOps } from "../../../src/server";
import { SYNC_IDLE_SECONDS } from "../../../src/server/features/presence/sync";
import { RequestBudget } from "../../../src/transport/budget";
import { harness } from "../../support/harness";
import { FakeScheduler, RecordingHttp } from "../../support/fakes";
import { serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { cleanUp, freshStart, join, startDeployed } from "./support";

// The one request budget serves joins first (docs/deployed-service.md: the sync at `normal` priority, "so joins go
// first" (DS7); leaves at `normal`, below joins (DS36)). A budget of one request per 10 s is held by a pause while a
// join and the other request wait in it together; then one token is let out: it must be the join's.

const PAUSE_SECONDS = 100;

/** Joins, syncs and leaves the service logged, in the order it answered them, from its `since`-th request on. */
function operationsSince(since: number): Array<string> {
	const logged = serviceControl.requests().requests;
	const operations = new Array<string>();
	for (let i = since; i < logged.size(); i++) {
		const operation = logged[i].operation;
		if (operation === "playerJoin" || operation === "sendData" || operation === "playerLeave") {
			operations.push(operation);
		}
	}
	return operations;
}

/** Starts on the deployed profile with a budget of one request per 10 s on the spec's clock. */
function startSlow() {
	const clock = new FakeScheduler();
	const budget = new RequestBudget({ perMinute: 6, burst: 1, maxWait: 1_000 }, clock);
	const http = new RecordingHttp(clock);
	startDeployed({ budget, sessions: { reportLeaves: true } }, { scheduler: clock, transport: { http } });
	return { clock, budget, http };
}

/**
 * Ends the pause and moves the clock a second at a time until the budget lets the first request out (it is sent at
 * once), then waits with the clock stopped until the service answered it: the budget grants one request per 10 s, so
 * no second one can go. (Stepping the clock until the service had logged the first request let a slow round trip on a
 * busy machine run the clock 10 s on, and a second request out: 2 released in a CI run.)
 */
function releaseOne(clock: FakeScheduler, http: RecordingHttp, since: number): Array<string> {
	const sent = http.seen.size();
	clock.advance(PAUSE_SECONDS);
	for (let step = 0; step < 30 && http.seen.size() === sent; step++) {
		clock.advance(1);
		waitSeconds(0.05);
	}
	if (http.seen.size() !== sent + 1) error(`the budget let ${http.seen.size() - sent} requests out, not 1`);
	waitUntil(() => http.inFlight === 0, "the first request after the pause to be answered", 10);
	return operationsSince(since);
}

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUp());
	afterAll(() => serviceControl.reset());

	describe("priorities in the one request budget", () => {
		it("sends a waiting join before a sync that waited longer (the sync at normal priority)", () => {
			const { clock, budget, http } = startSlow();
			// Whatever the start sent is through; from here the budget lets nothing out until the pause ends.
			clock.advance(30);
			waitSeconds(0.3);
			budget.pause(PAUSE_SECONDS);
			const since = serviceControl.requests().requests.size();
			const syncsBefore = serviceControl.count("sendData" as never);
			// The sync falls due first and waits; then a player joins.
			clock.advance(SYNC_IDLE_SECONDS + 0.1);
			waitSeconds(0.1);
			join(2951, "Joiner");
			waitUntil(() => budget.getQueueLength() >= 2, "the sync and the join waiting");
			const released = releaseOne(clock, http, since);
			expect(released[0]).to.equal("playerJoin");
			expect(released.size()).to.equal(1);
			expect(serviceControl.count("sendData" as never)).to.equal(syncsBefore);
		});

		it("sends a waiting join before a leave that waited longer (leaves at normal priority)", () => {
			const { clock, budget, http } = startSlow();
			const leaving = join(2961, "Leaving");
			for (let step = 0; step < 20 && StaffOps.getSession(leaving) === undefined; step++) {
				clock.advance(5);
				waitSeconds(0.1);
			}
			expect(StaffOps.getSession(leaving)).to.be.ok();
			clock.advance(30);
			waitSeconds(0.3);
			budget.pause(PAUSE_SECONDS);
			const since = serviceControl.requests().requests.size();
			harness.players.remove(leaving);
			waitUntil(() => budget.getQueueLength() >= 1, "the leave waiting");
			join(2962, "Joiner");
			waitUntil(() => budget.getQueueLength() >= 2, "the leave and the join waiting");
			const released = releaseOne(clock, http, since);
			expect(released[0]).to.equal("playerJoin");
			expect(released.size()).to.equal(1);
			expect(serviceControl.count("playerLeave")).to.equal(0);
		});
	});
};
