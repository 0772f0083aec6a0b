import { ReplicatedStorage } from "@rbxts/services";
import { CallBridge } from "../../../src/bridge/callBridge";
import { BridgeMessage, CallChat } from "../../../src/bridge/types";
import { ensureRemote } from "../../../src/shared/remotes";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import {
	dropLiveRig,
	everythingSentTo,
	kindsOf,
	liveClient,
	LiveRig,
	liveRig,
	messagesOf,
	scriptedRig,
	STATIC_CALL,
	textsOf,
	TIMED_CALL,
	transcriptIds,
} from "./support";
import { waitUntil } from "../../support/waits";

const FIRST = "Hello, how can I help?";
const SECOND = "Glad that is sorted. Closing this call now.";

function agent(message: string) {
	return { username: "ModMarco", userId: 1003, message };
}

// The bridge against the reference service over real HTTP; its polls run on a fake clock that the specs move.
export = () => {
	let rig: LiveRig | undefined;
	let resetAt = 0;

	beforeEach(() => {
		serviceControl.reset();
		resetAt = os.clock();
		serviceControl.setCallStatus(STATIC_CALL, "open");
	});

	afterEach(() => (rig = dropLiveRig(rig)));

	describe("CallBridge: delivery (reference service)", () => {
		it("sends the transcript, then each new message, exactly once and in order", () => {
			rig = liveRig();
			const delivered = new Array<BridgeMessage>();
			rig.bridge.message.Connect((_, message) => delivered.push(message));
			const player = harness.players.add(2001);
			const chat = rig.bridge.open(player, STATIC_CALL);
			rig.waitForPolls();
			expect(chat.getState()).to.equal("open");
			expect(kindsOf(player, rig.remote)).to.equal("opened,message,message");
			expect(textsOf(player, rig.remote)).to.equal(`${FIRST}|${SECOND}`);

			serviceControl.addCallMessage(STATIC_CALL, agent("One more thing"));
			serviceControl.addCallMessage(STATIC_CALL, agent("And another"));
			rig.pollAgain();
			rig.pollAgain();
			rig.pollAgain();
			serviceControl.addCallMessage(STATIC_CALL, agent("Last one"));
			rig.pollAgain();
			rig.pollAgain();

			expect(textsOf(player, rig.remote)).to.equal(`${FIRST}|${SECOND}|One more thing|And another|Last one`);
			const seqs = messagesOf(player, rig.remote).map((message) => message.seq);
			expect(seqs.join(",")).to.equal("1,2,3,4,5");
			// Exactly the transcript, each id once, in the transcript's order.
			expect(delivered.map((message) => message.id).join(",")).to.equal(transcriptIds(STATIC_CALL).join(","));
			expect(rig.bridge.getStats().polls).to.equal(6);
		});

		it("delivers the seeded messages of call-demo as they arrive over time (0 s, then 5 s)", () => {
			rig = liveRig();
			const player = harness.players.add(2002);
			rig.bridge.open(player, TIMED_CALL);
			rig.waitForPolls();
			const first = messagesOf(player, rig.remote);
			expect(first[0].text).to.equal("Hi! Thanks for calling StaffOps support.");
			// The second message becomes visible 5 s after the reset; poll until it is delivered.
			waitUntil(() => os.clock() - resetAt > 5.2, "call-demo's second message to arrive", 8);
			rig.pollAgain();
			const texts = messagesOf(player, rig.remote).map((message) => message.text);
			expect(texts.size()).to.equal(2);
			expect(texts[1]).to.equal("I can see your server. What happened?");
			rig.pollAgain();
			expect(messagesOf(player, rig.remote).size()).to.equal(2);
		});

		it("sends a player only the messages of their own chats", () => {
			rig = liveRig();
			const alice = harness.players.add(2003, "Alice");
			const bob = harness.players.add(2004, "Bob");
			const carol = harness.players.add(2005, "Carol");
			const aliceChat = rig.bridge.open(alice, STATIC_CALL);
			const bobChat = rig.bridge.open(bob, TIMED_CALL);
			rig.waitForPolls();
			serviceControl.addCallMessage(STATIC_CALL, agent("For Alice only"));
			serviceControl.addCallMessage(TIMED_CALL, {
				username: "HeadModHana",
				userId: 1002,
				message: "For Bob only",
			});
			rig.pollAgain();
			rig.pollAgain();

			expect(textsOf(alice, rig.remote)).to.equal(`${FIRST}|${SECOND}|For Alice only`);
			const bobTexts = textsOf(bob, rig.remote);
			expect(bobTexts.find("For Bob only", 1, true)[0]).to.be.ok();
			expect(bobTexts.find("Alice", 1, true)[0]).never.to.be.ok();
			expect(bobTexts.find(FIRST, 1, true)[0]).never.to.be.ok();
			expect(textsOf(alice, rig.remote).find("Bob", 1, true)[0]).never.to.be.ok();
			expect(harness.players.client(carol).received(rig.remote).size()).to.equal(0);
			for (const message of messagesOf(alice, rig.remote)) expect(message.chatId).to.equal(aliceChat.chatId);
			for (const message of messagesOf(bob, rig.remote)) expect(message.chatId).to.equal(bobChat.chatId);
		});

		it("gives two players on the same call their own chat ids and their own copies", () => {
			rig = liveRig();
			const first = harness.players.add(2006);
			const second = harness.players.add(2007);
			const chatOne = rig.bridge.open(first, STATIC_CALL);
			const chatTwo = rig.bridge.open(second, STATIC_CALL);
			rig.waitForPolls();
			expect(chatOne.chatId).never.to.equal(chatTwo.chatId);
			expect(textsOf(first, rig.remote)).to.equal(`${FIRST}|${SECOND}`);
			expect(textsOf(second, rig.remote)).to.equal(`${FIRST}|${SECOND}`);
			expect(messagesOf(second, rig.remote)[0].chatId).to.equal(chatTwo.chatId);
		});

		it("keeps the call id on the server: a client sees only an opaque chat id", () => {
			rig = liveRig();
			const player = harness.players.add(2008);
			const chat = rig.bridge.open(player, STATIC_CALL);
			rig.waitForPolls();
			expect(chat.chatId.find(STATIC_CALL, 1, true)[0]).never.to.be.ok();
			expect(everythingSentTo(player, rig.remote).find(STATIC_CALL, 1, true)[0]).never.to.be.ok();
			expect(everythingSentTo(player, rig.remote).find("call-closed-1", 1, true)[0]).never.to.be.ok();
		});

		it("sends opened, then messages with sender, time and origin", () => {
			rig = liveRig();
			const player = harness.players.add(2009);
			const chat = rig.bridge.open(player, STATIC_CALL, { title: "Cafe support" });
			rig.waitForPolls();
			const [kind, opened] = [
				harness.players.client(player).received(rig.remote)[0][0],
				harness.players.client(player).received(rig.remote)[0][1] as { chatId: string; title: string },
			];
			expect(kind).to.equal("opened");
			expect(opened.chatId).to.equal(chat.chatId);
			expect(opened.title).to.equal("Cafe support");
			const message = messagesOf(player, rig.remote)[0];
			expect(message.sender).to.equal("ModMarco");
			expect(message.origin).to.equal("agent");
			// `created` is the moment of the reset, a few seconds ago.
			const now = DateTime.now().UnixTimestampMillis / 1000;
			expect(math.abs(now - message.sentAt) < 60).to.equal(true);
		});

		it("marks only the agent's messages as the agent's: another origin, or none, reads as other", () => {
			const created = "2024-06-01T08:00:00.000Z";
			const scripted = scriptedRig(() => ({
				status: "open",
				messages: [
					{ id: "o1", username: "ModMarco", message: "from the agent", origin: "agent", created },
					{ id: "o2", username: "Riley", message: "from the player", origin: "player", created },
					{ id: "o3", username: "System", message: "no origin", created },
					{ id: "o4", username: "Riley", message: "the player's own", origin: "user", created },
					{ id: "o5", username: "System", message: "a notice", origin: "systemMessage", created },
				],
			}));
			const player = harness.players.add(2019);
			scripted.bridge.open(player, "call-origins");
			waitUntil(() => messagesOf(player, scripted.remote).size() === 5, "the five messages", 5);
			const origins = messagesOf(player, scripted.remote).map((message) => message.origin);
			expect(origins.join(",")).to.equal("agent,other,other,other,other");
			// Of these only `player` is an origin StaffOps does not know: counted; none, `user` and `systemMessage` not.
			expect(scripted.bridge.getStats().unknownOrigins).to.equal(1);
			scripted.bridge.destroy();
		});

		it("times a message without a readable created by its arrival, and says timeEstimated", () => {
			// docs/support-calls.md (SC5): the service's time when it sent one; otherwise the arrival time, flagged.
			const scripted = scriptedRig(() => ({
				status: "open",
				messages: [
					{
						id: "t1",
						username: "ModMarco",
						message: "timed",
						origin: "agent",
						created: "2024-06-01T08:00:00.000Z",
					},
					{ id: "t2", username: "ModMarco", message: "untimed", origin: "agent" },
					{ id: "t3", username: "ModMarco", message: "unreadable", origin: "agent", created: "yesterday" },
				],
			}));
			const seen = new Array<BridgeMessage>();
			scripted.bridge.message.Connect((_, message) => seen.push(message));
			const player = harness.players.add(2020);
			scripted.bridge.open(player, "call-times");
			waitUntil(() => seen.size() === 3, "the three messages", 5);
			const now = DateTime.now().UnixTimestampMillis / 1000;
			expect(seen[0].timeEstimated).to.equal(false);
			expect(seen[0].sentAt).to.equal(1717228800);
			for (const estimated of [seen[1], seen[2]]) {
				expect(estimated.timeEstimated).to.equal(true);
				expect(math.abs(now - estimated.sentAt) < 60).to.equal(true);
			}
			const shown = messagesOf(player, scripted.remote);
			expect(shown[0].sentAt).to.equal(1717228800);
			scripted.bridge.destroy();
		});

		it("fires opened, message and closed signals for game code", () => {
			rig = liveRig();
			const events = new Array<string>();
			let openedChat: CallChat | undefined;
			rig.bridge.opened.Connect((chat) => {
				openedChat = chat;
				events.push("opened");
			});
			rig.bridge.message.Connect((_, message) => events.push(`message ${message.seq} ${message.text}`));
			rig.bridge.closed.Connect((_, reason) => events.push(`closed ${reason}`));
			const player = harness.players.add(2010);
			const chat = rig.bridge.open(player, STATIC_CALL);
			rig.waitForPolls();
			chat.close();
			expect(openedChat).to.equal(chat);
			expect(events.join(";")).to.equal(`opened;message 1 ${FIRST};message 2 ${SECOND};closed closed`);
			expect(kindsOf(player, rig.remote)).to.equal("opened,message,message,closed");
		});

		it("returns the open chat when the same call is opened again for the same player", () => {
			rig = liveRig();
			const player = harness.players.add(2011);
			const chat = rig.bridge.open(player, STATIC_CALL);
			expect(rig.bridge.open(player, STATIC_CALL)).to.equal(chat);
			rig.waitForPolls();
			expect(rig.bridge.getChats(player).size()).to.equal(1);
			expect(messagesOf(player, rig.remote).size()).to.equal(2);
		});

		it("uses the CallEvents remote in ReplicatedStorage by default", () => {
			const bridge = new CallBridge({ client: liveClient() });
			const remote = ensureRemote("CallEvents", ReplicatedStorage);
			const player = harness.players.add(2012);
			bridge.open(player, STATIC_CALL);
			waitUntil(() => bridge.getStats().busy === 0, "no poll in flight", 5);
			bridge.destroy();
			expect(kindsOf(player, remote)).to.equal("opened,message,message,closed");
		});

		it("refuses a non-player, an empty or over-long call id, and a destroyed bridge", () => {
			rig = liveRig();
			const player = harness.players.add(2013);
			const bridge = rig.bridge;
			expect(() => bridge.open(new Instance("Folder") as unknown as Player, STATIC_CALL)).to.throw();
			expect(() => bridge.open(player, "")).to.throw();
			expect(() => bridge.open(player, string.rep("x", 101))).to.throw();
			expect(() => bridge.open(player, 5 as unknown as string)).to.throw();
			bridge.destroy();
			expect(() => bridge.open(player, STATIC_CALL)).to.throw();
		});
	});

	describe("CallBridge: a message origin StaffOps does not know (reference service)", () => {
		/** An origin the service might add: shown as other text, never as the agent's, never hidden. */
		const UNKNOWN_ORIGIN = "escalation";
		const originWarnings = () =>
			harness
				.output()
				.filter((line) => line.text.find("origin StaffOps does not know", 1, true)[0] !== undefined);

		it("shows it as other text, never as the agent's, counts it once and warns once naming it", () => {
			rig = liveRig();
			// The captured output is the whole run's: count only this spec's lines.
			harness.clearOutput();
			const heard = new Array<BridgeMessage>();
			rig.bridge.message.Connect((_, message) => heard.push(message));
			// Every answer gives the agent's first message an origin StaffOps does not know.
			serviceControl.fault({
				operation: "getCallMessages",
				kind: "extended",
				fields: { "messages.0.origin": UNKNOWN_ORIGIN },
			});
			const player = harness.players.add(2031);
			rig.bridge.open(player, STATIC_CALL);
			rig.waitForPolls();
			rig.pollAgain();
			// The player saw both messages, the first as other text; game code heard the same.
			expect(textsOf(player, rig.remote)).to.equal(`${FIRST}|${SECOND}`);
			expect(
				messagesOf(player, rig.remote)
					.map((message) => message.origin)
					.join(","),
			).to.equal("other,agent");
			expect(heard.map((message) => `${message.text}:${message.origin}`).join("|")).to.equal(
				`${FIRST}:other|${SECOND}:agent`,
			);
			// Polled twice, delivered once: counted once.
			expect(rig.bridge.getStats().unknownOrigins).to.equal(1);
			expect(originWarnings().size()).to.equal(1);
			expect(originWarnings()[0].text.find(UNKNOWN_ORIGIN, 1, true)[0]).to.be.ok();
			// A second such message is counted too, and warned no more.
			serviceControl.clearFaults();
			serviceControl.fault({
				operation: "getCallMessages",
				kind: "extended",
				fields: { "messages.2.origin": "another" },
			});
			serviceControl.addCallMessage(STATIC_CALL, agent("One more thing"));
			rig.pollAgain();
			expect(messagesOf(player, rig.remote).size()).to.equal(3);
			expect(messagesOf(player, rig.remote)[2].origin).to.equal("other");
			expect(rig.bridge.getStats().unknownOrigins).to.equal(2);
			expect(rig.bridge.getStats().delivered).to.equal(3);
			expect(originWarnings().size()).to.equal(1);
			serviceControl.clearFaults();
		});
	});
};
