import { StaffOps, StaffOpsServer } from "../../../src/server";
import { RequestBudget } from "../../../src/transport/budget";
import { FakeScheduler, RecordingHttp } from "../../support/fakes";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { cleanUp, recorded, settle, waitUntil } from "./support";

// Staff first in a join storm (issue 14): with a staff hint, likely staff (by group rank, read from Roblox, not the
// service) are sent ahead of everyone queued. A tight budget on a fake clock makes the queue long.

const STAFF = [1001, 1002];
const RANKS = new Map<number, number>([
	[1001, 250],
	[1002, 200],
]);

/** Starts StaffOps on a fake clock, ranks read from RANKS, and waits for its registration. */
function startOnClock(clock: FakeScheduler, withHint: boolean, budget?: RequestBudget): StaffOpsServer {
	const server = StaffOps.start(
		{
			baseUrl: harness.serviceUrl,
			apiKey: harness.serviceKey,
			budget,
			clientReportTimeoutSeconds: 0,
			staffHint: withHint ? { groupId: 5012345, minRank: 200 } : undefined,
		},
		{
			scheduler: clock,
			random: () => 0.5,
			transport: { http: new RecordingHttp(clock), scheduler: clock },
			canChat: () => true,
			rankOf: (player) => RANKS.get(player.UserId) ?? 1,
		},
	)!;
	waitUntil(() => server.isRegistered(), "registration");
	return server;
}

/** The user ids of the joins that reached the service, in the order it answered them. */
function joinOrder(): Array<number> {
	return serviceControl
		.requests()
		.requests.filter((entry) => entry.operation === "playerJoin")
		.map((entry) => (entry.body as { playerId: number }).playerId);
}

function storm(withHint: boolean): Array<number> {
	const clock = new FakeScheduler();
	startOnClock(clock, withHint, new RequestBudget({ perMinute: 60, burst: 2 }, clock));
	// 30 players; the two staff members join last.
	for (let i = 1; i <= 28; i++) harness.players.add(2200 + i);
	for (const userId of STAFF) harness.players.add(userId);
	settle(0.05);
	for (let second = 0; second < 40; second++) {
		clock.advance(1);
		settle(0.01);
	}
	const order = joinOrder();
	StaffOps.stop();
	return order;
}

export = () => {
	beforeEach(() => {
		serviceControl.reset();
		harness.clearOutput();
	});
	afterEach(() => cleanUp());

	describe("staff first in a join storm", () => {
		it("sends likely staff ahead of the queue with a staff hint, and in join order without one", () => {
			const hinted = storm(true);
			const firstStaff = hinted.findIndex((userId) => STAFF.includes(userId));
			expect(firstStaff >= 0 && firstStaff <= 2).to.equal(true);
			for (const userId of STAFF) {
				const position = hinted.indexOf(userId);
				expect(position >= 0 && position <= 3).to.equal(true);
			}
			expect(hinted.size()).to.equal(30);

			harness.reset();
			serviceControl.reset();
			const plain = storm(false);
			// Without the hint the staff, who joined last, wait behind the queue.
			expect(plain.size()).to.equal(30);
			expect(plain.indexOf(1001) >= 28).to.equal(true);
		});

		it("makes a likely staff member the first probe when joins are failing", () => {
			const clock = new FakeScheduler();
			const server = startOnClock(clock, true);
			serviceControl.fault({ operation: "playerJoin", status: 503 });
			// Three players join and fail; then a staff member joins, last of all.
			for (let i = 1; i <= 3; i++) harness.players.add(2300 + i);
			waitUntil(() => server.getFailureCounts().joins >= 3, "the first three joins to fail");
			harness.players.add(1001);
			settle(0.1);
			for (let second = 0; second < 60 && joinOrder().size() < 6; second++) {
				clock.advance(1);
				settle(0.02);
			}
			const order = joinOrder();
			// While joins fail only one is out at a time; the first one after the failed wave is the staff member's.
			expect(order.size() >= 4).to.equal(true);
			expect(order.indexOf(1001)).to.equal(3);
			serviceControl.clearFaults();
			for (let second = 0; second < 300 && recorded().joins.size() < 4; second++) {
				clock.advance(1);
				settle(0.02);
			}
			expect(recorded().joins.size()).to.equal(4);
			StaffOps.stop();
		});
	});
};
