import { BridgeMessage } from "../../../src/bridge/types";
import { harness } from "../../support/harness";
import { FakeScheduler } from "../../support/fakes";
import { fakeRig, messagesOf, ScriptedMessage, scriptedRig, transcript } from "./support";
import { waitUntil } from "../../support/waits";

const CAP = 20;
const WINDOW = 500;

function ms(seconds: number): string {
	return string.format("%.2f ms", seconds * 1000);
}

/** A fake clock that tells when the bridge schedules a poll: the end of the bridge's work on an answer. */
class MarkingScheduler extends FakeScheduler {
	onDelay?: () => void;

	delay(seconds: number, callback: () => void): void {
		this.onDelay?.();
		super.delay(seconds, callback);
	}
}

/** What one look at the bridge's work clock costs: about 32 cheap items or one delivered message. */
const LOOK_COST = 0.00025;

/**
 * Runs `polls` polls of a chat over `answer` and returns the longest stretch of the bridge's own work between two
 * yields (from the moment a request is answered until it yields or schedules the next poll), and the yields.
 * Stretches are measured on a work clock that moves by {@link LOOK_COST} each time the bridge looks at it, never on
 * the machine's clock: the figure is the same on a busy machine, and the wall-clock figure is the bench's
 * (lune/bench/call-slices.luau).
 */
function longestBlock(
	answer: (poll: number) => { status: string; messages: ReadonlyArray<ScriptedMessage> },
	polls: number,
	userId: number,
): [longest: number, yields: number, delivered: number] {
	const clock = new MarkingScheduler();
	let work = 0;
	let started = 0;
	let longest = 0;
	let yields = 0;
	const stretch = () => (longest = math.max(longest, work - started));
	const rig = scriptedRig(
		answer,
		{
			yieldSlice: () => {
				stretch();
				yields += 1;
				task.wait();
				started = work;
			},
			workClock: () => (work += LOOK_COST),
			// Roblox's text filter yields: the bridge's stretch ends there and starts again after it.
			filter: (text) => {
				stretch();
				started = work;
				return text;
			},
		},
		clock,
	);
	rig.calls.onPoll = () => (started = work);
	clock.onDelay = stretch;
	const player = harness.players.add(userId);
	rig.bridge.open(player, "long");
	// One poll per step: a step ends when the poll's work is done, and moves the clock to the next poll.
	while (rig.calls.polls < polls) {
		waitUntil(() => rig.bridge.getStats().busy === 0, "the poll to finish", 10);
		const before = rig.calls.polls;
		// Bounded, and yielding while no poll has gone out: a poll scheduled from a resumed thread needs a frame to
		// exist, and a loop that never yields would spin on the clock for ever (the runner's timeout could not fire).
		for (let step = 0; rig.calls.polls === before; step++) {
			if (step >= 600) error(`no poll within 300 s of the spec clock after poll ${before}`);
			rig.clock.advance(0.5);
			if (rig.calls.polls === before) task.wait();
		}
	}
	waitUntil(() => rig.bridge.getStats().busy === 0, "the poll to finish", 10);
	const delivered = rig.bridge.getStats().delivered;
	rig.bridge.destroy();
	harness.players.remove(player);
	return [longest, yields, delivered];
}

// Bounded work whatever the transcript: a per-poll cap, a bounded memory, slices that give the frame back, each
// message filtered once, no limiter entry left behind, and a refused key that pauses instead of closing.
export = () => {
	afterEach(() => harness.reset());

	describe("CallBridge: bounded delivery (scripted transcripts)", () => {
		it("delivers at most 20 messages per poll when every poll changes every id, with filter calls to match", () => {
			// 100 messages whose ids change on every poll (the same texts under new ids).
			const rig = scriptedRig((poll) => ({ status: "open", messages: transcript(`p${poll}-`, 100) }));
			const perPoll = new Array<number>();
			let delivered = 0;
			let counted = 0;
			rig.bridge.message.Connect(() => (delivered += 1));
			rig.calls.onPoll = () => {
				if (rig.calls.polls > 1) perPoll.push(delivered - counted);
				counted = delivered;
			};
			rig.bridge.open(harness.players.add(3001), "changing");
			rig.clock.advance(600);
			let most = 0;
			for (const count of perPoll) most = math.max(most, count);
			print(
				`[bridge bounded] changing ids: ${rig.calls.polls} polls in 10 min, ${delivered} delivered` +
					` (at most ${most} per poll), ${rig.filterCalls()} filter calls`,
			);
			expect(most).to.equal(CAP);
			expect(rig.calls.polls >= 290).to.equal(true);
			expect(delivered <= CAP * rig.calls.polls).to.equal(true);
			// One sender name, filtered once; one text per delivered message.
			expect(rig.filterCalls()).to.equal(delivered + 1);
			const memory = rig.bridge.getMemory();
			expect(memory.deliveredIds <= WINDOW).to.equal(true);
			expect(memory.replay <= 100).to.equal(true);
			rig.bridge.destroy();
		});

		it("keeps the delivered-id window and the sender cache bounded over 3,000 messages, each delivered once", () => {
			// 30 new messages per poll from 1,000 different senders: more than a poll may deliver.
			const rig = scriptedRig((poll) => ({ status: "open", messages: transcript("m", 30 * poll, 1000) }));
			const ids = new Array<string>();
			rig.bridge.message.Connect((_, message) => ids.push(message.id));
			const player = harness.players.add(3002);
			rig.bridge.open(player, "growing");
			let largest = 0;
			for (let i = 0; i < 100; i++) {
				rig.clock.advance(2);
				largest = math.max(largest, rig.bridge.getMemory().deliveredIds);
			}
			const memory = rig.bridge.getMemory();
			print(
				`[bridge bounded] 3,000+ messages: ${ids.size()} delivered in ${rig.calls.polls} polls; ` +
					`${memory.deliveredIds} ids, ${memory.senders} sender names, ${memory.replay} replay entries held`,
			);
			expect(largest).to.equal(WINDOW);
			expect(memory.senders <= 50).to.equal(true);
			expect(memory.replay).to.equal(100);
			// In transcript order, no id twice: the newest 50 of the first answer, then every later one.
			expect(ids.size()).to.equal(CAP * rig.calls.polls);
			expect(ids[0]).to.equal("m1");
			for (let i = 1; i < ids.size(); i++) {
				expect(tonumber(ids[i].sub(2))).to.equal(tonumber(ids[i - 1].sub(2))! + 1);
			}
			const seqs = messagesOf(player, rig.remote).map((message) => message.seq);
			expect(seqs[seqs.size() - 1]).to.equal(ids.size());
			rig.bridge.destroy();
		});

		it("filters each message once across polls, also when the transcript drops its oldest messages", () => {
			let calls = new Map<string, number>();
			let failedOnce = false;
			let messages = transcript("m", 30);
			const rig = scriptedRig(() => ({ status: "open", messages }), {
				filter: (text) => {
					calls.set(text, (calls.get(text) ?? 0) + 1);
					if (text === "text 25" && !failedOnce) {
						failedOnce = true;
						error("TextService: Filtering failed");
					}
					return text;
				},
			});
			const delivered = new Array<BridgeMessage>();
			rig.bridge.message.Connect((_, message) => delivered.push(message));
			rig.bridge.open(harness.players.add(3003), "once");
			for (let i = 0; i < 20; i++) rig.clock.advance(11);
			expect(delivered.size()).to.equal(30);
			// One name, 30 texts, and one more for the text whose first filtering failed.
			let total = 0;
			for (const [text, count] of calls) {
				total += count;
				expect(count).to.equal(text === "text 25" ? 2 : 1);
			}
			expect(total).to.equal(32);
			// The service drops its 10 oldest messages (every position moves) and adds 5.
			calls = new Map();
			messages = [...transcript("m", 20, 1, 11), ...transcript("m", 5, 1, 31)];
			for (let i = 0; i < 20; i++) rig.clock.advance(11);
			expect(delivered.size()).to.equal(35);
			expect(delivered.map((message) => message.id).join(",")).to.equal(
				[...transcript("m", 35)].map((message) => message.id).join(","),
			);
			let again = 0;
			for (const [, count] of calls) again += count;
			expect(again).to.equal(5);
			rig.bridge.destroy();
		});

		it("delivers what the cap held back after the call ended, then closes", () => {
			const rig = scriptedRig((poll) => ({
				status: poll === 1 ? "open" : "closed",
				messages: transcript("m", poll === 1 ? 5 : 50),
			}));
			const reasons = new Array<string>();
			rig.bridge.closed.Connect((_, reason) => reasons.push(reason));
			rig.bridge.open(harness.players.add(3004), "ending");
			rig.clock.advance(60);
			expect(rig.bridge.getStats().delivered).to.equal(50);
			expect(rig.calls.polls).to.equal(4);
			expect(reasons.join(",")).to.equal("ended");
		});

		it("closes an ended call whose ids keep changing after a few polls", () => {
			const rig = scriptedRig((poll) => ({
				status: poll === 1 ? "open" : "closed",
				messages: transcript(`p${poll}-`, 100),
			}));
			const reasons = new Array<string>();
			rig.bridge.closed.Connect((_, reason) => reasons.push(reason));
			rig.bridge.open(harness.players.add(3005), "ending");
			rig.clock.advance(120);
			expect(reasons.join(",")).to.equal("ended");
			expect(rig.calls.polls <= 7).to.equal(true);
		});
	});

	describe("CallBridge: long transcripts never block a frame (scripted, work clock)", () => {
		const base = transcript("m", 10_000);

		it("handles a 10,000-message transcript in stretches of at most 5 ms", () => {
			// Stable ids, 10 new messages per poll.
			const answers = new Array<Array<ScriptedMessage>>();
			for (let poll = 1; poll <= 8; poll++) answers.push([...base, ...transcript("new", 10 * poll, 1, 1)]);
			const [longest, , delivered] = longestBlock(
				(poll) => ({ status: "open", messages: answers[poll - 1] }),
				8,
				3101,
			);
			print(`[bridge bounded] 10,000 messages, stable ids: longest block ${ms(longest)}, ${delivered} delivered`);
			expect(longest <= 0.005).to.equal(true);
			// The newest 50 of the first answer, then 10 new per poll: 120 in all, at most 20 per poll.
			expect(delivered).to.equal(50 + 70);
		});

		it("handles 10,000 messages whose ids all change on every poll in slices of at most 5 ms", () => {
			const answers = new Array<Array<ScriptedMessage>>();
			for (let poll = 1; poll <= 6; poll++) answers.push(transcript(`p${poll}-`, 10_000));
			const [longest, yields, delivered] = longestBlock(
				(poll) => ({ status: "open", messages: answers[poll - 1] }),
				6,
				3102,
			);
			print(
				`[bridge bounded] 10,000 messages, ids changing: longest block ${ms(longest)}, ${yields} yields,` +
					` ${delivered} delivered in 6 polls`,
			);
			expect(longest <= 0.005).to.equal(true);
			// Each poll scans 10,000 ids it has never seen: about 40 ms of work on this clock, so 25 or more slices.
			expect(yields >= 6 * 25).to.equal(true);
			expect(delivered).to.equal(6 * CAP);
		});

		it("skips 10,000 empty messages in slices of at most 5 ms", () => {
			const empty = new Array<ScriptedMessage>();
			for (let i = 1; i <= 10_000; i++) empty.push({ id: `e${i}` });
			const first = transcript("m", 3);
			const later = [...first, ...empty, ...transcript("m", 1, 1, 4)];
			const [longest, , delivered] = longestBlock(
				(poll) => ({ status: "open", messages: poll === 1 ? first : later }),
				3,
				3103,
			);
			print(`[bridge bounded] 10,000 empty messages: longest block ${ms(longest)}`);
			expect(longest <= 0.005).to.equal(true);
			expect(delivered).to.equal(4);
		});
	});

	describe("CallBridge: a refused key (fake service)", () => {
		it("keeps chats open through a 10-minute 401, polls at the longest backoff, warns once, and recovers", () => {
			const { bridge, clock, http, remote } = fakeRig();
			const players = new Array<Player>();
			for (let i = 1; i <= 3; i++) {
				http.open(`c${i}`);
				http.say(`c${i}`, "hello");
				players.push(harness.players.add(3200 + i));
				bridge.open(players[i - 1], `c${i}`);
			}
			clock.advance(30);
			harness.clearOutput();
			for (let i = 1; i <= 3; i++) {
				const statuses = new Array<number>();
				for (let j = 0; j < 1000; j++) statuses.push(401);
				http.failures.set(`c${i}`, statuses);
			}
			const outageStart = clock.now();
			clock.advance(600);
			for (let i = 1; i <= 3; i++) {
				const times = http.requests.filter((r) => r.callId === `c${i}` && r.at >= outageStart).map((r) => r.at);
				// The first failure comes at the chat's usual pace, then one poll about every 60 s (54..60 s).
				for (let j = 2; j < times.size(); j++) expect(times[j] - times[j - 1] >= 54 - 1e-6).to.equal(true);
				if (i === 1)
					print(`[bridge bounded] 10 min of 401: ${times.size()} polls per chat, at ${times.join(", ")}`);
				expect(times.size() >= 10 && times.size() <= 12).to.equal(true);
			}
			expect(bridge.getStats().open).to.equal(3);
			const ours = (line: { text: string }) => line.text.find("support calls", 1, true)[0] !== undefined;
			const warnings = harness.output().filter((line) => line.kind === "warn" && ours(line));
			expect(warnings.size()).to.equal(1);
			expect(warnings[0].text.find("API key", 1, true)[0]).to.be.ok();

			for (let i = 1; i <= 3; i++) {
				http.failures.delete(`c${i}`);
				http.say(`c${i}`, "back");
			}
			clock.advance(61);
			for (const player of players)
				expect(
					messagesOf(player, remote)
						.map((m) => m.text)
						.join("|"),
				).to.equal("hello|back");
			const recovered = harness
				.output()
				.filter((line) => line.text.find("API key again", 1, true)[0] !== undefined);
			expect(recovered.size()).to.equal(1);
			expect(
				harness
					.output()
					.filter((line) => line.kind === "warn" && ours(line))
					.size(),
			).to.equal(1);
			// Back to the usual pace: a poll 2 s after the message, then slowing to 10 s.
			const since = clock.now();
			clock.advance(60);
			expect(http.count("c1", since) >= 6).to.equal(true);
			bridge.destroy();
		});
	});

	describe("CallBridge: client events after a leave", () => {
		it("leaves no rate-limiter entry for an event handled after PlayerRemoving", () => {
			const { bridge, http, remote } = fakeRig();
			http.open("mine");
			const me = harness.players.add(3301);
			bridge.open(me, "mine");
			const fire = (...args: Array<unknown>) => {
				const before = bridge.getStats().clientEvents;
				harness.players.client(me).fire(remote, ...args);
				waitUntil(() => bridge.getStats().clientEvents > before, "the server to handle the event", 2);
			};
			fire("ready");
			expect(bridge.getMemory().limiterKeys).to.equal(1);
			expect(bridge.getMemory().replayLimiterKeys).to.equal(1);
			harness.players.remove(me);
			waitUntil(() => bridge.getStats().open === 0, "the leave to close the chat", 2);
			expect(bridge.getMemory().limiterKeys).to.equal(0);
			fire("ready");
			fire("dismiss", "whatever");
			expect(bridge.getMemory().limiterKeys).to.equal(0);
			expect(bridge.getMemory().replayLimiterKeys).to.equal(0);
			bridge.destroy();
		});

		it("leaves no entry when the event and the leave arrive in the same frame", () => {
			const { bridge, http, remote } = fakeRig();
			http.open("mine");
			const me = harness.players.add(3302);
			bridge.open(me, "mine");
			harness.players.client(me).fire(remote, "ready");
			harness.players.remove(me);
			waitUntil(() => bridge.getStats().clientEvents === 1 && bridge.getStats().open === 0, "both events", 2);
			expect(bridge.getMemory().limiterKeys).to.equal(0);
			expect(bridge.getMemory().replayLimiterKeys).to.equal(0);
			bridge.destroy();
		});
	});
};
