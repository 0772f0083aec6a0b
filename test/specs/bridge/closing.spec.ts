import { CallCloseReason } from "../../../src/shared/chatProtocol";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import {
	dropLiveRig,
	kindsOf,
	LiveRig,
	liveRig,
	openStaticCall,
	received,
	STATIC_CALL,
	textsOf,
	TIMED_CALL,
} from "./support";
import { waitUntil } from "../../support/waits";

const FIRST = "Hello, how can I help?";
const SECOND = "Glad that is sorted. Closing this call now.";
/** A call status the service might add: StaffOps leaves a chat whose call answers it as it was. */
const UNKNOWN_STATUS = "escalated";

// A chat ends when the call stops being open, the service forgets it, the player leaves, or game code says so; never
// on a call status StaffOps does not know.
export = () => {
	let rig: LiveRig | undefined;
	let reasons: Array<CallCloseReason>;

	const start = () => {
		const made = liveRig();
		reasons = [];
		made.bridge.closed.Connect((_, reason) => reasons.push(reason));
		rig = made;
		return made;
	};

	/** The last payload of kind `closed` a player received, or undefined. */
	const closedPayload = (player: Player, remote: RemoteEvent) => {
		const closing = received(player, remote).filter(([kind]) => kind === "closed");
		return closing.size() > 0 ? closing[closing.size() - 1][1] : undefined;
	};

	/** The warnings about a call status StaffOps does not know. */
	const unknownStatusWarnings = () =>
		harness
			.output()
			.filter((line) => line.text.find("call status StaffOps does not know", 1, true)[0] !== undefined);

	/** The reference service answers the call's next `times` polls with the status UNKNOWN_STATUS. */
	const unknownStatus = (times: number) =>
		serviceControl.fault({
			operation: "getCallMessages",
			kind: "extended",
			fields: { status: UNKNOWN_STATUS },
			times,
		});

	beforeEach(() => openStaticCall());
	afterEach(() => (rig = dropLiveRig(rig)));

	describe("CallBridge: closing (reference service)", () => {
		it("closes when the call's status changes, after delivering its last messages", () => {
			const { bridge, remote, pollAgain, waitForPolls } = start();
			const player = harness.players.add(2201);
			const chat = bridge.open(player, STATIC_CALL);
			waitForPolls();
			serviceControl.addCallMessage(STATIC_CALL, { username: "ModMarco", userId: 1003, message: "Bye!" });
			serviceControl.setCallStatus(STATIC_CALL, "closed");
			pollAgain();
			expect(chat.getState()).to.equal("closed");
			expect(reasons.join(",")).to.equal("ended");
			expect(kindsOf(player, remote)).to.equal("opened,message,message,message,closed");
			expect(textsOf(player, remote)).to.equal(`${FIRST}|${SECOND}|Bye!`);
			expect(closedPayload(player, remote)!.chatId).to.equal(chat.chatId);
			expect(closedPayload(player, remote)!.reason).to.equal("ended");
			// No polling after the end.
			const polls = bridge.getStats().polls;
			pollAgain();
			pollAgain();
			expect(bridge.getStats().polls).to.equal(polls);
			expect(bridge.getStats().open).to.equal(0);
		});

		it("shows nothing for a call that is not open when the chat opens", () => {
			const { bridge, remote, waitForPolls } = start();
			serviceControl.setCallStatus(STATIC_CALL, "closed");
			const player = harness.players.add(2202);
			const chat = bridge.open(player, STATIC_CALL);
			waitForPolls();
			expect(chat.getState()).to.equal("closed");
			expect(reasons.join(",")).to.equal("ended");
			expect(harness.players.client(player).received(remote).size()).to.equal(0);
		});

		it("closes with not-found when the service does not know the call", () => {
			const { bridge, remote, waitForPolls } = start();
			const player = harness.players.add(2203);
			const chat = bridge.open(player, "call-that-does-not-exist");
			waitForPolls();
			expect(chat.getState()).to.equal("closed");
			expect(reasons.join(",")).to.equal("not-found");
			expect(harness.players.client(player).received(remote).size()).to.equal(0);
		});

		it("closes when the player leaves and stops polling for them", () => {
			const { bridge, remote, pollAgain, waitForPolls } = start();
			const player = harness.players.add(2204);
			const other = harness.players.add(2205);
			const chat = bridge.open(player, STATIC_CALL);
			const otherChat = bridge.open(other, TIMED_CALL);
			waitForPolls();
			serviceControl.clearRequests();
			harness.players.remove(player);
			waitUntil(() => chat.getState() === "closed", "the leave to close the chat", 2);
			expect(reasons.join(",")).to.equal("left");
			pollAgain();
			pollAgain();
			// Only the other player's chat still polls.
			const paths = serviceControl.requests().requests.map((request) => request.path);
			expect(paths.size()).to.equal(2);
			for (const path of paths) expect(path).to.equal(`/calls/${TIMED_CALL}/messages`);
			expect(otherChat.getState()).to.equal("open");
			expect(kindsOf(player, remote)).to.equal("opened,message,message");
		});

		it("drops an answer that arrives after the player left", () => {
			const { bridge, remote, waitForPolls } = start();
			const player = harness.players.add(2206);
			const chat = bridge.open(player, STATIC_CALL);
			// The poll is in flight; the player leaves before it answers.
			harness.players.remove(player);
			waitUntil(() => chat.getState() === "closed", "the leave to close the chat", 2);
			waitForPolls();
			expect(chat.getState()).to.equal("closed");
			expect(reasons.join(",")).to.equal("left");
			expect(
				received(player, remote)
					.filter(([kind]) => kind === "message")
					.size(),
			).to.equal(0);
		});

		it("closes at once, without a request, a chat opened for a player who already left", () => {
			const { bridge } = start();
			const player = harness.players.add(2207);
			harness.players.remove(player);
			const chat = bridge.open(player, STATIC_CALL);
			expect(chat.getState()).to.equal("closed");
			expect(reasons.join(",")).to.equal("left");
			expect(bridge.getStats().polls).to.equal(0);
		});

		it("closes when game code closes one chat, or all of a player's chats", () => {
			const { bridge, remote, waitForPolls } = start();
			const player = harness.players.add(2208);
			const first = bridge.open(player, STATIC_CALL);
			const second = bridge.open(player, TIMED_CALL);
			waitForPolls();
			expect(bridge.close(player, STATIC_CALL)).to.equal(1);
			expect(first.getState()).to.equal("closed");
			expect(second.getState()).to.equal("open");
			expect(closedPayload(player, remote)!.chatId).to.equal(first.chatId);
			expect(closedPayload(player, remote)!.reason).to.equal("closed");
			second.close();
			expect(second.getState()).to.equal("closed");
			expect(bridge.close(player)).to.equal(0);
			expect(reasons.join(",")).to.equal("closed,closed");
		});

		it("closes every chat when the bridge is destroyed", () => {
			const { bridge, remote, waitForPolls } = start();
			const player = harness.players.add(2209);
			const chat = bridge.open(player, STATIC_CALL);
			waitForPolls();
			bridge.destroy();
			expect(chat.getState()).to.equal("closed");
			expect(closedPayload(player, remote)!.reason).to.equal("destroyed");
			expect(bridge.getChats().size()).to.equal(0);
		});
	});

	describe("CallBridge: a call status StaffOps does not know (reference service)", () => {
		it("neither opens nor ends a chat while its call's status is unknown, counts it and warns once", () => {
			const { bridge, remote, pollAgain, waitForPolls } = start();
			// The captured output is the whole run's: count only this spec's lines.
			harness.clearOutput();
			unknownStatus(2);
			const player = harness.players.add(2401);
			const chat = bridge.open(player, STATIC_CALL);
			waitForPolls();
			pollAgain();
			// Two answers with the unknown status: the chat waits, unseen; nothing reached the player.
			expect(chat.getState()).to.equal("connecting");
			expect(reasons.size()).to.equal(0);
			expect(kindsOf(player, remote)).to.equal("");
			expect(bridge.getStats().unknownStatuses).to.equal(2);
			expect(unknownStatusWarnings().size()).to.equal(1);
			expect(unknownStatusWarnings()[0].text.find(UNKNOWN_STATUS, 1, true)[0]).to.be.ok();
			// The status StaffOps knows again: the chat opens as usual.
			pollAgain();
			expect(chat.getState()).to.equal("open");
			expect(kindsOf(player, remote).sub(1, 6)).to.equal("opened");
			expect(bridge.getStats().unknownStatuses).to.equal(2);
		});

		it("never ends an open chat on an unknown status", () => {
			const { bridge, pollAgain, waitForPolls } = start();
			harness.clearOutput();
			const player = harness.players.add(2402);
			const chat = bridge.open(player, STATIC_CALL);
			waitForPolls();
			expect(chat.getState()).to.equal("open");
			unknownStatus(8);
			for (let i = 0; i < 8; i++) pollAgain();
			expect(chat.getState()).to.equal("open");
			expect(reasons.size()).to.equal(0);
			expect(bridge.getStats().unknownStatuses).to.equal(8);
			expect(unknownStatusWarnings().size()).to.equal(1);
			// A known end still ends it.
			serviceControl.setCallStatus(STATIC_CALL, "closed");
			pollAgain();
			expect(chat.getState()).to.equal("closed");
			expect(reasons.join(",")).to.equal("ended");
		});
	});
};
