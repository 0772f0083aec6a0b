import { StaffOps } from "../../../src/server";
import { SYNC_FAST_SECONDS } from "../../../src/server/features/presence/sync";
import { deskControl } from "../../support/deskControl";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { cleanUp, freshStart, join, startRegistered } from "./support";

// A support call and a server the service forgot (the soak's deployed mode, seed 5, found it: one call left open
// after shutdown). The call was opened under the first registration; the service forgot that server and the library
// registered again. At the caller's leave the library reports the leave, which names the new server, and the service
// ends only that server's calls at a leave: nothing ended the call. Against the reference service's deployed profile.

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUp());
	afterAll(() => serviceControl.reset());

	describe("a support call when the service forgot the server", () => {
		it("a call opened under the forgotten server is ended once at the caller's leave", () => {
			const started = startRegistered({ clientReportTimeoutSeconds: 0 });
			waitUntil(() => started.server.getProfile() === "deployed", "the deployed profile");
			const caller = join(2701, "Caller");
			waitUntil(() => StaffOps.getSession(caller) !== undefined, "the join");
			const [placed] = StaffOps.requestCall(caller, { type: "support", reason: "I need help" }).await();
			expect(placed).to.equal(true);
			expect(serviceControl.count("supportCreate")).to.equal(1);
			const first = started.server.getRunningGameId()!;
			serviceControl.forget(started.server.getInternalGameId()!);
			// A call is open: the sync runs fast, finds the server gone, and the server registers again.
			started.clock.advance(SYNC_FAST_SECONDS);
			waitUntil(() => {
				const now = started.server.getRunningGameId();
				return now !== undefined && now !== first;
			}, "the registration under a new running game id");
			waitUntil(() => StaffOps.getSession(caller) !== undefined, "the join reported again");
			harness.players.remove(caller);
			waitUntil(() => serviceControl.count("playerLeave") >= 1, "the leave");
			waitUntil(() => serviceControl.count("supportEnd") === 1, "the call's end");
			waitSeconds(0.3);
			expect(serviceControl.count("supportEnd")).to.equal(1);
			const mine = deskControl.tickets().filter((ticket) => tostring(ticket.callerId) === "2701");
			expect(mine.size()).to.equal(1);
			expect(mine[0].status).to.equal("closed");
		});

		it("a call opened under the current server is left to the leave (no support/end of its own)", () => {
			const started = startRegistered({ clientReportTimeoutSeconds: 0 });
			waitUntil(() => started.server.getProfile() === "deployed", "the deployed profile");
			const caller = join(2711, "Caller");
			waitUntil(() => StaffOps.getSession(caller) !== undefined, "the join");
			const [placed] = StaffOps.requestCall(caller, { type: "support", reason: "I need help" }).await();
			expect(placed).to.equal(true);
			harness.players.remove(caller);
			waitUntil(() => serviceControl.count("playerLeave") >= 1, "the leave");
			waitSeconds(0.3);
			expect(serviceControl.count("supportEnd")).to.equal(0);
			const mine = deskControl.tickets().filter((ticket) => tostring(ticket.callerId) === "2711");
			expect(mine.size()).to.equal(1);
			expect(mine[0].status).to.equal("closed");
		});
	});
};
