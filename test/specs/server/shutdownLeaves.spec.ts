import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { cleanUp, freshStart, join, joinAnswered, joinsOf, startRegistered } from "./support";

// Shutdown behaviours that planted bugs once passed (issue 26, point 6 and point 8: these specs make players leave
// while BindToClose runs, as Roblox does). With the server's end on, whether each present player also gets a leave
// depends on the profile: the deployed service's endServer deletes the sessions of non-staff players still in game,
// so each ends with its own leave first (docs/service-contract.md); on the interface, ending the server ends them.

const SESSIONS = { reportLeaves: true, endServer: true };

export = () => {
	afterEach(() => cleanUp());
	afterAll(() => serviceControl.reset());

	describe("shutdown with leaves and the server's end", () => {
		it("deployed: waits for each present player's leave before ending the server (sessions ended, not deleted)", () => {
			freshStart("deployed");
			const started = startRegistered({ sessions: SESSIONS, sync: false, heartbeatSeconds: 600 });
			joinAnswered(started, [2701, 2702, 2703]);
			// Each leave takes a while to act on: the end must not overtake them.
			serviceControl.fault({ operation: "playerLeave", latencyMs: 300 });
			const [seconds, finished] = harness.server.close();
			expect(finished).to.equal(true);
			expect(seconds >= 0.3).to.equal(true);
			expect(serviceControl.count("playerLeave")).to.equal(3);
			expect(serviceControl.count("endServer")).to.equal(1);
			const operations = serviceControl.requests().requests.map((request) => request.operation);
			expect(operations[operations.size() - 1]).to.equal("endServer");
			const sessions = serviceControl.records().sessions;
			expect(sessions.size()).to.equal(3);
			for (const session of sessions) {
				expect(session.deleted).to.equal(false);
				expect(session.inGame).to.equal(false);
			}
		});

		it("interface: sends no leave for the players present at shutdown, only the server's end", () => {
			// The deployed reference service has both routes; the library is told the interface profile.
			freshStart("deployed");
			const started = startRegistered({
				sessions: SESSIONS,
				serviceProfile: "interface",
				sync: false,
				heartbeatSeconds: 600,
			});
			joinAnswered(started, [2711, 2712]);
			// A join still out keeps BindToClose running while Roblox removes everyone.
			serviceControl.fault({ operation: "playerJoin", latencyMs: 300, times: 1 });
			join(2713);
			const [, finished] = harness.server.close();
			expect(finished).to.equal(true);
			expect(joinsOf(2713).size()).to.equal(1);
			expect(game.GetService("Players").GetPlayers().size()).to.equal(0);
			expect(serviceControl.count("playerLeave")).to.equal(0);
			expect(serviceControl.count("endServer")).to.equal(1);
		});

		it("interface, leaves on and the server's end off: every player present gets a leave, though nothing was queued", () => {
			// The deployed reference service has the leave route; the library is told the interface profile.
			freshStart("deployed");
			const started = startRegistered({
				sessions: { reportLeaves: true, endServer: false },
				serviceProfile: "interface",
				sync: false,
				heartbeatSeconds: 600,
			});
			joinAnswered(started, [2731, 2732]);
			// Nothing is queued at the close: BindToClose must not return before the leaves of the players still
			// present are out (Roblox may remove them only after the callbacks: docs/roblox.md).
			const [, finished] = harness.server.close("callbacks-first");
			expect(finished).to.equal(true);
			const leaves = serviceControl.requests().requests.filter((request) => request.operation === "playerLeave");
			expect(leaves.size()).to.equal(2);
			expect(leaves.every((request) => request.status === 200)).to.equal(true);
			expect(serviceControl.count("endServer")).to.equal(0);
		});

		it("retries, within the deadline, a join that fails transiently while the players leave", () => {
			freshStart();
			const started = startRegistered({ shutdownDeadlineSeconds: 5 });
			// No client report: the join is still gathering when the server closes, and goes out then.
			join(2721);
			serviceControl.fault({ operation: "playerJoin", status: 503, times: 1 });
			// The join queue's backoff runs on the spec's clock: move it as real time passes during the close.
			task.spawn(() => {
				for (let step = 0; step < 100 && !started.server.isStopped(); step++) {
					started.clock.advance(0.5);
					task.wait(0.05);
				}
			});
			const [seconds, finished] = harness.server.close();
			expect(finished).to.equal(true);
			expect(seconds < 5).to.equal(true);
			expect(serviceControl.count("playerJoin")).to.equal(2);
			expect(joinsOf(2721).size()).to.equal(1);
			expect(started.server.isStopped()).to.equal(true);
		});
	});
};
