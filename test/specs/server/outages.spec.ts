import { HttpService } from "@rbxts/services";
import { StaffOpsApiClient } from "../../../src/api/apiClient";
import type { RunningGameAnswer } from "../../../src/api/resources/games";
import { RECOVERY_QUIET } from "../../../src/background/log";
import { StaffOps } from "../../../src/server";
import { RequestBudget } from "../../../src/transport/budget";
import type { HttpServiceLike } from "../../../src/transport/httpDoor";
import { FakeScheduler, RecordingHttp } from "../../support/fakes";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { allOutput, cleanUp, freshStart, linesWith, specClient, warnings } from "./support";
import { waitSeconds, waitUntil } from "../../support/waits";

// Issue 24, points 5 and 3: a service that fails on and off is one outage (one warning, one recovery line once
// success has held), and players the service keeps leaving out are reported again a bounded number of times.

/** Moves the clock `seconds` in steps of `step`, letting real HTTP round trips land between steps. */
function run(clock: FakeScheduler, seconds: number, step = 1): void {
	for (let elapsed = 0; elapsed < seconds; elapsed += step) {
		clock.advance(step);
		waitSeconds(0.012);
	}
}

/** HttpService that answers every other playerJoin with a 503 of its own (that request never reaches the service). */
class FlappingJoins implements HttpServiceLike {
	joins = 0;
	refused = 0;
	private readonly inner: RecordingHttp;

	constructor(clock: FakeScheduler) {
		this.inner = new RecordingHttp(clock);
	}

	RequestAsync(options: RequestAsyncRequest): RequestAsyncResponse {
		if ((options.Url as string).find("/activity/playerJoin", 1, true)[0] !== undefined) {
			this.joins += 1;
			if (this.joins % 2 === 0) {
				this.refused += 1;
				return {
					Success: false,
					StatusCode: 503,
					StatusMessage: "Service Unavailable",
					Headers: { "content-type": "application/json" },
					Body: '{"success":false,"message":"flapping"}',
				};
			}
		}
		return this.inner.RequestAsync(options);
	}

	JSONEncode(input: unknown): string {
		return HttpService.JSONEncode(input);
	}

	JSONDecode(input: string): unknown {
		return HttpService.JSONDecode(input);
	}
}

/** A client whose heartbeat reads never list the players in `leftOut`. */
function leavingOut(leftOut: Set<string>): StaffOpsApiClient {
	const client = specClient();
	const games = client.games;
	(client as unknown as { games: typeof games }).games = {
		getRunning(id, options) {
			return games.getRunning(id, options).andThen((answer): RunningGameAnswer => {
				const running = answer.runningGame!;
				return {
					success: true,
					runningGame: {
						...running,
						players: (running.players ?? []).filter((userId) => !leftOut.has(userId)),
					},
					players: (answer.players ?? []).filter((player) => !leftOut.has(player.userId ?? "")),
				};
			});
		},
	};
	return client;
}

export = () => {
	beforeEach(() => freshStart());
	afterEach(() => cleanUp());

	describe("one outage, one warning (point 5)", () => {
		it("joins failing every other request for 300 players: one warning, one recovery line once it holds", () => {
			const clock = new FakeScheduler();
			const http = new FlappingJoins(clock);
			const server = StaffOps.start(
				{
					baseUrl: harness.serviceUrl,
					apiKey: harness.serviceKey,
					budget: new RequestBudget({ perMinute: 100_000, burst: 10_000 }, clock),
					clientReportTimeoutSeconds: 0,
				},
				{ scheduler: clock, random: () => 0.5, transport: { http, scheduler: clock, random: () => 0.5 } },
			)!;
			waitUntil(() => server.isRegistered(), "registration");
			for (let i = 1; i <= 300; i++) harness.players.add(4000 + i);
			waitSeconds(0.2);
			run(clock, 600);
			waitUntil(() => serviceControl.records().sessionsByUser["4300"] === 1, "the last join", 20);
			const failing = linesWith(allOutput(), "join reports are failing").size();
			const again = linesWith(allOutput(), "join reports reach the service again").size();
			print(
				`[flapping joins] 300 players, every other join answered 503: ${http.joins} join requests ` +
					`(${http.refused} refused), ${failing} "failing" and ${again} "again" lines`,
			);
			let sessions = 0;
			for (let i = 1; i <= 300; i++)
				if (serviceControl.records().sessionsByUser[tostring(4000 + i)] === 1) sessions++;
			expect(sessions).to.equal(300);
			expect(http.refused >= 10).to.equal(true);
			expect(failing).to.equal(1);
			expect(again).to.equal(1);
		});

		it("does not say the service is reached again before success has held, nor warn again meanwhile", () => {
			const clock = new FakeScheduler();
			const http = new FlappingJoins(clock);
			const server = StaffOps.start(
				{
					baseUrl: harness.serviceUrl,
					apiKey: harness.serviceKey,
					budget: new RequestBudget({ perMinute: 100_000, burst: 10_000 }, clock),
					clientReportTimeoutSeconds: 0,
				},
				{ scheduler: clock, random: () => 0.5, transport: { http, scheduler: clock, random: () => 0.5 } },
			)!;
			waitUntil(() => server.isRegistered(), "registration");
			harness.players.add(4401);
			harness.players.add(4402);
			waitUntil(() => server.getFailureCounts().joins >= 1, "the refused join handled");
			const failedAt = clock.now();
			const both = () =>
				serviceControl.records().sessionsByUser["4401"] === 1 &&
				serviceControl.records().sessionsByUser["4402"] === 1;
			while (!both() && clock.now() - failedAt < 60) run(clock, 1);
			expect(both()).to.equal(true);
			// The retry worked, but success has not held for the quiet period yet: no recovery line.
			expect(clock.now() - failedAt < RECOVERY_QUIET).to.equal(true);
			expect(linesWith(allOutput(), "join reports reach the service again").size()).to.equal(0);
			run(clock, RECOVERY_QUIET);
			expect(linesWith(allOutput(), "join reports reach the service again").size()).to.equal(1);
			expect(linesWith(warnings(), "join reports are failing").size()).to.equal(1);

			// Only after that recovery does a new failure warn again.
			harness.players.add(4403);
			harness.players.add(4404);
			waitUntil(() => http.refused === 2, "the second refused join");
			waitUntil(() => linesWith(warnings(), "join reports are failing").size() === 2, "a new warning");
		});

		it("a mix of rank-read failures for 50 players: one warning, one recovery line", () => {
			const clock = new FakeScheduler();
			let reads = 0;
			const server = StaffOps.start(
				{
					baseUrl: harness.serviceUrl,
					apiKey: harness.serviceKey,
					budget: new RequestBudget({ perMinute: 100_000, burst: 10_000 }, clock),
					clientReportTimeoutSeconds: 0,
					staffHint: { groupId: 5012345, minRank: 200 },
				},
				{
					scheduler: clock,
					random: () => 0.5,
					canChat: () => true,
					rankOf: (player) => {
						reads += 1;
						// Two fail (an error, then no number), one reads: a mix, never two alike in a row for long.
						if (reads % 3 === 0) error("HTTP 500 (Internal Server Error)");
						if (reads % 3 === 1) return "rank?" as unknown as number;
						return player.UserId === 4550 ? 250 : 0;
					},
				},
			)!;
			waitUntil(() => server.isRegistered(), "registration");
			for (let i = 1; i <= 50; i++) harness.players.add(4500 + i);
			waitUntil(() => serviceControl.count("playerJoin") === 50, "the 50 joins");
			const before = linesWith(allOutput(), "group rank").size();
			// The last read worked; once no read has failed for the quiet period, one line says so.
			run(clock, RECOVERY_QUIET);
			const lines = linesWith(allOutput(), "group rank");
			print(
				`[rank mix] 50 players, 2 of 3 rank reads failing: ${lines.size()} rank lines (${before} before quiet)`,
			);
			expect(reads).to.equal(50);
			expect(linesWith(warnings(), "could not read a group rank").size()).to.equal(1);
			expect(before).to.equal(1);
			expect(linesWith(allOutput(), "group ranks are read again").size()).to.equal(1);
			expect(lines.size()).to.equal(2);
		});
	});

	describe("players the service keeps leaving out (point 3)", () => {
		it("the same 100 of 200 left out of every list: each reported again at most twice an hour, one warning", () => {
			const clock = new FakeScheduler();
			const http = new RecordingHttp(clock);
			const leftOut = new Set<string>();
			for (let i = 1; i <= 200; i += 2) leftOut.add(tostring(5000 + i));
			const server = StaffOps.start(
				{
					baseUrl: harness.serviceUrl,
					apiKey: harness.serviceKey,
					budget: new RequestBudget({ perMinute: 100_000, burst: 10_000 }, clock),
					clientReportTimeoutSeconds: 0,
				},
				{
					scheduler: clock,
					random: () => 0.5,
					client: leavingOut(leftOut),
					transport: { http, scheduler: clock, random: () => 0.5 },
				},
			)!;
			waitUntil(() => server.isRegistered(), "registration");
			for (let i = 1; i <= 200; i++) harness.players.add(5000 + i);
			waitUntil(() => serviceControl.count("playerJoin") === 200, "the 200 joins");

			run(clock, 1800, 5);
			const halfHour = serviceControl.count("playerJoin");
			run(clock, 1800, 5);
			waitSeconds(0.2);
			const hour = serviceControl.count("playerJoin");
			let most = 0;
			let listedAgain = 0;
			for (let i = 1; i <= 200; i++) {
				const joins = serviceControl.records().joinsByUser[tostring(5000 + i)] ?? 0;
				most = math.max(most, joins);
				if (!leftOut.has(tostring(5000 + i)) && joins > 1) listedAgain++;
			}
			print(
				`[left out] 100 of 200 players never listed: ${halfHour} join requests in 30 min, ${hour} in 60 min, ` +
					`at most ${most} joins for one player`,
			);
			expect(halfHour <= 300).to.equal(true);
			// The first join, then at most 2 reports again in the hour.
			expect(most <= 3).to.equal(true);
			expect(hour > 200).to.equal(true);
			expect(listedAgain).to.equal(0);
			expect(linesWith(warnings(), "still does not list").size()).to.equal(1);
		});
	});
};
