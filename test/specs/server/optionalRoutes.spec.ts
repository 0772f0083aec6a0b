import { StaffOps } from "../../../src/server";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import {
	cleanUp,
	freshStart,
	join,
	heartbeatsLanded,
	leavesOnMissingRoute,
	linesWith,
	report,
	startRegistered,
	warnings,
} from "./support";

// Optional routes that answer 405 or 404 (issue 26, point 6): a 405 is a missing route, not a refusal, so the
// route is confirmed missing over a minute and then probed once a minute instead of being sent on every occasion;
// a 404 on a leave is told apart by one read (a forgotten server ends its sessions itself: nothing to resend).

const KEEP_ALIVE = { method: "POST", path: "/activity/getServer" } as const;
const SESSIONS = { reportLeaves: true, endServer: true };

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUp());
	afterAll(() => serviceControl.reset());

	describe("optional routes answering 405 or 404", () => {
		it("a 405 on the keep-alive route: confirmed missing over a minute, one warning, then one probe a minute", () => {
			serviceControl.fault({ operation: "getServer", status: 405 });
			const started = startRegistered({ heartbeatSeconds: 5, keepAlive: KEEP_ALIVE, sync: false });
			// Each beat lands before the next (a fixed 0.15 s lost a beat on a busy machine: 13 probes, not 14).
			heartbeatsLanded(started, 30, 5);
			// Every beat until confirmed (t = 5 ... 65 s), then t = 125 s; each of those beats also read the game.
			expect(linesWith(warnings(), "keep-alive route POST /activity/getServer is not there").size()).to.equal(1);
			expect(serviceControl.count("getServer")).to.equal(14);
			expect(serviceControl.count("getRunningGame") >= 29).to.equal(true);
		});

		it("a 405 on the leave route: leaves wait (none dropped), one out at a time, one warning, then one probe a minute", () => {
			serviceControl.fault({ operation: "playerLeave", status: 405 });
			const started = startRegistered({ sessions: SESSIONS, sync: false, heartbeatSeconds: 600 });
			// Each leave's answer schedules the next try, so each try lands before the clock moves again.
			leavesOnMissingRoute(started, [2801, 2802], "playerLeave");
			expect(linesWith(warnings(), "no playerLeave route").size()).to.equal(1);
			expect(linesWith(warnings(), "leave report was refused").size()).to.equal(0);
			expect(serviceControl.count("playerLeave")).to.equal(8);
			expect(started.server.diagnostics().sessions.leaves).to.equal(2);
		});

		it("a 404 on a leave after the service forgot the server: one read tells, and the leave is not sent again", () => {
			const started = startRegistered({ sessions: SESSIONS, sync: false, heartbeatSeconds: 600 });
			const player = join(2811);
			report(started, player, { platform: "Desktop", tzOffset: "+01:00" });
			waitUntil(() => StaffOps.getSession(player) !== undefined, "the join");
			serviceControl.forget(started.server.getInternalGameId()!);
			harness.players.remove(player);
			waitUntil(() => serviceControl.count("playerLeave") === 1, "the leave");
			// The read that tells must land before the checks that nothing more was sent.
			waitUntil(() => serviceControl.count("getRunningGame") === 1, "the read");
			for (let step = 0; step < 30; step++) {
				started.clock.advance(1);
				waitSeconds(0.05);
			}
			expect(serviceControl.count("getRunningGame")).to.equal(1);
			expect(serviceControl.count("playerLeave")).to.equal(1);
			expect(started.server.diagnostics().sessions.leaves).to.equal(0);
			expect(linesWith(warnings(), "no playerLeave route").size()).to.equal(0);
		});
	});
};
