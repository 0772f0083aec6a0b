import { StaffOpsApiClient } from "../../../src/api/apiClient";
import type { RunningGameAnswer } from "../../../src/api/resources/games";
import { StaffOps } from "../../../src/server";
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
	specClient,
	startRegistered,
	startStaffOps,
	waitForFailures,
	warnings,
} from "./support";
import { waitSeconds, waitUntil } from "../../support/waits";

// Presence: heartbeats, the service forgetting the server, reconciling player lists, outages and recovery.
export = () => {
	beforeEach(() => freshStart());
	afterEach(() => cleanUp());

	describe("heartbeat", () => {
		it("reads the running game every heartbeatSeconds, and not before", () => {
			const started = startRegistered({ heartbeatSeconds: 30 });
			started.clock.advance(29);
			waitSeconds(0.05);
			expect(serviceControl.count("getRunningGame")).to.equal(0);
			started.clock.advance(1);
			waitUntil(() => serviceControl.count("getRunningGame") === 1, "the first heartbeat");
			// The next heartbeat is scheduled when this one's answer arrives.
			waitUntil(() => started.clock.pendingTimers() === 1, "the next heartbeat on the clock");
			started.clock.advance(30);
			waitUntil(() => serviceControl.count("getRunningGame") === 2, "the second heartbeat");
			const beat = serviceControl.requests().requests.find((entry) => entry.operation === "getRunningGame")!;
			expect(beat.path).to.equal(`/games/running/${started.server.getInternalGameId()}`);
			expect(beat.status).to.equal(200);
		});

		it("defaults to 60 seconds", () => {
			const started = startRegistered();
			started.clock.advance(59);
			waitSeconds(0.05);
			expect(serviceControl.count("getRunningGame")).to.equal(0);
			started.clock.advance(1);
			waitUntil(() => serviceControl.count("getRunningGame") === 1, "the heartbeat");
		});
	});

	describe("when the service forgets the server", () => {
		it("registers again on the heartbeat's 404 and reports the players present again", () => {
			const started = startRegistered();
			const regular = join(2001);
			const staff = join(1002);
			report(started, regular, { platform: "Phone", tzOffset: "-05:00" });
			report(started, staff, { platform: "Desktop", tzOffset: "+01:00" });
			waitUntil(() => StaffOps.isStaff(staff) && StaffOps.getSession(regular) !== undefined, "both joins");
			const firstGame = started.server.getInternalGameId()!;
			const firstRunning = started.server.getRunningGameId()!;
			const firstSession = StaffOps.getSession(regular)!.sessionId;

			serviceControl.forget(firstGame);
			started.clock.advance(60);
			waitUntil(
				() =>
					joinsOf(2001).size() === 2 &&
					joinsOf(1002).size() === 2 &&
					StaffOps.getSession(regular)?.sessionId !== firstSession,
				"the joins under the new registration",
			);

			expect(serviceControl.count("createServer")).to.equal(2);
			const secondRunning = started.server.getRunningGameId()!;
			expect(secondRunning).never.to.equal(firstRunning);
			expect(joinsOf(2001)[1].runningGameId).to.equal(secondRunning);
			expect(joinsOf(2001)[1].platform).to.equal("Phone");
			expect(joinsOf(2001)[1].tzOffset).to.equal("-05:00");
			const games = recorded().runningGames;
			expect(games.size()).to.equal(1);
			expect(games[0].internalGameId).to.equal(started.server.getInternalGameId());
			expect(games[0].players.includes("2001") && games[0].players.includes("1002")).to.equal(true);
			expect(StaffOps.isStaff(staff)).to.equal(true);
			expect(linesWith(allOutput(), "no longer knows this server").size()).to.equal(1);

			// Heartbeats go on against the new registration.
			waitSeconds(0.05);
			started.clock.advance(60);
			waitUntil(
				() =>
					serviceControl
						.requests()
						.requests.filter(
							(entry) => entry.path === `/games/running/${started.server.getInternalGameId()}`,
						)
						.size() === 1,
				"a heartbeat of the new registration",
			);
		});

		it("registers again when a join answers 404, then reports everyone", () => {
			const started = startRegistered();
			const first = join(2001);
			report(started, first, { platform: "Phone", tzOffset: "+00:00" });
			waitUntil(() => joinsOf(2001).size() === 1, "the first join");
			serviceControl.forget(started.server.getInternalGameId()!);

			const second = join(2002);
			report(started, second, { platform: "Desktop", tzOffset: "+00:00" });
			waitUntil(() => joinsOf(2002).size() === 1 && joinsOf(2001).size() === 2, "both joins, re-registered");
			expect(serviceControl.count("createServer")).to.equal(2);
			const players = recorded().runningGames[0].players;
			expect(players.includes("2001") && players.includes("2002")).to.equal(true);
		});

		it("does not report banned players again", () => {
			const started = startRegistered({ kickBanned: false });
			const banned = join(666);
			report(started, banned, { platform: "Phone", tzOffset: "+00:00" });
			waitUntil(() => joinsOf(666).size() === 1, "the banned join");
			serviceControl.forget(started.server.getInternalGameId()!);
			started.clock.advance(60);
			waitUntil(
				() => serviceControl.count("createServer") === 2 && started.server.isRegistered(),
				"re-registration",
			);
			waitSeconds(0.1);
			expect(joinsOf(666).size()).to.equal(1);
		});
	});

	describe("reconciling the service's player list", () => {
		it("reports again a player the service does not list", () => {
			// The reference service never drops a single player, so this spec's heartbeat answer leaves 2001 out.
			const client = specClient();
			const forgetful = {
				activity: client.activity,
				games: {
					getRunning(id: string, options?: { priority?: "high" | "normal" | "low" }) {
						return client.games.getRunning(id, options).andThen((answer): RunningGameAnswer => ({
							success: true,
							runningGame: {
								...answer.runningGame!,
								players: (answer.runningGame!.players ?? []).filter((id2) => id2 !== "2001"),
							},
							players: answer.players!.filter((player) => player.userId !== "2001"),
						}));
					},
				},
			} as unknown as StaffOpsApiClient;
			const started = startRegistered({}, { client: forgetful });
			const missing = join(2001);
			const listed = join(2002);
			report(started, missing, { platform: "Phone", tzOffset: "+00:00" });
			report(started, listed, { platform: "Phone", tzOffset: "+00:00" });
			waitUntil(() => joinsOf(2001).size() === 1 && joinsOf(2002).size() === 1, "both joins");

			started.clock.advance(60);
			waitUntil(() => joinsOf(2001).size() === 2, "the second report of the unlisted player");
			waitSeconds(0.05);
			expect(joinsOf(2002).size()).to.equal(1);
			expect(joinsOf(2001)[1].runningGameId).to.equal(started.server.getRunningGameId());
			expect(serviceControl.count("createServer")).to.equal(1);
			expect(linesWith(allOutput(), "did not list 1 player").size()).to.equal(1);
		});

		it("does not report again a player whose join was answered after the list was read", () => {
			const started = startRegistered();
			const early = join(2001);
			report(started, early, { platform: "Phone", tzOffset: "+00:00" });
			waitUntil(() => joinsOf(2001).size() === 1, "the first join");
			// The heartbeat's list is taken at once but its answer held back 2.5 s; a second join lands meanwhile,
			// so the list the integration reads predates that join.
			serviceControl.fault({ operation: "getRunningGame", latencyMs: 2500, times: 1 });
			started.clock.advance(60);
			waitSeconds(0.2);
			const late = join(2002);
			report(started, late, { platform: "Phone", tzOffset: "+00:00" });
			waitUntil(() => StaffOps.getSession(late) !== undefined, "the second join's answer");
			expect(serviceControl.count("getRunningGame")).to.equal(0);
			waitUntil(() => serviceControl.count("getRunningGame") === 1, "the held-back heartbeat answer");
			waitSeconds(0.5);
			expect(linesWith(allOutput(), "did not list").size()).to.equal(0);
			expect(joinsOf(2002).size()).to.equal(1);
			expect(serviceControl.count("playerJoin")).to.equal(2);
		});

		it("leaves alone players the service lists but who are not here (there is no leave operation)", () => {
			const started = startRegistered();
			const leaver = join(2001);
			report(started, leaver, { platform: "Phone", tzOffset: "+00:00" });
			waitUntil(() => joinsOf(2001).size() === 1, "the join");
			harness.players.remove(leaver);
			task.wait();
			started.clock.advance(60);
			waitUntil(() => serviceControl.count("getRunningGame") === 1, "the heartbeat");
			waitSeconds(0.05);
			expect(serviceControl.count("playerJoin")).to.equal(1);
			expect(serviceControl.count("createServer")).to.equal(1);
		});
	});

	describe("outage and recovery", () => {
		it("retries registration with capped backoff, warns once, and sends the queue on recovery", () => {
			serviceControl.fault({ operation: "*", status: 503 });
			const started = startStaffOps();
			const player = join(2001);
			const staff = join(1003);
			report(started, player, { platform: "Phone", tzOffset: "+03:00" });
			report(started, staff, { platform: "Desktop", tzOffset: "+03:00" });
			// Backoff ceilings 2, 4, 8, 16, 32, 60, 60 s; with full jitter the draw of 0.5 waits half of each.
			const waits = [1, 2, 4, 8, 16, 30, 30];
			for (let attempt = 0; attempt < waits.size(); attempt++) {
				waitForFailures(started.server, "register", attempt + 1);
				started.clock.advance(waits[attempt] - 0.01);
				waitSeconds(0.05);
				expect(serviceControl.count("createServer")).to.equal(attempt + 1);
				started.clock.advance(0.01);
				waitUntil(() => serviceControl.count("createServer") === attempt + 2, `attempt ${attempt + 2}`);
			}
			waitForFailures(started.server, "register", waits.size() + 1);
			expect(serviceControl.count("playerJoin")).to.equal(0);
			expect(linesWith(warnings(), "could not register this server").size()).to.equal(1);
			expect(started.server.isRegistered()).to.equal(false);

			serviceControl.clearFaults();
			started.clock.advance(30);
			waitUntil(() => joinsOf(2001).size() === 1 && joinsOf(1003).size() === 1, "the queued joins");
			expect(started.server.isRegistered()).to.equal(true);
			expect(linesWith(allOutput(), "registered this server after 9 attempts").size()).to.equal(1);
			expect(StaffOps.isStaff(staff)).to.equal(true);
			expect(joinsOf(2001)[0].tzOffset).to.equal("+03:00");
		});

		it("keeps heartbeating and retries failed joins through an outage after registration", () => {
			const started = startRegistered();
			serviceControl.fault({ operation: "*", status: 503 });
			const player = join(2001);
			report(started, player, { platform: "Phone", tzOffset: "+00:00" });
			waitForFailures(started.server, "joins", 1);
			started.clock.advance(60);
			waitForFailures(started.server, "heartbeats", 1);
			waitForFailures(started.server, "joins", 2);
			started.clock.advance(60);
			waitForFailures(started.server, "heartbeats", 2);
			waitForFailures(started.server, "joins", 3);
			expect(serviceControl.count("getRunningGame")).to.equal(2);
			expect(linesWith(warnings(), "heartbeat failed").size()).to.equal(1);
			expect(linesWith(warnings(), "join reports are failing").size()).to.equal(1);
			expect(joinsOf(2001).size()).to.equal(0);

			serviceControl.clearFaults();
			started.clock.advance(60);
			waitUntil(
				() =>
					joinsOf(2001).size() === 1 &&
					linesWith(allOutput(), "heartbeats reach the service again").size() === 1 &&
					StaffOps.getSession(player) !== undefined,
				"the join and the heartbeat after the outage",
			);
			expect(linesWith(allOutput(), "join reports reach the service again").size()).to.equal(1);
			expect(started.server.isStopped()).to.equal(false);
		});

		it("survives a service that answers garbage", () => {
			serviceControl.fault({ operation: "createServer", kind: "malformed", times: 1 });
			const started = startStaffOps();
			waitForFailures(started.server, "register", 1);
			started.clock.advance(1.5);
			waitUntil(() => started.server.isRegistered(), "registration");
			// Every field of the join answer has the wrong type: the tolerant reader leaves them out, and the join,
			// which the service acted on, counts as answered: not sent again, the player neither staff nor banned.
			serviceControl.fault({ operation: "playerJoin", kind: "wrong-types", times: 1 });
			const player = join(1002);
			report(started, player, { platform: "Phone", tzOffset: "+00:00" });
			waitUntil(() => StaffOps.getSession(player) !== undefined, "the join answer");
			started.clock.advance(120);
			waitSeconds(0.1);
			expect(joinsOf(1002).size()).to.equal(1);
			expect(serviceControl.count("playerJoin")).to.equal(1);
			expect(StaffOps.isStaff(player)).to.equal(false);
			expect(StaffOps.getSession(player)!.sessionId).to.equal(undefined);
		});
	});
};
