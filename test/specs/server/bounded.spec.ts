import { StaffOpsApiClient } from "../../../src/api/apiClient";
import type { RunningGameAnswer } from "../../../src/api/resources/games";
import { StaffOps, StaffOpsServer } from "../../../src/server";
import { RequestBudget } from "../../../src/transport/budget";
import { FakeScheduler, RecordingHttp } from "../../support/fakes";
import { harness } from "../../support/harness";
import { FaultSpec, serviceControl } from "../../support/serviceControl";
import { busiestMinute } from "../../support/windows";
import {
	allOutput,
	alterAnswers,
	cleanUp,
	freshStart,
	heartbeatsLanded,
	join,
	joinsOf,
	linesWith,
	report,
	specClient,
	startRegistered,
	startStaffOps,
	waitForFailures,
	warnings,
} from "./support";
import { waitSeconds, waitUntil } from "../../support/waits";

// Background work stays bounded whatever the service does (issue 11). A fake clock runs minutes in moments; the
// requests are real and counted where they were sent.

/**
 * Moves the clock `seconds` in steps of `step`, letting real HTTP round trips land between steps: with `http`, each
 * step waits (bounded) until its requests are answered, so a round trip slowed by a busy machine costs no fake time
 * (a fixed 0.012 s let a 503's answer land many fake seconds late and pushed a retry out of the window).
 */
function run(clock: FakeScheduler, seconds: number, step = 1, http?: RecordingHttp): void {
	for (let elapsed = 0; elapsed < seconds; elapsed += step) {
		clock.advance(step);
		waitSeconds(0.012);
		if (http !== undefined) waitUntil(() => http.inFlight === 0, "the step's requests to be answered", 10);
	}
}

/**
 * Starts StaffOps on a fake clock with its own budget, makes playerJoin answer 503, lets `count` players join (user
 * ids from `firstUserId + 1`) and runs five minutes of the outage.
 */
function joinOutage(
	budget: { perMinute: number; burst: number },
	heartbeatSeconds: number,
	firstUserId: number,
	count: number,
): { clock: FakeScheduler; http: RecordingHttp; server: StaffOpsServer } {
	const clock = new FakeScheduler();
	const http = new RecordingHttp(clock);
	const requestBudget = new RequestBudget(budget, clock);
	const server = StaffOps.start(
		{
			baseUrl: harness.serviceUrl,
			apiKey: harness.serviceKey,
			budget: requestBudget,
			clientReportTimeoutSeconds: 0,
			heartbeatSeconds,
		},
		{ scheduler: clock, random: () => 0.5, transport: { http, scheduler: clock, random: () => 0.5 } },
	)!;
	waitUntil(() => server.isRegistered(), "registration");
	serviceControl.fault({ operation: "playerJoin", status: 503 });
	for (let i = 1; i <= count; i++) harness.players.add(firstUserId + i);
	// The first wave is every join, sent or waiting in the budget, before the clock moves: a join still gathering
	// (its chat permission read runs in a thread of its own) when the first 503 lands would go out as a probe instead.
	const firstWave = () => http.to("/activity/playerJoin").size() + requestBudget.getQueueLength();
	waitUntil(() => firstWave() >= count, "the first wave of joins", 15);
	waitSeconds(0.1);
	run(clock, 300, 1, http);
	return { clock, http, server };
}

export = () => {
	beforeEach(() => freshStart());
	afterEach(() => cleanUp());

	describe("a join outage", () => {
		it("keeps retries within their share of every minute for 10 minutes, and game code's calls working", () => {
			const { clock, http, server } = joinOutage({ perMinute: 250, burst: 20 }, 60, 3000, 100);

			// Game code asks for a user's teams five minutes into the outage: it gets its answer within 5 s.
			const asked = clock.now();
			const teams = server.getClient().teams.forUser("1005");
			while (teams.getStatus() === "Started" && clock.now() - asked < 30) run(clock, 0.5, 0.5, http);
			expect(teams.getStatus()).to.equal("Resolved");
			const answeredAfter = clock.now() - asked;
			expect(answeredAfter <= 5).to.equal(true);

			run(clock, 300, 1, http);
			const joins = http.to("/activity/playerJoin").map((request) => request.at);
			// The first wave is one join per player; everything after it is a retry.
			const retries = joins.filter((_, index) => index >= 100);
			const share = 25; // 10 % of 250 a minute
			print(
				`[outage cost] 100 players, 10 min of 503 on playerJoin: ${joins.size()} join requests` +
					` (${retries.size()} retries, at most ${busiestMinute(retries)} in a minute), ${http.seen.size()} requests in all;` +
					` a teams.forUser call mid-outage answered after ${answeredAfter} s`,
			);
			expect(busiestMinute(retries) <= share).to.equal(true);
			expect(busiestMinute(http.seen.map((request) => request.at)) <= 250).to.equal(true);
			expect(linesWith(warnings(), "join reports are failing").size()).to.equal(1);

			serviceControl.clearFaults();
			run(clock, 120, 1, http);
			waitUntil(() => serviceControl.records().sessionsByUser["3100"] === 1, "the joins after the outage", 10);
			let answered = 0;
			for (let i = 1; i <= 100; i++)
				if (serviceControl.records().sessionsByUser[tostring(3000 + i)] === 1) answered++;
			expect(answered).to.equal(100);
		});
		it("holds retries to their share of a small budget: 7 a minute leaves one retry a minute, after a burst of 3", () => {
			const { clock, http } = joinOutage({ perMinute: 7, burst: 3 }, 600, 3200, 5);
			const joins = http.to("/activity/playerJoin").map((request) => request.at);
			const retries = joins.filter((_, index) => index >= 5);
			print(
				`[small budget] 5 players, 5 min of 503 on playerJoin, 7 requests a minute: ${joins.size()} join requests` +
					` (${retries.size()} retries, at most ${busiestMinute(retries)} in a minute)`,
			);
			// Every request with its time and route, so a failure under load says which step went astray.
			print(`[small budget] sent: ${http.seen.map((request) => `${request.at} ${request.path}`).join(", ")}`);
			// The burst of 3, then one a minute: at most 3 + 5 in five minutes, and never none.
			expect(retries.size() >= 4 && retries.size() <= 8).to.equal(true);
			expect(busiestMinute(retries) <= 4).to.equal(true);
			expect(busiestMinute(http.seen.map((request) => request.at)) <= 7).to.equal(true);

			serviceControl.clearFaults();
			run(clock, 300, 1, http);
			// A join sent near the end may still be out: wait (with a bound) until the service answered every join sent.
			const sent = http.to("/activity/playerJoin").size();
			waitUntil(() => serviceControl.count("playerJoin") >= sent, "the joins sent to be answered", 10);
			let answered = 0;
			for (let i = 1; i <= 5; i++)
				if (serviceControl.records().sessionsByUser[tostring(3200 + i)] === 1) answered++;
			expect(answered).to.equal(5);
		});
	});

	describe("the heartbeat's player list", () => {
		function listing(players: Array<string> | undefined): StaffOpsApiClient {
			const client = specClient();
			const games = client.games;
			(client as unknown as { games: typeof games }).games = {
				getRunning(id, options) {
					return games.getRunning(id, options).andThen((answer): RunningGameAnswer => ({
						success: true,
						runningGame: { ...answer.runningGame!, players },
						players: players?.map((userId) => ({ _id: `p${userId}`, userId })),
					}));
				},
			};
			return client;
		}

		it("reports nobody again when the service lists no player at all", () => {
			const started = startRegistered({}, { client: listing([]) });
			const players = [join(2001), join(2002), join(2003)];
			for (const player of players) report(started, player, { platform: "Phone", tzOffset: "+00:00" });
			waitUntil(() => players.every((player) => StaffOps.getSession(player) !== undefined), "the joins");
			// The beat's read answered schedules the next beat (a fixed 0.05 s lost a beat on a busy machine: 4 reads, not 5).
			heartbeatsLanded(started, 5, 60, 0.05);
			expect(serviceControl.count("playerJoin")).to.equal(3);
			expect(serviceControl.count("getRunningGame")).to.equal(5);
			expect(linesWith(warnings(), "listed none of the 3 players").size()).to.equal(1);
		});

		it("reports at most 10 unlisted players again per heartbeat", () => {
			const started = startRegistered({}, { client: listing(["2100"]) });
			const players = new Array<Player>();
			for (let i = 0; i <= 24; i++) players.push(join(2100 + i));
			for (const player of players) report(started, player, { platform: "Phone", tzOffset: "+00:00" });
			waitUntil(() => players.every((player) => StaffOps.getSession(player) !== undefined), "the joins");
			expect(serviceControl.count("playerJoin")).to.equal(25);
			started.clock.advance(60);
			waitUntil(() => serviceControl.count("playerJoin") === 35, "10 reported again");
			waitSeconds(0.1);
			expect(serviceControl.count("playerJoin")).to.equal(35);
			expect(
				linesWith(allOutput(), "did not list 24 player(s) of this server; reporting 10 again").size(),
			).to.equal(1);
		});
	});

	describe("registration and joins that cannot work", () => {
		it("registers again after an unknown outcome, and says the service may hold the first attempt", () => {
			// The service registers the first attempt, then its answer is lost (the connection closes): an unknown
			// outcome that needs no race between a real delay and a real timeout, so it is the same on a busy machine.
			serviceControl.fault({ operation: "createServer", kind: "drop-after", times: 1 });
			const started = startStaffOps();
			waitForFailures(started.server, "register", 1);
			const line = linesWith(warnings(), "could not register this server")[0];
			expect(line.find("may have registered that attempt", 1, true)[0]).to.be.ok();
			expect(started.server.isRegistered()).to.equal(false);
			started.clock.advance(60);
			waitUntil(() => started.server.isRegistered(), "registration");
			// The first attempt was acted on: the service holds two registrations, as the warning said it might.
			expect(serviceControl.count("createServer")).to.equal(2);
			expect(serviceControl.records().servers.size()).to.equal(2);
		});

		/** The first registration meets `fault`; the second, a minute later, is answered: registrations sent and held. */
		function registerAfter(fault: FaultSpec): [sent: number, held: number] {
			serviceControl.fault(fault);
			const started = startStaffOps();
			waitForFailures(started.server, "register", 1);
			started.clock.advance(60);
			waitUntil(() => started.server.isRegistered(), "registration");
			return [serviceControl.count("createServer"), serviceControl.records().servers.size()];
		}

		it("holds one server after a first registration the service refused (503)", () => {
			// docs/failure-policy.md: at most one unused server per attempt whose outcome was unknown, never one for an
			// attempt the service refused: a 503 is an answer, so the next attempt is the only registration.
			const [sent, held] = registerAfter({ operation: "createServer", status: 503, times: 1 });
			expect(sent).to.equal(2);
			expect(held).to.equal(1);
			expect(linesWith(warnings(), "may have registered that attempt").size()).to.equal(0);
		});

		it("holds one server after a first registration the service never acted on (connection closed first)", () => {
			// The connection closes before the service acts: the outcome is unknown to StaffOps, so it says the service
			// may hold the attempt, but the service holds only the second one.
			const [sent, held] = registerAfter({ operation: "createServer", kind: "drop", times: 1 });
			expect(sent).to.equal(2);
			expect(held).to.equal(1);
		});

		it("waits for a slow registration's answer instead of registering a second server", () => {
			// The service acts on the registration but answers after 1 s: longer than the 0.2 s every other request
			// waits here, within the registration's 30 s. Before, the attempt was given up on at 0.2 s and a second one
			// registered a second server.
			serviceControl.fault({ operation: "createServer", latencyMs: 1000, times: 1 });
			const started = startStaffOps({ timeout: 0.2 });
			waitUntil(() => started.server.isRegistered(), "registration", 5);
			started.clock.advance(120);
			waitSeconds(0.1);
			expect(serviceControl.count("createServer")).to.equal(1);
			expect(serviceControl.records().servers.size()).to.equal(1);
			expect(linesWith(warnings(), "could not register this server").size()).to.equal(0);
		});

		it("sends joins under a running game id longer than 256 characters", () => {
			const client = specClient();
			const err = client.activity
				.reportJoin({
					playerId: 2001,
					safechat: true,
					username: "Long",
					tzOffset: "+00:00",
					platform: "Phone",
					gameId: string.rep("a", 300),
				})
				.await()[1] as { kind: string };
			// It reaches the service (which knows no such game) instead of failing the library's own check.
			expect(err.kind).never.to.equal("invalid");
			expect(serviceControl.count("playerJoin")).to.equal(1);
		});

		it("refuses, once, a registration whose id it could never send back", () => {
			const client = alterAnswers(specClient(), {
				registerServer: (answer) => ({ ...answer, runningGameId: string.rep("f", 2000) }),
			});
			const started = startStaffOps({}, { client });
			const players = [join(2001), join(2002), join(2003)];
			for (const player of players) report(started, player, { platform: "Phone", tzOffset: "+00:00" });
			waitUntil(() => linesWith(warnings(), "cannot send back").size() === 1, "the warning");
			started.clock.advance(600);
			waitSeconds(0.1);
			expect(serviceControl.count("playerJoin")).to.equal(0);
			expect(serviceControl.count("createServer")).to.equal(1);
			expect(linesWith(warnings(), "cannot send back").size()).to.equal(1);
		});

		it("sends the join when reports are not awaited and the chat read answers at once", () => {
			startRegistered({ clientReportTimeoutSeconds: 0 }, { canChat: () => true });
			join(2001);
			waitUntil(() => joinsOf(2001).size() === 1, "the join");
			expect(joinsOf(2001)[0].safechat).to.equal(false);
			expect(joinsOf(2001)[0].platform).to.equal("unknown");
		});

		it("warns once per kind of refusal, not once per player", () => {
			serviceControl.fault({ operation: "playerJoin", status: 400 });
			const started = startRegistered();
			const players = [join(2001), join(2002), join(2003), join(2004)];
			for (const player of players) report(started, player, { platform: "Phone", tzOffset: "+00:00" });
			waitUntil(() => serviceControl.count("playerJoin") === 4, "the four joins");
			waitSeconds(0.1);
			expect(linesWith(warnings(), "refused a join report").size()).to.equal(1);
		});
	});

	describe("client reports", () => {
		it("keeps no record or rate-limit entry for a report handled after the player left", () => {
			const started = startRegistered();
			const player = join(2001);
			harness.players.remove(player);
			report(started, player, { platform: "Phone", tzOffset: "+00:00" });
			waitSeconds(0.05);
			const diagnostics = started.server.diagnostics();
			expect(diagnostics.joins.players).to.equal(0);
			expect(diagnostics.clientReport.limiterKeys).to.equal(0);
		});
	});
};
