import { HttpService } from "@rbxts/services";
import { RECOVERY_QUIET } from "../../../src/background/log";
import { StaffOps, StaffOpsServer } from "../../../src/server";
import { RequestBudget } from "../../../src/transport/budget";
import { FakeScheduler, RecordingHttp } from "../../support/fakes";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { allOutput, cleanUp, freshStart, joinsOf, linesWith, recorded, startRegistered, warnings } from "./support";
import { waitSeconds, waitUntil } from "../../support/waits";

// Staff first in a join storm (issue 14): with a staff hint, likely staff (by group rank, read from Roblox's
// GroupService:GetRolesInGroupAsync, not the service) are sent ahead of everyone queued. A tight budget on a fake clock
// makes the queue long. Roles come from the harness's GetRolesInGroupAsync, so the library's default reader runs.

const STAFF = [1001, 1002];
const RANKS = new Map<number, number>([
	[1001, 250],
	[1002, 200],
]);

const GROUP = 5012345;

/** Gives the staff their ranks in the group (everyone else is not a member: 0). */
function rankStaff(): void {
	for (const [userId, rank] of RANKS) harness.players.setRank(userId, GROUP, rank);
}

/** Starts StaffOps on a fake clock and waits for its registration. */
function startOnClock(
	clock: FakeScheduler,
	withHint: boolean,
	budget?: RequestBudget,
): { server: StaffOpsServer; http: RecordingHttp } {
	const http = new RecordingHttp(clock);
	const server = StaffOps.start(
		{
			baseUrl: harness.serviceUrl,
			apiKey: harness.serviceKey,
			budget,
			clientReportTimeoutSeconds: 0,
			staffHint: withHint ? { groupId: GROUP, minRank: 200 } : undefined,
		},
		{
			scheduler: clock,
			random: () => 0.5,
			transport: { http, scheduler: clock },
			canChat: () => true,
		},
	)!;
	waitUntil(() => server.isRegistered(), "registration");
	return { server, http };
}

/** The user ids of the joins in the order they were sent. */
function joinOrder(http: RecordingHttp): Array<number> {
	return http
		.to("/activity/playerJoin")
		.map((request) => (HttpService.JSONDecode(request.body!) as { playerId: number }).playerId);
}

function storm(withHint: boolean): Array<number> {
	rankStaff();
	const clock = new FakeScheduler();
	const { http } = startOnClock(clock, withHint, new RequestBudget({ perMinute: 60, burst: 2 }, clock));
	// 30 players; the two staff members join last.
	for (let i = 1; i <= 28; i++) harness.players.add(2200 + i);
	for (const userId of STAFF) harness.players.add(userId);
	waitSeconds(0.05);
	for (let second = 0; second < 40; second++) {
		clock.advance(1);
		waitSeconds(0.01);
	}
	const order = joinOrder(http);
	StaffOps.stop();
	return order;
}

/**
 * Joins fail (503); three players join and fail, then staff member 1001 joins (their rank read failing when
 * `staffRankFails`; holding `staffRoles` when given, and `notPublic` roles beside them). Returns the order in which joins went out while failing and, once the outage is over, how many
 * joins the service recorded.
 */
function probeOrder(
	staffRankFails: boolean,
	staffRoles?: Array<number>,
	notPublic?: Array<number>,
): { order: Array<number>; landed: number } {
	rankStaff();
	if (staffRoles !== undefined) harness.players.setRoles(1001, GROUP, staffRoles, notPublic);
	const clock = new FakeScheduler();
	const { server, http } = startOnClock(clock, true);
	serviceControl.fault({ operation: "playerJoin", status: 503 });
	for (let i = 1; i <= 3; i++) harness.players.add(2300 + i);
	waitUntil(() => server.diagnostics().joins.failures.joins >= 3, "the first three joins to fail");
	if (staffRankFails) harness.players.failNextRankReads(1);
	harness.players.add(1001);
	waitSeconds(0.1);
	for (let second = 0; second < 60 && joinOrder(http).size() < 6; second++) {
		clock.advance(1);
		waitSeconds(0.02);
	}
	const order = joinOrder(http);
	serviceControl.clearFaults();
	for (let second = 0; second < 300 && recorded().joins.size() < 4; second++) {
		clock.advance(1);
		waitSeconds(0.02);
	}
	const landed = recorded().joins.size();
	StaffOps.stop();
	return { order, landed };
}

export = () => {
	beforeEach(() => freshStart());
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
			const { order, landed } = probeOrder(false);
			expect(landed).to.equal(4);
			// While joins fail only one is out at a time; the first one after the failed wave is the staff member's.
			expect(order.indexOf(1001)).to.equal(3);
		});
	});

	describe("the staff hint's rank reads", () => {
		const HINT = { staffHint: { groupId: GROUP, minRank: 200 }, clientReportTimeoutSeconds: 0 };

		it("reads each player's roles once per stay with GetRolesInGroupAsync, and again for a player who rejoins", () => {
			rankStaff();
			startRegistered(HINT);
			const staff = harness.players.add(1001);
			harness.players.add(2401);
			waitUntil(() => joinsOf(1001).size() === 1 && joinsOf(2401).size() === 1, "both joins");
			expect(harness.players.rankCalls()).to.equal(2);
			harness.players.remove(staff);
			waitSeconds(0.05);
			// Demoted while away: the rejoin is read again, not taken from what the first stay read.
			harness.players.setRank(1001, GROUP, 10);
			harness.players.add(1001);
			waitUntil(() => joinsOf(1001).size() === 2, "the join of the player who came back");
			expect(harness.players.rankCalls()).to.equal(3);
			expect(warnings().size()).to.equal(0);
		});

		it("reads the highest rank among a member's roles", () => {
			// A member with low roles beside a staff role is staff: the highest rank counts, so 1001 is the first probe.
			const { order } = probeOrder(false, [5, 230, 1]);
			expect(order.indexOf(1001)).to.equal(3);
		});

		it("takes the highest rank when GetRolesInGroupAsync lists it last (Roblox promises no order)", () => {
			harness.players.setRoleOrder("as-set");
			const { order } = probeOrder(false, [5, 1, 230]);
			expect(order.indexOf(1001)).to.equal(3);
			expect(linesWith(warnings(), "group rank").size()).to.equal(0);
		});

		it("reads only public roles: a staff member whose staff role is not public joins in join order", () => {
			// GetRolesInGroupAsync lists public roles only: the staff role (250) is not among them, so this member's
			// rank reads 5 and their join waits its turn; the service still answers that they are staff.
			const { order, landed } = probeOrder(false, [5], [250]);
			expect(landed).to.equal(4);
			expect(order[3]).to.equal(2301);
			expect(order.includes(1001)).to.equal(false);
			expect(linesWith(warnings(), "group rank").size()).to.equal(0);
		});

		it("reads Player:GetRankInGroupAsync on an engine without GetRolesInGroupAsync", () => {
			harness.players.setRolesApi(false);
			const { order } = probeOrder(false);
			expect(order.indexOf(1001)).to.equal(3);
			expect(linesWith(warnings(), "group rank").size()).to.equal(0);
		});

		it("sends the join of a player whose rank cannot be read as an ordinary one, with one warning", () => {
			const { order, landed } = probeOrder(true);
			expect(landed).to.equal(4);
			// The staff member's rank read failed: every probe of the outage is the first player's; the staff member
			// waits in join order.
			expect(order[3]).to.equal(2301);
			expect(order.includes(1001)).to.equal(false);
			expect(linesWith(warnings(), "could not read a group rank").size()).to.equal(1);
		});

		it("does not hold a join more than 3 s for a slow rank read, and warns once", () => {
			rankStaff();
			harness.players.setRankDelay(2);
			const started = startRegistered(HINT);
			harness.players.add(1001);
			waitSeconds(0.05);
			started.clock.advance(2.9);
			waitSeconds(0.1);
			expect(serviceControl.count("playerJoin")).to.equal(0);
			started.clock.advance(0.2);
			waitUntil(() => joinsOf(1001).size() === 1, "the join, without its rank");
			expect(linesWith(warnings(), "reading a group rank took over 3 s").size()).to.equal(1);
			// The rank arrives later and sends nothing more. Its recovery line waits until no read has failed for the
			// quiet period on the clock (one outage, one warning and one recovery line).
			waitSeconds(2.2);
			expect(linesWith(allOutput(), "group ranks are read again").size()).to.equal(0);
			started.clock.advance(RECOVERY_QUIET);
			waitUntil(() => linesWith(allOutput(), "group ranks are read again").size() === 1, "the slow rank");
			waitSeconds(0.1);
			expect(serviceControl.count("playerJoin")).to.equal(1);
		});
	});
};
