import { StaffOps } from "../../../src/server";
import { SETTLE_GRACE_SECONDS } from "../../../src/server/features/joins/joinLookup";
import { SYNC_IDLE_SECONDS } from "../../../src/server/features/presence/sync";
import { ensureRemote } from "../../../src/shared/remotes";
import { deskControl } from "../../support/deskControl";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { Started, cleanUp, freshStart, join, joinsOf, requestsFor, startDeployed, waitForFailures } from "./support";

// Issue 24, point 9: the check after an unknown outcome must not race the request it checks. Against the reference
// service's deployed profile (leaves on), its `late` fault holds a join or a leave for longer than the 1 s request
// timeout before it acts, so the player-list read that follows the timeout is answered before the held request
// lands: the order a frozen API produced on the deployed service. The library's clock is the spec's; the service's
// hold is real time, and the spec moves the clock past the grace period only once the held requests landed.

/** Longer than the 1 s timeout; the read that follows the timeout comes well inside it. */
const HOLD_MS = 4000;

function deployed(): Started {
	return startDeployed({ timeout: 1, heartbeatSeconds: 600 });
}

/** Moves the library's clock `seconds` in steps of `step`, letting answers arrive between steps. */
function advance(started: Started, seconds: number, step = 1): void {
	for (let moved = 0; moved < seconds; moved += step) {
		started.clock.advance(step);
		waitSeconds(0.02);
	}
}

/** Moves the clock a second at a time until the service has received `count` player-list reads. */
function advanceUntilRead(started: Started, count: number): void {
	for (let moved = 0; moved < 60 && serviceControl.count("getRunningGame") < count; moved += 1) {
		started.clock.advance(1);
		waitSeconds(0.05);
	}
	waitUntil(() => serviceControl.count("getRunningGame") >= count, `player-list read ${count}`, 5);
}

/** The leave requests the service received for one user. */
function leavesOf(userId: number): number {
	return requestsFor("playerLeave", userId);
}

/** When (ms since the epoch) the first player-list read reached the service. */
function firstReadAt(): number {
	const read = serviceControl.requests().requests.find((request) => request.operation === "getRunningGame");
	if (read === undefined) error("no player-list read reached the service", 2);
	return read.at;
}

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUp());
	afterAll(() => serviceControl.reset());

	describe("an unknown outcome is settled only by a read that cannot predate it (issue 24, point 9)", () => {
		it("10 joins held past the timeout, the list read before they land: one join each, one leave for each who left", () => {
			const started = deployed();
			serviceControl.fault({ operation: "playerJoin", kind: "late", latencyMs: HOLD_MS, times: 10 });
			const players = new Array<Player>();
			for (let i = 0; i < 10; i++) players.push(join(2301 + i));
			waitForFailures(started.server, "joins", 10);
			// 4 leave while their join's outcome is unknown.
			for (let i = 0; i < 4; i++) harness.players.remove(players[i]);
			advanceUntilRead(started, 1);
			waitUntil(() => players.every((player) => joinsOf(player.UserId).size() >= 1), "the held joins", 10);
			// The precondition of the race: the read reached the service before any held join acted.
			let firstJoin = math.huge;
			for (const player of players) firstJoin = math.min(firstJoin, joinsOf(player.UserId)[0].at);
			expect(firstReadAt() < firstJoin).to.equal(true);

			advance(started, 4 * SETTLE_GRACE_SECONDS);
			// The leaves go out once the joins settle; a run that sends none is counted below, not timed out here.
			for (let waited = 0; waited < 5 && serviceControl.count("playerLeave") < 4; waited += 0.1) waitSeconds(0.1);
			waitSeconds(0.3);

			const records = serviceControl.records();
			expect(serviceControl.count("playerJoin")).to.equal(10); // was 16: 6 joins sent again
			for (let i = 0; i < 10; i++) {
				const userId = tostring(players[i].UserId);
				expect(records.joinsByUser[userId]).to.equal(1);
				expect(records.sessionsByUser[userId]).to.equal(1);
				if (i < 4) {
					// Was 0 leaves: the leaver's join was dropped as "never landed", and the session stayed open.
					expect(leavesOf(players[i].UserId)).to.equal(1);
					expect(records.openSessionsByUser[userId]).to.equal(undefined);
				} else {
					expect(leavesOf(players[i].UserId)).to.equal(0);
					expect(records.openSessionsByUser[userId]).to.equal(1);
					expect(StaffOps.getSession(players[i])).to.be.ok();
				}
			}
			expect(serviceControl.count("playerLeave")).to.equal(4);
		});

		it("leaves held past the timeout through an outage: one leave per session, though reads before they land still list the players", () => {
			const started = deployed();
			const players = new Array<Player>();
			for (let i = 0; i < 4; i++) players.push(join(2321 + i));
			waitUntil(() => players.every((player) => StaffOps.getSession(player) !== undefined), "the joins");
			// Every leave is held for the whole test, the retries of an outage included.
			serviceControl.fault({ operation: "playerLeave", kind: "late", latencyMs: HOLD_MS });
			for (const player of players) harness.players.remove(player);
			advanceUntilRead(started, 1);
			// The precondition of the race: the read is answered while every leave is still held.
			const atRead = serviceControl.records();
			for (const player of players) expect(atRead.openSessionsByUser[tostring(player.UserId)]).to.equal(1);
			waitUntil(
				() =>
					players.every(
						(player) => serviceControl.records().openSessionsByUser[tostring(player.UserId)] === undefined,
					),
				"the held leaves to land",
				10,
			);
			advance(started, 4 * SETTLE_GRACE_SECONDS);
			// Anything sent again would be held too: wait it out before counting.
			waitSeconds(HOLD_MS / 1000 + 0.5);

			for (const player of players) expect(leavesOf(player.UserId)).to.equal(1); // was 2 and more
			expect(serviceControl.count("playerLeave")).to.equal(4);
			expect(started.server.diagnostics().sessions.leaves).to.equal(0);
		});

		it("a staff member whose join answer was lost keeps the listed session id: every activity event is stored", () => {
			const started = deployed();
			serviceControl.fault({ operation: "playerJoin", kind: "late", latencyMs: HOLD_MS, times: 1 });
			const staff = join(1002);
			waitForFailures(started.server, "joins", 1);
			waitUntil(() => joinsOf(1002).size() === 1, "the held join", 10);
			// The list shows the join landed: it is adopted from the list, not sent again.
			advanceUntilRead(started, 1);
			waitUntil(() => StaffOps.getSession(staff) !== undefined, "the join adopted from the list");
			const session = serviceControl.records().sessions.find((entry) => entry.userId === "1002");
			expect(session).to.be.ok();
			// Was undefined: only isStaff was kept, so the staff member's client was never asked to report.
			expect(StaffOps.getSession(staff)!.sessionId).to.equal(session!._id);
			const client = harness.players.client(staff);
			expect(client.received(ensureRemote("Activity")).size()).to.equal(1);

			for (const state of ["idle", "typing", "active"]) {
				client.fire(ensureRemote("Activity"), state);
				started.clock.advance(2);
				waitSeconds(0.03);
			}
			const synced = () => started.server.diagnostics().presence.sync.sent;
			const before = synced();
			started.clock.advance(SYNC_IDLE_SECONDS);
			waitUntil(() => synced() > before, "the sync's answer");
			const stored = deskControl.sessionEvents(session!._id) as unknown as Array<{ type: string; user: string }>;
			// Was 0 of 3.
			expect(stored.map((event) => event.type).join(",")).to.equal("idle,typing,active");
			expect(stored.every((event) => event.user === "1002")).to.equal(true);
			expect(serviceControl.count("playerJoin")).to.equal(1);
		});

		it("sends a join the service never got again once, after two reads a grace period apart found the player absent", () => {
			const started = deployed();
			serviceControl.fault({ operation: "playerJoin", kind: "drop", times: 2 });
			const stays = join(2331);
			const leaves = join(2332);
			waitForFailures(started.server, "joins", 2);
			harness.players.remove(leaves);
			advanceUntilRead(started, 1);
			// The first read only shows the service answers again; no absence counts before a grace period after it.
			advance(started, SETTLE_GRACE_SECONDS - 1);
			expect(serviceControl.count("playerJoin")).to.equal(2);
			// Each read's answer schedules the next read: step the clock until each has landed (a fixed span of short
			// steps could end before the last read on a busy machine).
			advanceUntilRead(started, 2);
			advanceUntilRead(started, 3);
			waitUntil(() => StaffOps.getSession(stays) !== undefined, "the join sent again");
			waitSeconds(0.2);
			expect(serviceControl.count("getRunningGame")).to.equal(3);
			expect(serviceControl.count("playerJoin")).to.equal(3);
			expect(joinsOf(2331).size()).to.equal(1);
			// The leaver's join never landed: nothing to send for them, no join and no leave.
			expect(joinsOf(2332).size()).to.equal(0);
			expect(leavesOf(2332)).to.equal(0);
		});
	});
};
