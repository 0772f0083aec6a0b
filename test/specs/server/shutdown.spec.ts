import { StaffOps } from "../../../src/server";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import {
	cleanUp,
	freshStart,
	join,
	joinsOf,
	linesWith,
	report,
	startStaffOps,
	waitForFailures,
	warnings,
} from "./support";
import { waitSeconds, waitUntil } from "../../support/waits";

// Shutdown: BindToClose sends what is still queued within the deadline, then stops.
export = () => {
	beforeEach(() => freshStart());
	afterEach(() => cleanUp());

	describe("shutdown (BindToClose)", () => {
		it("registers and sends the queued joins, including players still awaiting their client report", () => {
			// The first registration fails and its retry is far off on the spec's clock: the queue is intact at close.
			serviceControl.fault({ operation: "createServer", status: 503, times: 1 });
			const started = startStaffOps({ shutdownDeadlineSeconds: 5 });
			const reported = join(2001);
			const staff = join(1002);
			join(2002);
			report(started, reported, { platform: "Phone", tzOffset: "+02:00" });
			report(started, staff, { platform: "Desktop", tzOffset: "+02:00" });
			waitForFailures(started.server, "register", 1);
			expect(serviceControl.count("playerJoin")).to.equal(0);

			// Roblox removes the players still present while BindToClose runs (the harness's default order).
			const [seconds, finished] = harness.server.close("callbacks-first");
			expect(finished).to.equal(true);
			expect(seconds < 5).to.equal(true);
			expect(serviceControl.count("createServer")).to.equal(2);
			expect(joinsOf(2001).size()).to.equal(1);
			expect(joinsOf(2001)[0].platform).to.equal("Phone");
			expect(joinsOf(1002).size()).to.equal(1);
			expect(joinsOf(2002).size()).to.equal(1);
			expect(joinsOf(2002)[0].platform).to.equal("unknown");
			expect(started.server.isStopped()).to.equal(true);
			expect(game.GetService("Players").GetPlayers().size()).to.equal(0);
		});

		it("drops the joins of players who left before BindToClose ran (the other order), and returns at once", () => {
			serviceControl.fault({ operation: "createServer", status: 503, times: 1 });
			const started = startStaffOps({ shutdownDeadlineSeconds: 5 });
			join(2001);
			join(2002);
			waitForFailures(started.server, "register", 1);
			// Roblox does not document the order: here every PlayerRemoving runs before the callbacks. A player who
			// left before their join went out is not reported, as at any other time.
			const [seconds, finished] = harness.server.close("players-first");
			expect(finished).to.equal(true);
			expect(seconds < 5).to.equal(true);
			waitSeconds(0.1);
			expect(serviceControl.count("playerJoin")).to.equal(0);
			expect(started.server.isStopped()).to.equal(true);
		});

		it("still sends a queued join when the player leaves during shutdown", () => {
			serviceControl.fault({ operation: "createServer", status: 503, times: 1 });
			serviceControl.fault({ operation: "createServer", latencyMs: 300, times: 1 });
			const started = startStaffOps({ shutdownDeadlineSeconds: 5 });
			const player = join(2003);
			report(started, player, { platform: "Phone", tzOffset: "+00:00" });
			waitForFailures(started.server, "register", 1);
			task.spawn(() => {
				task.wait(0.1);
				harness.players.remove(player);
			});
			const [, finished] = harness.server.close();
			expect(finished).to.equal(true);
			expect(joinsOf(2003).size()).to.equal(1);
		});

		it("registers again when a join at close answers 404, and still reports the players who left meanwhile", () => {
			// The soak found it: the service forgot the server just before the close; the last joins answer 404
			// while Roblox removes everyone, and the joins of players already gone were dropped with the old server.
			const started = startStaffOps({ shutdownDeadlineSeconds: 5 });
			waitUntil(() => started.server.isRegistered(), "registration");
			serviceControl.forget(started.server.getInternalGameId()!);
			serviceControl.fault({ operation: "playerJoin", latencyMs: 200, times: 2 });
			const first = join(2004);
			const second = join(2005);
			report(started, first, { platform: "Phone", tzOffset: "+00:00" });
			report(started, second, { platform: "Desktop", tzOffset: "+00:00" });
			task.spawn(() => {
				task.wait(0.05);
				harness.players.remove(first);
				harness.players.remove(second);
			});
			const [, finished] = harness.server.close();
			expect(finished).to.equal(true);
			expect(serviceControl.count("createServer")).to.equal(2);
			// Each 404'd join reached the service once more, under the new registration; the service acted once.
			const reached = joinsOf(2004).size() + joinsOf(2005).size();
			expect(reached).to.equal(2);
			expect(joinsOf(2004)[0].runningGameId).to.equal(started.server.getRunningGameId());
		});

		it("returns within the deadline when the service is down, and sends nothing after", () => {
			serviceControl.fault({ operation: "*", status: 503 });
			const started = startStaffOps({ shutdownDeadlineSeconds: 1 });
			const player = join(2001);
			report(started, player, { platform: "Phone", tzOffset: "+00:00" });
			waitForFailures(started.server, "register", 1);

			const [seconds, finished] = harness.server.close();
			expect(finished).to.equal(true);
			expect(seconds >= 0.95 && seconds < 2).to.equal(true);
			// Registration was retried about once a second during the deadline, not hammered.
			const attempts = serviceControl.count("createServer");
			expect(attempts >= 2 && attempts <= 3).to.equal(true);
			expect(linesWith(warnings(), "1 join report(s) unsent").size()).to.equal(1);
			expect(started.server.isStopped()).to.equal(true);

			serviceControl.clearFaults();
			started.clock.advance(600);
			waitSeconds(0.15);
			expect(serviceControl.count("createServer")).to.equal(attempts);
			expect(serviceControl.count("playerJoin")).to.equal(0);
		});

		it("returns at once when nothing is queued", () => {
			const started = startStaffOps();
			waitUntil(() => started.server.isRegistered(), "registration");
			const player = join(2001);
			report(started, player, { platform: "Phone", tzOffset: "+00:00" });
			waitUntil(() => StaffOps.getSession(player) !== undefined, "the join");
			const [seconds, finished] = harness.server.close();
			expect(finished).to.equal(true);
			expect(seconds < 0.5).to.equal(true);
			expect(joinsOf(2001).size()).to.equal(1);
		});

		it("does nothing after StaffOps.stop()", () => {
			const started = startStaffOps();
			waitUntil(() => started.server.isRegistered(), "registration");
			StaffOps.stop();
			join(2001);
			const [seconds] = harness.server.close();
			expect(seconds < 0.5).to.equal(true);
			waitSeconds(0.05);
			expect(serviceControl.count("playerJoin")).to.equal(0);
		});
	});
};
