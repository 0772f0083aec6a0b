import { StaffOps, STAFF_ATTRIBUTE } from "../../../src/server";
import { resetClientPartsForTests } from "../../../src/client/clientPart";
import { sendClientReport } from "../../../src/client/report";
import { sharedBudget } from "../../../src/transport/budget";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import {
	allOutput,
	cleanUp,
	freshStart,
	join,
	joinsOf,
	linesWith,
	recorded,
	report,
	startRegistered,
	startStaffOps,
	waitForFailures,
} from "./support";
import { waitSeconds, waitUntil } from "../../support/waits";

// A server's life against the reference service: boot and joins. Every spec asserts what the service recorded.
export = () => {
	beforeEach(() => freshStart());
	afterEach(() => cleanUp());

	describe("StaffOps.start: boot", () => {
		it("registers the server once with the DataModel's facts (docs/service-contract.md) and says so", () => {
			harness.server.setInfo({
				JobId: "job-boot-1",
				PlaceId: 777,
				GameId: 888,
				PlaceVersion: 12,
				PrivateServerId: "vip-1",
				PrivateServerOwnerId: 2001,
			});
			const { server } = startRegistered();
			const games = recorded().runningGames;
			expect(games.size()).to.equal(1);
			const registered = games[0];
			expect(registered.internalGameId).to.equal(server.getInternalGameId());
			expect(registered._id).to.equal(server.getRunningGameId());
			expect(registered.jobId).to.equal("job-boot-1");
			expect(registered.placeId).to.equal(777);
			expect(registered.gameId).to.equal(888);
			expect(registered.placeVersion).to.equal("12");
			expect(registered.privateServerId).to.equal("vip-1");
			expect(registered.privateServerOwnerId).to.equal(2001);
			expect(serviceControl.count("createServer")).to.equal(1);
			expect(linesWith(allOutput(), "[StaffOps] registered this server").size()).to.equal(1);
		});

		it("draws from the library-wide request budget unless given its own", () => {
			const server = StaffOps.start({ baseUrl: harness.serviceUrl, apiKey: harness.serviceKey });
			expect(server).to.be.ok();
			expect(StaffOps.getClient()!.getBudget()).to.equal(sharedBudget());
			waitUntil(() => server!.isRegistered(), "registration");
		});

		it("warns and keeps the running integration on a second start", () => {
			const { server } = startRegistered();
			const again = StaffOps.start({ baseUrl: harness.serviceUrl, apiKey: harness.serviceKey });
			expect(again).to.equal(server);
			expect(linesWith(allOutput(), "StaffOps.start was called again").size()).to.equal(1);
			waitSeconds(0.05);
			expect(serviceControl.count("createServer")).to.equal(1);
		});
	});

	describe("joins", () => {
		it("reports a regular player with the client's platform and offset and safechat read on the server", () => {
			harness.text.setCanChat(2001, false);
			const started = startRegistered();
			const player = join(2001, "RegularRiley");
			report(started, player, { platform: "Phone", tzOffset: "-05:00" });
			waitUntil(() => StaffOps.getSession(player) !== undefined, "the join answer");

			const joins = joinsOf(2001);
			expect(joins.size()).to.equal(1);
			expect(joins[0].platform).to.equal("Phone");
			expect(joins[0].tzOffset).to.equal("-05:00");
			expect(joins[0].safechat).to.equal(true);
			expect(joins[0].username).to.equal("RegularRiley");
			expect(joins[0].runningGameId).to.equal(started.server.getRunningGameId());
			expect(joins[0].banned).to.equal(false);

			const session = StaffOps.getSession(player)!;
			const running = recorded().runningPlayers.find((entry) => entry.userId === "2001");
			expect(running).to.be.ok();
			expect(running!._id).to.equal(session.runningPlayerId);
			expect(running!.platform).to.equal("Phone");
			expect(session.sessionId!.size() > 0).to.equal(true);
			expect(StaffOps.isStaff(player)).to.equal(false);
			expect(player.GetAttribute(STAFF_ATTRIBUTE)).to.equal(false);
		});

		it("reports safechat = false for a player allowed to chat", () => {
			const started = startRegistered();
			const player = join(2002);
			report(started, player, { platform: "Desktop", tzOffset: "+01:00" });
			waitUntil(() => joinsOf(2002).size() === 1, "the join");
			expect(joinsOf(2002)[0].safechat).to.equal(false);
			expect(joinsOf(2002)[0].platform).to.equal("Desktop");
		});

		it("reports safechat = true when chat permissions cannot be read, or hang", () => {
			const started = startRegistered(
				{ clientReportTimeoutSeconds: 5 },
				{
					canChat: (player) => {
						if (player.UserId === 2012) error("TextChatService is down");
						coroutine.yield(); // never resumed: a web call that hangs
						return true;
					},
				},
			);
			const failing = join(2012);
			const hanging = join(2013);
			report(started, failing, { platform: "Phone", tzOffset: "+00:00" });
			report(started, hanging, { platform: "Phone", tzOffset: "+00:00" });
			waitUntil(() => joinsOf(2012).size() === 1, "the join whose chat read failed");
			expect(joinsOf(2012)[0].safechat).to.equal(true);
			waitSeconds(0.05);
			started.clock.advance(14);
			waitSeconds(0.05);
			expect(joinsOf(2013).size()).to.equal(0);
			started.clock.advance(1);
			waitUntil(() => joinsOf(2013).size() === 1, "the join whose chat read hung");
			expect(joinsOf(2013)[0].safechat).to.equal(true);
			expect(linesWith(allOutput(), "could not read chat permissions").size()).to.equal(1);
		});

		it("marks staff: attribute, StaffOps.isStaff, staffJoined once, the service's running player", () => {
			const started = startRegistered();
			const seen = new Array<Player>();
			const connection = StaffOps.staffJoined.Connect((player) => seen.push(player));
			const staff = join(1002, "HeadModHana");
			report(started, staff, { platform: "Tablet", tzOffset: "+09:30" });
			waitUntil(() => StaffOps.isStaff(staff), "the staff mark");
			connection.Disconnect();

			expect(staff.GetAttribute(STAFF_ATTRIBUTE)).to.equal(true);
			expect(seen.size()).to.equal(1);
			expect(seen[0]).to.equal(staff);
			const running = recorded().runningPlayers.find((entry) => entry.userId === "1002");
			expect(running!.isStaff).to.equal(true);
			expect(StaffOps.getSession(staff)!.runningPlayerId).to.equal(running!._id);
			expect(StaffOps.getSession(staff)!.isStaff).to.equal(true);
		});

		it("kicks a banned player with the service's reason and fires playerBanned", () => {
			const started = startRegistered();
			let bannedReason: string | undefined;
			const connection = StaffOps.playerBanned.Connect((_, reason) => (bannedReason = reason));
			const banned = join(666, "Exploiter");
			report(started, banned, { platform: "Desktop", tzOffset: "+00:00" });
			waitUntil(() => harness.players.kickMessage(banned) !== undefined, "the kick");
			connection.Disconnect();

			expect(harness.players.kickMessage(banned)).to.equal("You are banned from this experience: Exploiting");
			expect(bannedReason).to.equal("Exploiting");
			const joins = joinsOf(666);
			expect(joins.size()).to.equal(1);
			expect(joins[0].banned).to.equal(true);
			expect(recorded().runningPlayers.find((entry) => entry.userId === "666")).never.to.be.ok();
			expect(StaffOps.isStaff(banned)).to.equal(false);
		});

		it("uses a configured kick message, or does not kick when kickBanned is false", () => {
			const started = startRegistered({ kickMessage: "Banned ({reason}). Appeal at example.com" });
			const banned = join(667);
			report(started, banned, { platform: "Desktop", tzOffset: "+00:00" });
			waitUntil(() => harness.players.kickMessage(banned) !== undefined, "the kick");
			expect(harness.players.kickMessage(banned)).to.equal(
				"Banned (Alternate account of a banned user). Appeal at example.com",
			);

			StaffOps.stop();
			harness.reset();
			const second = startRegistered({ kickBanned: false });
			let fired = false;
			const connection = StaffOps.playerBanned.Connect(() => (fired = true));
			const stays = join(666);
			report(second, stays, { platform: "Desktop", tzOffset: "+00:00" });
			waitUntil(() => fired, "playerBanned");
			connection.Disconnect();
			waitSeconds(0.05);
			expect(harness.players.kickMessage(stays)).to.equal(undefined);
			expect(stays.Parent).to.be.ok();
		});

		it("reports players who were in the server before start, once each, those whose client stays silent too", () => {
			const early = join(2003, "EarlyEve");
			const earlyStaff = join(1003, "ModMo");
			const silent = join(2013, "SilentSam");
			const started = startRegistered({ clientReportTimeoutSeconds: 10 });
			// Tracked at start, before any client report arrives.
			expect(started.server.diagnostics().joins.players).to.equal(3);
			report(started, early, { platform: "Console", tzOffset: "-08:00" });
			report(started, earlyStaff, { platform: "Desktop", tzOffset: "+02:00" });
			waitUntil(() => StaffOps.isStaff(earlyStaff) && StaffOps.getSession(early) !== undefined, "both answers");
			// The silent client never reports: the player is reported when the report wait ends.
			started.clock.advance(10);
			waitUntil(() => StaffOps.getSession(silent) !== undefined, "the silent player's join");
			waitSeconds(0.05);
			expect(joinsOf(2003).size()).to.equal(1);
			expect(joinsOf(1003).size()).to.equal(1);
			expect(joinsOf(2013).size()).to.equal(1);
			expect(joinsOf(2003)[0].platform).to.equal("Console");
			expect(joinsOf(2013)[0].platform).to.equal("unknown");
		});

		it("reports platform unknown and -00:00 (not UTC's +00:00) when the client never answers", () => {
			const started = startRegistered({ clientReportTimeoutSeconds: 10 });
			join(2004);
			waitSeconds(0.05);
			started.clock.advance(9);
			waitSeconds(0.05);
			expect(joinsOf(2004).size()).to.equal(0);
			started.clock.advance(1);
			waitUntil(() => joinsOf(2004).size() === 1, "the join after the timeout");
			expect(joinsOf(2004)[0].platform).to.equal("unknown");
			expect(joinsOf(2004)[0].tzOffset).to.equal("-00:00");
		});

		it("takes the first valid report and ignores later ones", () => {
			const started = startRegistered();
			const player = join(2005);
			report(started, player, { platform: "Phone", tzOffset: "+05:45" });
			report(started, player, { platform: "Desktop", tzOffset: "-03:00" });
			waitUntil(() => joinsOf(2005).size() === 1, "the join");
			waitSeconds(0.05);
			expect(joinsOf(2005).size()).to.equal(1);
			expect(joinsOf(2005)[0].platform).to.equal("Phone");
			expect(joinsOf(2005)[0].tzOffset).to.equal("+05:45");
			const stats = started.server.diagnostics().clientReport;
			expect(stats.accepted).to.equal(1);
			expect(stats.ignored).to.equal(1);
		});

		it("carries the client reporter's own payload through the remote to the service", () => {
			const started = startRegistered();
			const player = join(2006);
			resetClientPartsForTests();
			const sent = sendClientReport({
				send: (payload) => harness.players.client(player).fire(started.remote, payload),
				readDevice: () => ({
					touchEnabled: true,
					keyboardEnabled: false,
					mouseEnabled: false,
					gamepadEnabled: false,
					tenFootInterface: false,
					viewport: new Vector2(1024, 768),
				}),
				measureOffset: () => "-03:30",
			});
			resetClientPartsForTests();
			expect(sent).to.equal(true);
			waitUntil(() => joinsOf(2006).size() === 1, "the join");
			expect(joinsOf(2006)[0].platform).to.equal("Tablet");
			expect(joinsOf(2006)[0].tzOffset).to.equal("-03:30");
		});

		it("queues joins until registration succeeds, then sends them", () => {
			serviceControl.fault({ operation: "createServer", status: 503, times: 1 });
			const started = startStaffOps();
			const first = join(2007);
			const staff = join(1004);
			report(started, first, { platform: "Phone", tzOffset: "+01:00" });
			report(started, staff, { platform: "Desktop", tzOffset: "+01:00" });
			waitForFailures(started.server, "register", 1);
			expect(started.server.isRegistered()).to.equal(false);
			expect(serviceControl.count("playerJoin")).to.equal(0);

			// The retry is due after the first backoff (2 s ceiling, full jitter at a draw of 0.5: 1 s).
			started.clock.advance(1.5);
			waitUntil(() => joinsOf(2007).size() === 1 && joinsOf(1004).size() === 1, "the queued joins");
			const log = serviceControl.requests().requests;
			const registeredAt = log.findIndex((entry) => entry.operation === "createServer" && entry.status === 200);
			const firstJoinAt = log.findIndex((entry) => entry.operation === "playerJoin");
			expect(registeredAt >= 0 && registeredAt < firstJoinAt).to.equal(true);
			expect(joinsOf(2007)[0].runningGameId).to.equal(started.server.getRunningGameId());
			expect(StaffOps.isStaff(staff)).to.equal(true);
		});

		it("does not report a player who leaves while their client report is awaited", () => {
			const started = startRegistered();
			const leaver = join(2008);
			waitSeconds(0.05);
			harness.players.remove(leaver);
			task.wait();
			started.clock.advance(30);
			waitSeconds(0.15);
			expect(joinsOf(2008).size()).to.equal(0);
			expect(serviceControl.count("playerJoin")).to.equal(0);
		});

		it("does not report a player who leaves while queued behind registration", () => {
			serviceControl.fault({ operation: "createServer", status: 503, times: 1 });
			const started = startStaffOps();
			const stays = join(2009);
			const leaver = join(2010);
			report(started, stays, { platform: "Phone", tzOffset: "+00:00" });
			report(started, leaver, { platform: "Phone", tzOffset: "+00:00" });
			waitForFailures(started.server, "register", 1);
			harness.players.remove(leaver);
			task.wait();
			// The retry may be scheduled just after the failure is counted: keep the clock moving while waiting.
			waitUntil(() => {
				started.clock.advance(0.25);
				return joinsOf(2009).size() === 1;
			}, "the join of the player who stayed");
			waitSeconds(0.1);
			expect(joinsOf(2010).size()).to.equal(0);
			expect(started.server.diagnostics().joins.players).to.equal(1);
		});

		it("reports a player again after they leave and rejoin", () => {
			const started = startRegistered();
			const first = join(2011);
			report(started, first, { platform: "Phone", tzOffset: "+00:00" });
			waitUntil(() => joinsOf(2011).size() === 1, "the first join");
			harness.players.remove(first);
			task.wait();
			const again = join(2011);
			report(started, again, { platform: "Desktop", tzOffset: "+00:00" });
			waitUntil(() => joinsOf(2011).size() === 2, "the second join");
			expect(joinsOf(2011)[1].platform).to.equal("Desktop");
			expect(StaffOps.getSession(first)).to.equal(undefined);
			expect(StaffOps.getSession(again)).to.be.ok();
		});

		it("keeps game code safe from handlers that error", () => {
			const started = startRegistered();
			const failing = StaffOps.playerReported.Connect(() => error("game code bug"));
			const reported = new Array<number>();
			const listening = StaffOps.playerReported.Connect((player) => reported.push(player.UserId));
			const staffSeen = new Array<number>();
			const staffListening = StaffOps.staffJoined.Connect((player) => staffSeen.push(player.UserId));
			const staff = join(1005);
			report(started, staff, { platform: "Phone", tzOffset: "+00:00" });
			waitUntil(() => StaffOps.isStaff(staff), "the staff mark");
			// The failing handler stops neither the other handlers nor the integration's own steps after it.
			waitUntil(() => staffSeen.size() === 1, "staffJoined after the failing playerReported handler");
			const later = join(2014);
			report(started, later, { platform: "Desktop", tzOffset: "+00:00" });
			waitUntil(() => StaffOps.getSession(later) !== undefined, "the next player's join");
			waitUntil(() => reported.size() === 2, "playerReported for both players");
			failing.Disconnect();
			listening.Disconnect();
			staffListening.Disconnect();
			expect(reported.join(",")).to.equal("1005,2014");
			expect(staffSeen.join(",")).to.equal("1005");
			expect(staff.GetAttribute(STAFF_ATTRIBUTE)).to.equal(true);
			expect(started.server.isStopped()).to.equal(false);
		});
	});
};
