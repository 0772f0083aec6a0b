import { HttpService } from "@rbxts/services";
import { HealthLog, RECOVERY_QUIET } from "../../../src/background/log";
import { StaffOps } from "../../../src/server";
import { RequestBudget } from "../../../src/transport/budget";
import type { HttpServiceLike } from "../../../src/transport/httpDoor";
import { FakeScheduler, RecordingHttp } from "../../support/fakes";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { allOutput, cleanUp, freshStart, linesWith, warnings } from "./support";
import { waitSeconds, waitUntil } from "../../support/waits";

// Issue 24, point 5: a service that fails on and off is one outage. The first failure of an area warns; the area
// says it recovered only once it has worked for RECOVERY_QUIET seconds of library time without failing.

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
	/** When the last join was refused (library seconds). */
	lastRefusedAt = 0;
	private readonly inner: RecordingHttp;

	constructor(private readonly clock: FakeScheduler) {
		this.inner = new RecordingHttp(clock);
	}

	RequestAsync(options: RequestAsyncRequest): RequestAsyncResponse {
		if ((options.Url as string).find("/activity/playerJoin", 1, true)[0] !== undefined) {
			this.joins += 1;
			if (this.joins % 2 === 0) {
				this.refused += 1;
				this.lastRefusedAt = this.clock.now();
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

/** Starts StaffOps on `clock` with joins going through `http`, and waits for the registration. */
function startFlapping(clock: FakeScheduler, http: HttpServiceLike): void {
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
}

/** How many of `userIds` the service holds a session for (one read of its records). */
function withSession(userIds: Array<number>): number {
	const sessions = serviceControl.records().sessionsByUser;
	return userIds.filter((userId) => (sessions[tostring(userId)] ?? 0) >= 1).size();
}

export = () => {
	beforeEach(() => freshStart());
	afterEach(() => cleanUp());

	describe("the health log's hysteresis", () => {
		it("an area failing every other time is one outage: one warning, one recovery line a quiet minute later", () => {
			const clock = new FakeScheduler();
			const health = new HealthLog(clock);
			for (let i = 0; i < 100; i++) {
				health.problem("joins", "joins failing");
				clock.advance(1);
				health.recovered("joins", "joins work again");
				clock.advance(1);
			}
			expect(linesWith(warnings(), "joins failing").size()).to.equal(1);
			expect(linesWith(allOutput(), "joins work again").size()).to.equal(0);
			// The last failure was 2 s ago: the recovery line waits for the rest of the quiet period.
			clock.advance(RECOVERY_QUIET - 2.5);
			expect(linesWith(allOutput(), "joins work again").size()).to.equal(0);
			expect(health.isFailing("joins")).to.equal(true);
			clock.advance(0.5);
			expect(linesWith(allOutput(), "joins work again").size()).to.equal(1);
			expect(health.isFailing("joins")).to.equal(false);
			// A failure after the outage ended is a new outage, with its own warning.
			health.problem("joins", "joins failing");
			expect(linesWith(warnings(), "joins failing").size()).to.equal(2);
			// A stopped log prints no recovery line still on the clock.
			health.recovered("joins", "joins work again");
			health.stop();
			clock.advance(RECOVERY_QUIET);
			expect(linesWith(allOutput(), "joins work again").size()).to.equal(1);
		});
	});

	describe("joins failing every other request", () => {
		it("60 players: every one joins once, with one warning and one recovery line", () => {
			const clock = new FakeScheduler();
			const http = new FlappingJoins(clock);
			startFlapping(clock, http);
			const userIds = new Array<number>();
			for (let i = 1; i <= 60; i++) userIds.push(4000 + i);
			for (const userId of userIds) harness.players.add(userId);
			waitSeconds(0.2);
			// At most 10 library minutes; each step lets the answers land.
			while (withSession(userIds) < 60 && clock.now() < 600) run(clock, 10);
			const doneAt = clock.now();
			const failing = () => linesWith(warnings(), "join reports are failing").size();
			const again = () => linesWith(allOutput(), "join reports reach the service again").size();
			run(clock, RECOVERY_QUIET, 2);
			print(
				`[flapping joins] 60 players, every other join answered 503: ${http.joins} join requests ` +
					`(${http.refused} refused) in ${doneAt} library s; ${failing()} "failing" and ${again()} ` +
					`"again" lines`,
			);
			expect(withSession(userIds)).to.equal(60);
			expect(serviceControl.count("playerJoin")).to.equal(60);
			expect(http.refused >= 30).to.equal(true);
			expect(failing()).to.equal(1);
			expect(again()).to.equal(1);
		});

		it("a retry that works within a minute of a refusal prints nothing; the line comes a quiet minute later", () => {
			const clock = new FakeScheduler();
			const http = new FlappingJoins(clock);
			startFlapping(clock, http);
			harness.players.add(4401);
			harness.players.add(4402);
			waitUntil(() => http.refused === 1, "the refused join");
			const both = () => withSession([4401, 4402]) === 2;
			while (!both() && clock.now() < 30) run(clock, 1);
			expect(both()).to.equal(true);
			expect(linesWith(warnings(), "join reports are failing").size()).to.equal(1);
			expect(linesWith(allOutput(), "join reports reach the service again").size()).to.equal(0);
			run(clock, RECOVERY_QUIET - clock.now() + http.lastRefusedAt - 1);
			expect(linesWith(allOutput(), "join reports reach the service again").size()).to.equal(0);
			run(clock, 2);
			expect(linesWith(allOutput(), "join reports reach the service again").size()).to.equal(1);
			expect(serviceControl.count("playerJoin")).to.equal(2);
		});
	});

	describe("rank reads failing in a mix", () => {
		it("50 players, 2 of 3 reads failing two ways: one warning, then one recovery line", () => {
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
					rankOf: () => {
						reads += 1;
						// No number, then a rank, then an error: failures and successes interleaved.
						if (reads % 3 === 0) error("HTTP 500 (Internal Server Error)");
						if (reads % 3 === 1) return "rank?" as unknown as number;
						return 0;
					},
				},
			)!;
			waitUntil(() => server.isRegistered(), "registration");
			for (let i = 1; i <= 50; i++) harness.players.add(4500 + i);
			waitUntil(() => serviceControl.count("playerJoin") === 50, "the 50 joins");
			const before = linesWith(allOutput(), "group rank").size();
			run(clock, RECOVERY_QUIET, 5);
			const lines = linesWith(allOutput(), "group rank").size();
			print(`[rank mix] 50 players, 2 of 3 rank reads failing: ${lines} rank lines (${before} before the quiet)`);
			expect(reads).to.equal(50);
			expect(before).to.equal(1);
			expect(linesWith(warnings(), "could not read a group rank").size()).to.equal(1);
			expect(linesWith(allOutput(), "group ranks are read again").size()).to.equal(1);
			expect(lines).to.equal(2);
		});
	});
};
