import { StaffOps } from "../../../src/server";
import { SYNC_IDLE_SECONDS } from "../../../src/server/features/presence/sync";
import { harness } from "../../support/harness";
import { RecordedSession, serviceControl } from "../../support/serviceControl";
import {
	cleanUp,
	freshStart,
	join,
	joinAnswered,
	leavesOnMissingRoute,
	linesWith,
	report,
	startRegistered,
	warnings,
} from "./support";
import { waitSeconds, waitUntil } from "../../support/waits";

// Sessions that end (issue 16), against the reference service's deployed profile, which has the routes and ends
// sessions the way the deployed service does. Each spec asserts the service's records and the requests it got.

function unix(iso: string): number {
	const parsed = DateTime.fromIsoDate(iso);
	if (parsed === undefined) error(`not an ISO date: ${iso}`, 2);
	return parsed.UnixTimestampMillis / 1000;
}

/** An ISO time of the service's records, in Unix milliseconds. */
function unixMs(iso: string): number {
	const parsed = DateTime.fromIsoDate(iso);
	if (parsed === undefined) error(`not an ISO date: ${iso}`, 2);
	return parsed.UnixTimestampMillis;
}

function sessionsOf(userId: number): Array<RecordedSession> {
	return serviceControl.records().sessions.filter((session) => session.userId === tostring(userId));
}

const SESSIONS = { reportLeaves: true, endServer: true };

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUp());
	afterAll(() => serviceControl.reset());

	describe("sessions that end (deployed service)", () => {
		it("12 join, 6 leave, the server shuts down: every session ends once, on time, for little", () => {
			const started = startRegistered({ sessions: SESSIONS, heartbeatSeconds: 60 });
			const players = new Array<Player>();
			for (let i = 0; i < 12; i++) players.push(join(i < 5 ? 1001 + i : 2100 + i));
			for (const player of players) report(started, player, { platform: "Desktop", tzOffset: "+01:00" });
			waitUntil(() => players.every((player) => StaffOps.getSession(player) !== undefined), "12 join answers");

			const leftAt = new Map<number, number>();
			for (let i = 0; i < 6; i++) {
				leftAt.set(players[i].UserId, os.time());
				harness.players.remove(players[i]);
			}
			waitUntil(() => serviceControl.count("playerLeave") === 6, "6 leaves");
			started.clock.advance(60); // one heartbeat
			waitSeconds(0.1);

			const closedAt = os.time();
			const [, finished] = harness.server.close();
			expect(finished).to.equal(true);

			const records = serviceControl.records();
			expect(records.sessions.size()).to.equal(12);
			for (const session of records.sessions) {
				expect(session.inGame).to.equal(false);
				const userId = tonumber(session.userId)!;
				const expected = leftAt.get(userId) ?? closedAt;
				expect(math.abs(unix(session.ended) - expected) <= 2).to.equal(true);
				expect(sessionsOf(userId).size()).to.equal(1);
			}
			expect(records.servers[0].deleted).to.equal(true);
			expect(records.servers[0].removal).to.equal("endServer");
			// 1 registration + 1 per join + 1 per leave (the 6 still present leave at shutdown: the deployed service's
			// endServer would delete their sessions) + the syncs of that minute (one per idle interval, and the last
			// one at shutdown) + 1 end.
			const syncs = math.floor(60 / SYNC_IDLE_SECONDS) + 1;
			const total = serviceControl.requests().requests.size();
			expect(serviceControl.count("playerJoin")).to.equal(12);
			expect(serviceControl.count("playerLeave")).to.equal(12);
			expect(serviceControl.count("endServer")).to.equal(1);
			expect(serviceControl.count("sendData") <= syncs).to.equal(true);
			expect(total <= 1 + 12 + 12 + syncs + 1).to.equal(true);
		});

		it("every leave carries datetime and no session ends before it starts: 8 kicked at join, 4 removed by a shutdown", () => {
			const started = startRegistered({
				sessions: SESSIONS,
				heartbeatSeconds: 60,
				clientReportTimeoutSeconds: 10,
			});
			// Kicked as soon as the join is answered: each visit ends within its join's second.
			for (let i = 0; i < 8; i++) {
				const player = join(2401 + i);
				report(started, player, { platform: "Desktop", tzOffset: "+01:00" });
				waitUntil(() => StaffOps.getSession(player) !== undefined, "the join");
				harness.players.remove(player);
			}
			waitUntil(() => serviceControl.count("playerLeave") === 8, "8 leaves");
			// Joined just before the shutdown, still gathering: their joins go out at the close, then their leaves.
			for (let i = 0; i < 4; i++) join(2501 + i);
			const [, finished] = harness.server.close();
			expect(finished).to.equal(true);

			const leaves = serviceControl.requests().requests.filter((request) => request.operation === "playerLeave");
			expect(leaves.size()).to.equal(12);
			for (const leave of leaves) {
				const body = leave.body as { leftTime?: unknown; datetime?: unknown };
				// Was absent: every end cut to its whole second.
				expect(typeIs(body.datetime, "number")).to.equal(true);
				expect(body.leftTime).to.equal(math.ceil((body.datetime as number) / 1000));
			}
			const records = serviceControl.records();
			expect(records.sessions.size()).to.equal(12);
			for (const session of records.sessions) {
				expect(session.inGame).to.equal(false);
				expect(unixMs(session.ended) >= unixMs(session.started)).to.equal(true);
			}
			// Was 12 of 12 (-0.01 minutes each: every visit's end cut to its whole second, before its start).
			expect(records.negativeMinuteSessions).to.equal(0);
		});

		it("with the option off, sends no leave and no end, and the sessions stay open as before", () => {
			// With the deployed profile both are on unless set false.
			const started = startRegistered({
				heartbeatSeconds: 60,
				sessions: { reportLeaves: false, endServer: false },
			});
			const players = joinAnswered(started, [1001, 2001]);
			harness.players.remove(players[0]);
			waitSeconds(0.1);
			harness.server.close();
			expect(serviceControl.count("playerLeave") + serviceControl.count("endServer")).to.equal(0);
			expect(serviceControl.records().openSessionsByUser["1001"]).to.equal(1);
			expect(serviceControl.records().openSessionsByUser["2001"]).to.equal(1);
		});

		it("sends nothing for a player who leaves before their join went out", () => {
			const started = startRegistered({ sessions: SESSIONS, clientReportTimeoutSeconds: 10 });
			const player = join(2001);
			waitSeconds(0.05);
			harness.players.remove(player);
			waitSeconds(0.05);
			started.clock.advance(30);
			waitSeconds(0.1);
			expect(serviceControl.count("playerJoin") + serviceControl.count("playerLeave")).to.equal(0);
			expect(started.server.diagnostics().joins.players).to.equal(0);
		});

		it("reports the leave of a player who left while their join was in flight, once it is answered", () => {
			serviceControl.fault({ operation: "playerJoin", latencyMs: 400, times: 1 });
			const started = startRegistered({ sessions: SESSIONS });
			const player = join(1002);
			report(started, player, { platform: "Desktop", tzOffset: "+01:00" });
			waitUntil(() => serviceControl.records().sessionsByUser["1002"] === 1, "the join to land");
			harness.players.remove(player);
			waitUntil(() => serviceControl.count("playerLeave") === 1, "the leave");
			expect(serviceControl.records().openSessionsByUser["1002"]).to.equal(undefined);
			expect(started.server.diagnostics().joins.players).to.equal(0);
		});

		it("retries leaves through an outage and sends each once it is over", () => {
			serviceControl.fault({ operation: "playerLeave", status: 503 });
			const started = startRegistered({ sessions: SESSIONS });
			const players = joinAnswered(started, [2001, 2002, 2003]);
			harness.players.remove(players[0]);
			waitUntil(() => linesWith(warnings(), "leave reports are failing").size() === 1, "the first leave to fail");
			harness.players.remove(players[1]);
			harness.players.remove(players[2]);
			waitSeconds(0.1);
			// One leave out at a time while the service fails.
			expect(serviceControl.count("playerLeave")).to.equal(1);
			expect(started.server.diagnostics().sessions.leaves).to.equal(3);
			serviceControl.clearFaults();
			started.clock.advance(60);
			waitUntil(() => started.server.diagnostics().sessions.leaves === 0, "the leaves after the outage");
			expect(serviceControl.records().openSessionsByUser["2001"]).to.equal(undefined);
			expect(serviceControl.records().openSessionsByUser["2003"]).to.equal(undefined);
			expect(linesWith(warnings(), "leave reports are failing").size()).to.equal(1);
		});
		it("drops a queued leave of an earlier registration instead of sending it under the old server", () => {
			// The heartbeat finds out here; the sync's own re-registration is covered by sync.spec.
			const started = startRegistered({ sessions: SESSIONS, sync: false });
			const player = join(2001);
			report(started, player, { platform: "Desktop", tzOffset: "+01:00" });
			waitUntil(() => StaffOps.getSession(player) !== undefined, "the join");
			const firstRunning = started.server.getRunningGameId()!;
			// Half a second before the heartbeat the leave fails; its retry (1 s later) comes after the heartbeat.
			started.clock.advance(59.5);
			serviceControl.fault({ operation: "playerLeave", status: 503 });
			harness.players.remove(player);
			waitUntil(() => linesWith(warnings(), "leave reports are failing").size() === 1, "the leave to fail");
			expect(serviceControl.count("playerLeave")).to.equal(1);
			// The service forgets the server; the heartbeat finds out and the server registers again.
			serviceControl.forget(started.server.getInternalGameId()!);
			started.clock.advance(0.5);
			waitUntil(
				() => started.server.isRegistered() && started.server.getRunningGameId() !== firstRunning,
				"the second registration",
			);
			serviceControl.clearFaults();
			started.clock.advance(30);
			waitSeconds(0.5);
			// The old server's sessions went with it: the queued leave is not sent again under its id.
			expect(serviceControl.count("playerLeave")).to.equal(1);
			expect(started.server.diagnostics().sessions.leaves).to.equal(0);
		});
	});

	describe("sessions on a service without the routes (default profile)", () => {
		beforeEach(() => serviceControl.reset("default"));

		it("confirms the leave route missing only over a minute, with one warning, then probes it once a minute", () => {
			const started = startRegistered({ sessions: SESSIONS, heartbeatSeconds: 600 });
			// Each try is a 404 and the read that tells; the read's answer schedules the next try, so it must land first.
			leavesOnMissingRoute(started, [2001, 2002], "getRunningGame");
			expect(linesWith(warnings(), "no playerLeave route").size()).to.equal(1);
			expect(serviceControl.count("playerLeave")).to.equal(8);
			expect(started.server.diagnostics().sessions.leaves).to.equal(2);
			harness.server.close();
			expect(serviceControl.count("endServer")).to.equal(1);
			expect(linesWith(warnings(), "no endServer route").size()).to.equal(1);
		});
	});
};
