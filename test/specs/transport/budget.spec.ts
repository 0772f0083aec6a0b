import { StaffOpsApiClient } from "../../../src/api/apiClient";
import { RequestBudget, RequestPriority } from "../../../src/transport/budget";
import { StaffOpsError } from "../../../src/transport/staffOpsError";
import { FakeHttp, FakeScheduler, SAMPLE } from "../../support/fakes";
import { busiestMinute } from "../../support/windows";

export = () => {
	describe("RequestBudget", () => {
		it("lets a burst through at once, then paces to the rate", () => {
			const clock = new FakeScheduler();
			const budget = new RequestBudget({ perMinute: 60, burst: 5 }, clock);
			let granted = 0;
			for (let i = 0; i < 10; i++) budget.acquire().andThen(() => (granted += 1));
			expect(granted).to.equal(5);
			// 55 more per minute: one every 60/55 s.
			clock.advance(60 / 55 + 0.001);
			expect(granted).to.equal(6);
			clock.advance(4 * (60 / 55));
			expect(granted).to.equal(10);
		});

		it("serves high before normal before low, first come first served within a priority", () => {
			const clock = new FakeScheduler();
			const budget = new RequestBudget({ perMinute: 60, burst: 1 }, clock);
			const order = new Array<string>();
			budget.acquire("low").andThen(() => order.push("first"));
			const queue: Array<[RequestPriority, string]> = [
				["low", "low1"],
				["normal", "normal1"],
				["low", "low2"],
				["high", "high1"],
				["normal", "normal2"],
				["high", "high2"],
			];
			for (const [priority, name] of queue) budget.acquire(priority).andThen(() => order.push(name));
			clock.runUntilIdle();
			expect(order.join(",")).to.equal("first,high1,high2,normal1,normal2,low1,low2");
		});

		it("refuses a request that waited longer than maxWait", () => {
			const clock = new FakeScheduler();
			const budget = new RequestBudget({ perMinute: 2, burst: 1, maxWait: 5 }, clock);
			budget.acquire();
			let refused: unknown;
			budget.acquire().catch((reason: unknown) => (refused = reason));
			clock.advance(4);
			expect(refused).never.to.be.ok();
			clock.advance(2);
			expect(refused).to.be.ok();
			expect(budget.getQueueLength()).to.equal(0);
		});

		it("stops all sending during a pause and restarts from an empty bucket", () => {
			const clock = new FakeScheduler();
			const budget = new RequestBudget({ perMinute: 120, burst: 10, maxWait: 600 }, clock);
			budget.pause(30);
			let granted = 0;
			for (let i = 0; i < 3; i++) budget.acquire("high").andThen(() => (granted += 1));
			clock.advance(29.9);
			expect(granted).to.equal(0);
			expect(budget.getPauseRemaining() > 0).to.equal(true);
			clock.advance(0.2);
			expect(granted).to.equal(0);
			clock.advance(60 / 110 + 0.01);
			expect(granted).to.equal(1);
		});

		it("holds a request while perMinute went out in the last minute, even with tokens in hand", () => {
			const clock = new FakeScheduler();
			const budget = new RequestBudget({ perMinute: 10, burst: 10, maxWait: 600 }, clock);
			const times = new Array<number>();
			for (let i = 0; i < 12; i++) budget.acquire().andThen(() => times.push(clock.now()));
			expect(times.size()).to.equal(10);
			// 30 s on, the bucket holds 5 tokens again, but the 60 s window is full until the first ten leave it: a
			// new request (which makes the budget look at its queue) does not go out either.
			clock.advance(30);
			budget.acquire().andThen(() => times.push(clock.now()));
			expect(times.size()).to.equal(10);
			clock.advance(29.9);
			expect(times.size()).to.equal(10);
			clock.advance(0.2);
			expect(times.size()).to.equal(13);
			expect(times[10] >= 60).to.equal(true);
		});

		it("gives up the place of a cancelled request", () => {
			const clock = new FakeScheduler();
			const budget = new RequestBudget({ perMinute: 60, burst: 1 }, clock);
			budget.acquire();
			const waiting = budget.acquire();
			expect(budget.getQueueLength()).to.equal(1);
			waiting.cancel();
			expect(budget.getQueueLength()).to.equal(0);
		});

		it("keeps a burst of 1,000 requests within perMinute in every minute", () => {
			const clock = new FakeScheduler();
			const budget = new RequestBudget({ perMinute: 250, burst: 20, maxWait: 3600 }, clock);
			const times = new Array<number>();
			for (let i = 0; i < 1000; i++) budget.acquire("normal").andThen(() => times.push(clock.now()));
			clock.runUntilIdle(3600, 0.25);
			expect(times.size()).to.equal(1000);
			expect(busiestMinute(times) <= 250).to.equal(true);
		});
	});

	describe("the budget shared by a client (1,000-request burst, fake clock)", () => {
		it("never sends more than the budget in any minute, and serves join reports before background reads", () => {
			const clock = new FakeScheduler();
			const http = new FakeHttp(clock, { status: 200, body: SAMPLE.timeOffList });
			const budget = new RequestBudget({ perMinute: 250, burst: 20, maxWait: 3600 }, clock);
			const client = new StaffOpsApiClient(
				{ baseUrl: "https://staff.example.com", apiKey: "k", budget },
				{ http, scheduler: clock, random: () => 0.5 },
			);
			let done = 0;
			let failed = 0;
			const lowDone = new Array<number>();
			for (let i = 0; i < 990; i++) {
				client.timeOff
					.list({ priority: "low" })
					.andThen(() => {
						done += 1;
						lowDone.push(clock.now());
					})
					.catch(() => (failed += 1));
			}
			// Ten join reports arrive a little later, behind 970 waiting background reads.
			clock.advance(10);
			http.always({ status: 200, body: SAMPLE.timeOffList });
			const joinDone = new Array<number>();
			for (let i = 0; i < 10; i++) {
				http.then({ status: 200, body: SAMPLE.join });
			}
			// The scripted join answers go to the next ten requests sent, which must be the joins.
			for (let i = 0; i < 10; i++) {
				client.activity
					.reportJoin({
						playerId: 1000 + i,
						safechat: false,
						username: `p${i}`,
						tzOffset: "+00:00",
						platform: "Desktop",
						gameId: "r1",
					})
					.andThen(() => joinDone.push(clock.now()))
					.catch((err: unknown) => {
						failed += 1;
						warn(tostring(err));
					});
			}
			clock.runUntilIdle(3600, 0.25);
			expect(failed).to.equal(0);
			expect(done).to.equal(990);
			expect(joinDone.size()).to.equal(10);
			expect(http.seen.size()).to.equal(1000);
			const sentAt = http.seen.map((request) => request.at);
			expect(busiestMinute(sentAt) <= 250).to.equal(true);
			// Every join went out within the next few tokens, long before the background reads drained.
			for (const at of joinDone) expect(at < 15).to.equal(true);
			expect(lowDone[lowDone.size() - 1] > 200).to.equal(true);
		});

		it("rejects with a budget error when a request cannot get a turn in time", () => {
			const clock = new FakeScheduler();
			const http = new FakeHttp(clock, { status: 200, body: SAMPLE.timeOffList });
			const budget = new RequestBudget({ perMinute: 2, burst: 1, maxWait: 1 }, clock);
			const client = new StaffOpsApiClient(
				{ baseUrl: "https://staff.example.com", apiKey: "k", budget },
				{ http, scheduler: clock },
			);
			client.timeOff.list();
			let caught: unknown;
			client.timeOff.list().catch((err: unknown) => (caught = err));
			clock.advance(2);
			expect(StaffOpsError.is(caught)).to.equal(true);
			const typed = caught as StaffOpsError;
			expect(typed.kind).to.equal("budget");
			expect(typed.operation).to.equal("listTimeOff");
			expect(typed.status).to.equal(0);
			expect(typed.attempts).to.equal(0);
			expect(http.seen.size()).to.equal(1);
		});
	});
};
