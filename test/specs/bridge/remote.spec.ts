import { CallCloseReason } from "../../../src/shared/chatProtocol";
import { harness } from "../../support/harness";
import { fakeRig, FakeRig, kindsOf, messagesOf, received } from "./support";
import { waitUntil } from "../../support/waits";

// Exploiters fire remotes with anything at any rate: a client can only ask for its own chats, and only so often.
export = () => {
	let rig: FakeRig;
	let reasons: Array<CallCloseReason>;

	beforeEach(() => {
		rig = fakeRig();
		reasons = [];
		rig.bridge.closed.Connect((_, reason) => reasons.push(reason));
		rig.http.open("mine");
		rig.http.say("mine", "first");
		rig.http.say("mine", "second");
		rig.http.open("theirs");
		rig.http.say("theirs", "secret of the other player");
	});

	afterEach(() => {
		rig.bridge.destroy();
		harness.reset();
	});

	/** Fires from a player's client and waits until the server has handled the event (remotes are deferred). */
	const fire = (player: Player, ...args: Array<unknown>) => {
		const before = rig.bridge.getStats().clientEvents;
		harness.players.client(player).fire(rig.remote, ...args);
		waitUntil(() => rig.bridge.getStats().clientEvents > before, "the server to handle the event", 2);
	};

	describe("CallBridge: the CallEvents remote", () => {
		it("replays a player's own open chats on ready, and nothing of anyone else's", () => {
			const me = harness.players.add(2901);
			const them = harness.players.add(2902);
			const mine = rig.bridge.open(me, "mine");
			rig.bridge.open(them, "theirs");
			expect(kindsOf(me, rig.remote)).to.equal("opened,message,message");
			fire(me, "ready");
			expect(kindsOf(me, rig.remote)).to.equal("opened,message,message,opened,message,message");
			const replayed = messagesOf(me, rig.remote);
			expect(replayed[2].seq).to.equal(1);
			expect(replayed[3].seq).to.equal(2);
			expect(replayed[3].text).to.equal("second");
			for (const [, payload] of received(me, rig.remote)) expect(payload.chatId).to.equal(mine.chatId);
			expect(kindsOf(them, rig.remote)).to.equal("opened,message");
		});

		it("replays nothing for a chat that is still connecting or already closed", () => {
			const me = harness.players.add(2903);
			rig.http.hanging.add("slow");
			rig.http.open("slow");
			rig.bridge.open(me, "slow");
			const closedChat = rig.bridge.open(me, "mine");
			closedChat.close();
			const before = received(me, rig.remote).size();
			fire(me, "ready");
			expect(received(me, rig.remote).size()).to.equal(before);
		});

		it("closes a chat the player dismissed, and stops polling it", () => {
			const me = harness.players.add(2904);
			const chat = rig.bridge.open(me, "mine");
			fire(me, "dismiss", chat.chatId);
			expect(chat.getState()).to.equal("closed");
			expect(reasons.join(",")).to.equal("dismissed");
			const polls = rig.http.count("mine");
			rig.clock.advance(120);
			expect(rig.http.count("mine")).to.equal(polls);
		});

		it("ignores a dismiss of another player's chat", () => {
			const me = harness.players.add(2905);
			const them = harness.players.add(2906);
			const theirs = rig.bridge.open(them, "theirs");
			rig.bridge.open(me, "mine");
			fire(me, "dismiss", theirs.chatId);
			expect(theirs.getState()).to.equal("open");
			expect(reasons.size()).to.equal(0);
			expect(rig.bridge.getStats().clientEventsDropped).to.equal(1);
		});

		it("ignores anything that is not exactly ready or dismiss with a chat id", () => {
			const me = harness.players.add(2907);
			const chat = rig.bridge.open(me, "mine");
			const before = received(me, rig.remote).size();
			const junk: Array<Array<unknown>> = [
				[],
				["READY"],
				["ready", "extra"],
				["ready", { chatId: chat.chatId }],
				["dismiss"],
				["dismiss", chat.chatId, "extra"],
				["dismiss", 5],
				["dismiss", 0 / 0],
				["dismiss", { chatId: chat.chatId }],
				["dismiss", string.rep("x", 100_000)],
				["dismiss", ""],
				["open", "mine"],
				[{ kind: "ready" }],
				[math.huge],
				[new Instance("Folder")],
			];
			for (const args of junk) {
				fire(me, ...args);
				rig.clock.advance(2);
			}
			expect(chat.getState()).to.equal("open");
			expect(reasons.size()).to.equal(0);
			expect(rig.bridge.getStats().clientEventsDropped).to.equal(junk.size());
			// Only the chat's own polling added messages; nothing was replayed.
			const kinds = received(me, rig.remote)
				.filter((_, index) => index >= before)
				.map(([kind]) => kind);
			expect(kinds.includes("opened")).to.equal(false);
		});

		it("rate-limits each player: 5 events at once, then one a second; replays 2 at once, then one per 10 s", () => {
			const me = harness.players.add(2908);
			const other = harness.players.add(2909);
			rig.bridge.open(me, "mine");
			rig.bridge.open(other, "theirs");
			const opens = (player: Player) =>
				received(player, rig.remote)
					.filter(([kind]) => kind === "opened")
					.size();
			for (let i = 0; i < 50; i++) harness.players.client(me).fire(rig.remote, "ready");
			waitUntil(() => rig.bridge.getStats().clientEvents >= 50, "the server to handle the burst", 2);
			expect(opens(me)).to.equal(1 + 2);
			expect(rig.bridge.getStats().clientEventsDropped).to.equal(48);
			// Another player is not affected.
			fire(other, "ready");
			expect(opens(other)).to.equal(2);
			rig.clock.advance(1);
			fire(me, "ready");
			expect(opens(me)).to.equal(1 + 2);
			rig.clock.advance(10);
			fire(me, "ready");
			fire(me, "ready");
			expect(opens(me)).to.equal(1 + 3);
		});

		it("still takes a dismiss while replays are limited", () => {
			const me = harness.players.add(2910);
			const chat = rig.bridge.open(me, "mine");
			fire(me, "ready");
			fire(me, "ready");
			fire(me, "ready");
			fire(me, "dismiss", chat.chatId);
			expect(chat.getState()).to.equal("closed");
			expect(reasons.join(",")).to.equal("dismissed");
		});
	});
};
