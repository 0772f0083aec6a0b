import { StaffOps } from "../../../src/server";
import { RequestBudget, RequestPriority } from "../../../src/transport/budget";
import { FakeScheduler, RecordingHttp } from "../../support/fakes";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { cleanUp, freshStart, linesWith, warnings } from "./support";
import { waitSeconds, waitUntil } from "../../support/waits";

// A join storm longer than the budget's wait (lune/bench/README.md, "Join storm"): joins queued behind it outlive
// `maxWait` and the budget refuses them unsent. That says nothing about the service, so the join queue puts them
// back in line: no probe mode, no backoff, every join sent once and the budget never idle until the storm is done.
// A fake clock runs the storm; the requests are real and counted where they were sent.

/** A budget that counts the waits it refused. */
class CountingBudget extends RequestBudget {
	refused = 0;
	acquire(priority?: RequestPriority) {
		const waiting = super.acquire(priority);
		waiting.catch(() => {
			this.refused += 1;
		});
		return waiting;
	}
}

const PLAYERS = 30;
const FIRST_USER = 4400;

export = () => {
	beforeEach(() => freshStart());
	afterEach(() => cleanUp());

	it("sends every join of a storm once, at the budget's pace, when queued joins outlive the budget's wait", () => {
		const clock = new FakeScheduler();
		const http = new RecordingHttp(clock);
		// 60 a minute with a burst of 2: 30 joins need 28 s, and those queued past 10 s are refused by the budget.
		const budget = new CountingBudget({ perMinute: 60, burst: 2, maxWait: 10 }, clock);
		const server = StaffOps.start(
			{ baseUrl: harness.serviceUrl, apiKey: harness.serviceKey, budget, clientReportTimeoutSeconds: 0 },
			{ scheduler: clock, random: () => 0.5, transport: { http, scheduler: clock, random: () => 0.5 } },
		)!;
		waitUntil(() => server.isRegistered(), "registration");
		const start = clock.now();
		for (let i = 1; i <= PLAYERS; i++) harness.players.add(FIRST_USER + i);
		waitSeconds(0.1);
		for (let second = 0; second < 60; second++) {
			clock.advance(1);
			waitSeconds(0.012);
		}
		// The last joins may still be out: wait (with a bound) until the service answered every join sent.
		const sent = http.to("/activity/playerJoin").size();
		waitUntil(() => serviceControl.count("playerJoin") >= sent, "the joins sent to be answered", 10);
		const joins = http.to("/activity/playerJoin").map((request) => request.at - start);
		let sessions = 0;
		for (let i = 1; i <= PLAYERS; i++)
			if (serviceControl.records().sessionsByUser[tostring(FIRST_USER + i)] === 1) sessions++;
		const last = joins.reduce((latest, at) => math.max(latest, at), 0);
		print(
			`[budget storm] ${PLAYERS} joins at once, 60 a minute, maxWait 10 s: ${budget.refused} budget waits refused,` +
				` ${joins.size()} join requests, ${sessions} sessions, the last join sent after ${last} s`,
		);
		// The storm did outlive the wait: without it this spec proves nothing.
		expect(budget.refused >= 10).to.equal(true);
		expect(joins.size()).to.equal(PLAYERS);
		expect(sessions).to.equal(PLAYERS);
		// The budget's floor is 28 s; probe mode with its backoff and retry share would take minutes.
		expect(last <= 31).to.equal(true);
		expect(linesWith(warnings(), "join reports are failing").size()).to.equal(0);
		StaffOps.stop();
	});
};
