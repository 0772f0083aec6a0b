import { StaffOps, STAFF_ATTRIBUTE } from "../../../src/server";
import { SETTLE_GRACE_SECONDS } from "../../../src/server/features/joins/joinLookup";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import {
	allOutput,
	alterAnswers,
	cleanUp,
	freshStart,
	join,
	joinsOf,
	linesWith,
	report,
	specClient,
	Started,
	startRegistered,
	waitForFailures,
} from "./support";
import { waitSeconds, waitUntil } from "../../support/waits";

/**
 * Moves the clock through the checks of unknown joins: absence counts only from reads a grace period after the
 * service answered again, twice (issue 24, point 9), so a join the service never got goes out again after 3 reads.
 */
function advanceThroughChecks(started: Started): void {
	for (let moved = 0; moved < 3 * SETTLE_GRACE_SECONDS; moved += 1) {
		started.clock.advance(1);
		waitSeconds(0.02);
	}
}

// "Never send again what the service already acted on" (docs/service-contract.md#a-2xx-is-final): a join is sent once. Each spec counts what
// reached the reference service.
export = () => {
	beforeEach(() => freshStart());
	afterEach(() => cleanUp());

	describe("joins are sent once", () => {
		it("does not send again a join the service acted on whose answer cannot be read", () => {
			serviceControl.fault({ operation: "playerJoin", kind: "malformed", times: 1 });
			const started = startRegistered();
			const staff = join(1002, "HeadModHana");
			report(started, staff, { platform: "Tablet", tzOffset: "+09:30" });
			waitUntil(() => joinsOf(1002).size() === 1, "the join");
			waitSeconds(0.1);
			for (let i = 0; i < 10; i++) {
				started.clock.advance(60);
				waitSeconds(0.02);
			}
			expect(serviceControl.count("playerJoin")).to.equal(1);
			expect(joinsOf(1002).size()).to.equal(1);
			// No answer to act on: not marked staff, and not kicked either.
			expect(StaffOps.isStaff(staff)).to.equal(false);
			expect(staff.GetAttribute(STAFF_ATTRIBUTE)).to.equal(undefined);
			expect(staff.Parent).to.be.ok();
			expect(linesWith(allOutput(), "its answer could not be read").size()).to.equal(1);
		});

		it("confirms a join answered after the timeout from the player list instead of sending it again", () => {
			// The answer comes 3 s after the 1 s timeout: a margin a loaded machine's timer cannot eat.
			serviceControl.fault({ operation: "playerJoin", latencyMs: 4000, times: 1 });
			const started = startRegistered({ timeout: 1 });
			const staff = join(1003, "ModMo");
			report(started, staff, { platform: "Desktop", tzOffset: "+02:00" });
			waitForFailures(started.server, "joins", 1);
			waitUntil(() => joinsOf(1003).size() === 1, "the join to land", 5);
			started.clock.advance(5);
			waitUntil(() => StaffOps.isStaff(staff), "the staff mark from the player list");
			// The service logs a request when its answer has gone out, so the late join shows up in the log late.
			waitUntil(() => serviceControl.count("playerJoin") === 1, "the late join in the request log", 10);
			waitUntil(() => serviceControl.count("getRunningGame") === 1, "the player-list read in the log");
			waitSeconds(0.2);
			expect(serviceControl.count("playerJoin")).to.equal(1);
			expect(serviceControl.count("getRunningGame")).to.equal(1);
			expect(StaffOps.getSession(staff)!.runningPlayerId).to.be.ok();
		});

		it("sends a join again only when the player list shows the service never got it", () => {
			serviceControl.fault({ operation: "playerJoin", kind: "drop", times: 1 });
			const started = startRegistered();
			const player = join(2001, "RegularRiley");
			report(started, player, { platform: "Phone", tzOffset: "-05:00" });
			waitForFailures(started.server, "joins", 1);
			expect(serviceControl.count("playerJoin")).to.equal(1);
			advanceThroughChecks(started);
			waitUntil(() => StaffOps.getSession(player) !== undefined, "the join sent again");
			expect(serviceControl.count("playerJoin")).to.equal(2);
			// The first read shows the service answers again; two more, a grace period apart, confirm the absence.
			expect(serviceControl.count("getRunningGame")).to.equal(3);
			expect(joinsOf(2001).size()).to.equal(1);
		});

		it("settles every unknown join with one read of the player list", () => {
			serviceControl.fault({ operation: "playerJoin", kind: "drop", times: 4 });
			const started = startRegistered();
			const players = [join(2004), join(2005), join(2006), join(2007)];
			for (const player of players) report(started, player, { platform: "Phone", tzOffset: "+00:00" });
			waitForFailures(started.server, "joins", 4);
			advanceThroughChecks(started);
			waitUntil(
				() => players.every((player) => StaffOps.getSession(player) !== undefined),
				"every join sent again",
			);
			expect(serviceControl.count("getRunningGame")).to.equal(3);
			expect(serviceControl.count("playerJoin")).to.equal(8);
		});

		it("never marks a player the service calls both banned and staff as staff", () => {
			// The reference service never says both; a hostile one might. Wrap a real client so it does.
			const real = alterAnswers(specClient(), {
				reportJoin: (answer) => ({ ...answer, banned: true, isStaff: true, reason: "Both" }),
			});
			const started = startRegistered({}, { client: real });
			let fired = false;
			const connection = StaffOps.staffJoined.Connect(() => (fired = true));
			const results = new Array<{ isStaff: boolean; banned: boolean }>();
			const reportedConnection = StaffOps.playerReported.Connect((_, result) => results.push(result));
			const player = join(1004);
			report(started, player, { platform: "Phone", tzOffset: "+00:00" });
			waitUntil(() => harness.players.kickMessage(player) !== undefined, "the kick");
			connection.Disconnect();
			waitSeconds(0.05);
			reportedConnection.Disconnect();
			// Every view of the answer says "not staff": the signal's result, isStaff, the attribute, staffJoined.
			expect(results.size()).to.equal(1);
			expect(results[0].banned).to.equal(true);
			expect(results[0].isStaff).to.equal(false);
			expect(fired).to.equal(false);
			expect(StaffOps.isStaff(player)).to.equal(false);
			expect(player.GetAttribute(STAFF_ATTRIBUTE)).to.equal(false);
			expect(harness.players.kickMessage(player)).to.equal("You are banned from this experience: Both");
		});
	});
};
