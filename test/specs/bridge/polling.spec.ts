import { harness } from "../../support/harness";
import { fakeRig, messagesOf } from "./support";
import { busiestMinute } from "../../support/windows";

function round(value: number, places = 2): string {
	return string.format(`%.${places}f`, value);
}

// Pacing on a fake clock: a fake service answers at once, so everything happens inside clock.advance.
export = () => {
	afterEach(() => harness.reset());

	describe("CallBridge: adaptive polling (fake clock)", () => {
		it("polls 2 s after a poll that brought messages and slows to 10 s when quiet", () => {
			const { bridge, clock, http } = fakeRig();
			http.open("c1");
			http.say("c1", "hello");
			const player = harness.players.add(2401);
			bridge.open(player, "c1");
			clock.advance(40);
			const times = http.requests.map((request) => request.at);
			expect(times.map((at) => round(at)).join(",")).to.equal("0.00,2.00,5.00,9.50,16.25,26.25,36.25");
			http.say("c1", "are you there?");
			clock.advance(10);
			// 46.25 brings the message, so the next poll comes 2 s later.
			const after = http.requests.map((request) => round(request.at));
			expect(after.join(",")).to.equal("0.00,2.00,5.00,9.50,16.25,26.25,36.25,46.25,48.25");
			bridge.destroy();
		});

		it("jitters every wait by its own draw, at most 10 %: wait = 2 s * (1 + 0.1 * (2 * draw - 1))", () => {
			const draws = [0, 0.999, 0.25, 0.75, 0.5];
			const used = new Array<number>();
			const { bridge, clock, http } = fakeRig(undefined, {
				random: () => {
					const draw = draws[used.size() % draws.size()];
					used.push(draw);
					return draw;
				},
			});
			http.open("c1");
			http.chatty.add("c1");
			bridge.open(harness.players.add(2402), "c1");
			clock.advance(30);
			const times = http.requests.map((request) => request.at);
			expect(times.size() >= 12).to.equal(true);
			// Each busy poll draws once for the wait that follows it: the i-th gap comes from the i-th draw.
			expect(used.size() >= times.size() - 1).to.equal(true);
			let shortest = math.huge;
			let longest = 0;
			for (let i = 1; i < times.size(); i++) {
				const gap = times[i] - times[i - 1];
				const expected = 2 * (1 + 0.1 * (2 * used[i - 1] - 1));
				expect(math.abs(gap - expected) < 1e-6).to.equal(true);
				shortest = math.min(shortest, gap);
				longest = math.max(longest, gap);
			}
			// Different draws, different waits: the whole ±10 % is used.
			expect(math.abs(shortest - 1.8) < 1e-6).to.equal(true);
			expect(longest > 2.19 && longest <= 2.2).to.equal(true);
			bridge.destroy();
		});

		it("costs 6 requests per minute for a quiet chat and 30 for a busy one (measured over 10 minutes)", () => {
			const quiet = fakeRig();
			quiet.http.open("quiet");
			quiet.bridge.open(harness.players.add(2403), "quiet");
			quiet.clock.advance(600);
			// The first minute ramps up from 2 s to 10 s; after that it is steady.
			const quietFirstMinute = quiet.http.count("quiet") - quiet.http.count("quiet", 60);
			const quietPerMinute = quiet.http.count("quiet", 60) / 9;

			const busy = fakeRig();
			busy.http.open("busy");
			busy.http.chatty.add("busy");
			const busyPlayer = harness.players.add(2404);
			busy.bridge.open(busyPlayer, "busy");
			busy.clock.advance(599);
			const busyPerMinute = busy.http.count("busy") / 10;

			print(
				`[bridge cost] quiet chat: ${quietFirstMinute} requests in its first minute, then ${round(quietPerMinute)}/min;` +
					` busy chat: ${round(busyPerMinute)}/min`,
			);
			expect(quietFirstMinute).to.equal(8);
			expect(quietPerMinute).to.equal(6);
			expect(busyPerMinute).to.equal(30);
			// Every busy poll delivered its message: 300 of them, in order.
			const seqs = messagesOf(busyPlayer, busy.remote).map((message) => message.seq);
			expect(seqs.size()).to.equal(300);
			expect(seqs[299]).to.equal(300);
			quiet.bridge.destroy();
			busy.bridge.destroy();
		});

		it("costs about the same with real jitter (random draws)", () => {
			const { bridge, clock, http } = fakeRig(undefined, { random: () => math.random() });
			http.open("quiet");
			bridge.open(harness.players.add(2405), "quiet");
			clock.advance(1260);
			const perMinute = http.count("quiet", 60) / 20;
			expect(perMinute > 5.4 && perMinute < 6.7).to.equal(true);
			bridge.destroy();
		});
	});

	describe("CallBridge: sharing the request budget (fake clock)", () => {
		it("keeps 40 busy chats within a 60/min budget, each polled about as often as the others", () => {
			const { bridge, budget, clock, http } = fakeRig({ perMinute: 60, burst: 5, maxWait: 60 });
			const players = new Array<Player>();
			for (let i = 1; i <= 40; i++) {
				http.open(`c${i}`);
				http.chatty.add(`c${i}`);
				const player = harness.players.add(2500 + i);
				players.push(player);
				bridge.open(player, `c${i}`);
			}
			clock.advance(600);
			const times = http.requests.map((request) => request.at);
			expect(busiestMinute(times) <= budget.getPerMinute()).to.equal(true);
			// The bridge plans half the budget: 30/min for 40 chats, one poll per chat every 80 s. A window of 9 minutes
			// cut from a steady schedule holds at most one poll more per chat than the plan: 30 + 40 / 9 a minute.
			const perMinute = times.filter((at) => at >= 60).size() / 9;
			expect(perMinute <= 30 + 40 / 9).to.equal(true);
			let fewest = math.huge;
			let most = 0;
			for (let i = 1; i <= 40; i++) {
				const count = http.count(`c${i}`);
				fewest = math.min(fewest, count);
				most = math.max(most, count);
			}
			print(
				`[bridge cost] 40 busy chats, 60/min budget: ${busiestMinute(times)} in the busiest minute,` +
					` ${round(perMinute)}/min on average; ${fewest}..${most} polls per chat in 10 min`,
			);
			expect(fewest >= 6).to.equal(true);
			expect(most - fewest <= 2).to.equal(true);
			expect(bridge.getStats().failedPolls).to.equal(0);
			bridge.destroy();
		});

		it("leaves the rest of the budget to game code while many chats are open", () => {
			const { bridge, budget, clock, http } = fakeRig({ perMinute: 60, burst: 5, maxWait: 60 });
			for (let i = 1; i <= 40; i++) {
				http.open(`c${i}`);
				http.chatty.add(`c${i}`);
				bridge.open(harness.players.add(2600 + i), `c${i}`);
			}
			clock.advance(300);
			let waited = -1;
			const asked = clock.now();
			budget.acquire("normal").andThen(() => (waited = clock.now() - asked));
			clock.advance(10);
			expect(waited >= 0 && waited <= 2).to.equal(true);
			bridge.destroy();
		});

		it("never exceeds the budget even when the bridge may use all of it", () => {
			const { bridge, budget, clock, http } = fakeRig(
				{ perMinute: 30, burst: 3, maxWait: 60 },
				{ polling: { budgetShare: 1 } },
			);
			for (let i = 1; i <= 20; i++) {
				http.open(`c${i}`);
				http.chatty.add(`c${i}`);
				bridge.open(harness.players.add(2700 + i), `c${i}`);
			}
			clock.advance(600);
			const times = http.requests.map((request) => request.at);
			expect(busiestMinute(times) <= budget.getPerMinute()).to.equal(true);
			for (let i = 1; i <= 20; i++) expect(http.count(`c${i}`) >= 8).to.equal(true);
			bridge.destroy();
		});

		it("keeps one request in flight per chat: a hanging call does not hold up the others", () => {
			const { bridge, clock, http } = fakeRig();
			http.open("stuck");
			http.open("fine");
			http.chatty.add("fine");
			http.hanging.add("stuck");
			const stuckPlayer = harness.players.add(2801);
			bridge.open(stuckPlayer, "stuck");
			bridge.open(harness.players.add(2802), "fine");
			clock.advance(60);
			// The transport gives up on each stuck request after 10 s, then the chat backs off with full jitter (the
			// middle draw: 2.5 s, 5 s, 10 s, ...): requests at 0, 12.5, 27.5 and 47.5 s.
			const stuck = http.requests.filter((request) => request.callId === "stuck").map((request) => request.at);
			expect(stuck.map((at) => round(at)).join(",")).to.equal("0.00,12.50,27.50,47.50");
			// The busy chat meanwhile keeps its 2 s pace: 0, 2, ..., 60.
			const fine = http.requests.filter((request) => request.callId === "fine").map((request) => request.at);
			expect(fine.size()).to.equal(31);
			for (let i = 1; i < fine.size(); i++) expect(math.abs(fine[i] - fine[i - 1] - 2) < 1e-6).to.equal(true);
			expect(bridge.getChats(stuckPlayer)[0].getState()).to.equal("connecting");
			bridge.destroy();
		});
	});

	describe("CallBridge: long transcripts (fake clock)", () => {
		it("shows only the newest 50 messages of a long transcript when the chat opens (20 per poll), then every new one", () => {
			const { bridge, clock, http, remote } = fakeRig();
			http.open("long");
			for (let i = 1; i <= 120; i++) http.say("long", `m${i}`);
			const player = harness.players.add(2451);
			bridge.open(player, "long");
			// At most 20 per poll; the rest follow on the next polls, 2 s apart.
			expect(messagesOf(player, remote).size()).to.equal(20);
			clock.advance(2);
			expect(messagesOf(player, remote).size()).to.equal(40);
			clock.advance(2);
			const first = messagesOf(player, remote);
			expect(first.size()).to.equal(50);
			expect(first[0].text).to.equal("m71");
			expect(first[49].text).to.equal("m120");
			http.say("long", "new");
			clock.advance(2);
			const all = messagesOf(player, remote);
			expect(all.size()).to.equal(51);
			expect(all[50].text).to.equal("new");
			expect(all[50].seq).to.equal(51);
			bridge.destroy();
		});
	});
};
