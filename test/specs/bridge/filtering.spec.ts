import { BridgeMessage } from "../../../src/bridge/types";
import { MESSAGE_UNAVAILABLE } from "../../../src/shared/chatProtocol";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import {
	dropLiveRig,
	everythingSentTo,
	kindsOf,
	LiveRig,
	liveRig,
	messagesOf,
	openStaticCall,
	STATIC_CALL,
	textsOf,
} from "./support";

const FIRST = "Hello, how can I help?";
const SECOND = "Glad that is sorted. Closing this call now.";

// Agent text comes from outside Roblox: every sender name and text is filtered for its recipient first.
export = () => {
	let rig: LiveRig | undefined;

	beforeEach(() => openStaticCall());
	afterEach(() => (rig = dropLiveRig(rig)));

	describe("CallBridge: filtering (reference service, TextService fake)", () => {
		it("filters the text and the sender's name with TextService before they leave the server", () => {
			harness.text.block(["sorted", "Marco"]);
			rig = liveRig();
			const player = harness.players.add(2101);
			const callsBefore = harness.text.filterCalls();
			rig.bridge.open(player, STATIC_CALL);
			rig.waitForPolls();
			expect(textsOf(player, rig.remote)).to.equal(`${FIRST}|Glad that is ######. Closing this call now.`);
			expect(messagesOf(player, rig.remote)[0].sender).to.equal("Mod#####");
			// One name (filtered once, then remembered) and two texts.
			expect(harness.text.filterCalls() - callsBefore).to.equal(3);
			const sent = everythingSentTo(player, rig.remote);
			expect(sent.find("sorted", 1, true)[0]).never.to.be.ok();
			expect(sent.find("Marco", 1, true)[0]).never.to.be.ok();
		});

		it("filters for each recipient separately", () => {
			const recipients = new Array<number>();
			rig = liveRig({
				filter: (text, recipient) => {
					recipients.push(recipient.UserId);
					return text.upper();
				},
			});
			const first = harness.players.add(2102);
			const second = harness.players.add(2103);
			rig.bridge.open(first, STATIC_CALL);
			rig.bridge.open(second, STATIC_CALL);
			rig.waitForPolls();
			expect(recipients.filter((id) => id === 2102).size()).to.equal(3);
			expect(recipients.filter((id) => id === 2103).size()).to.equal(3);
			expect(messagesOf(second, rig.remote)[0].text).to.equal(FIRST.upper());
		});

		it("holds a message whose filtering failed, and every later one, until a later poll filters it", () => {
			const player = harness.players.add(2104);
			serviceControl.addCallMessage(STATIC_CALL, { username: "ModMarco", userId: 1003, message: "Third" });
			// The name and the first text pass; the second text fails once.
			let calls = 0;
			rig = liveRig({
				filter: (text) => {
					calls += 1;
					if (calls === 3) error("TextService: Filtering failed");
					return text;
				},
			});
			rig.bridge.open(player, STATIC_CALL);
			rig.waitForPolls();
			expect(kindsOf(player, rig.remote)).to.equal("opened,message");
			expect(textsOf(player, rig.remote)).to.equal(FIRST);
			rig.pollAgain();
			expect(textsOf(player, rig.remote)).to.equal(`${FIRST}|${SECOND}|Third`);
			expect(
				messagesOf(player, rig.remote)
					.map((message) => message.seq)
					.join(","),
			).to.equal("1,2,3");
			rig.pollAgain();
			expect(messagesOf(player, rig.remote).size()).to.equal(3);
		});

		// TextService:FilterStringAsync "retries internally (do not retry it)" (docs/roblox.md#filterstringasync-retries-internally): each
		// message goes through it once; a failure shows the placeholder at once, never the unfiltered text.
		it("filters each message with TextService once: a failure shows the placeholder, never a retry", () => {
			rig = liveRig();
			const delivered = new Array<BridgeMessage>();
			rig.bridge.message.Connect((_, message) => delivered.push(message));
			const player = harness.players.add(2105);
			harness.text.failNextFilters(1);
			const callsBefore = harness.text.filterCalls();
			rig.bridge.open(player, STATIC_CALL);
			rig.waitForPolls();
			// The first filter call (the sender's name) failed: that message is the placeholder; the second message
			// (same sender, filtered again since the name was not remembered) passes.
			expect(textsOf(player, rig.remote)).to.equal(`${MESSAGE_UNAVAILABLE}|${SECOND}`);
			expect(messagesOf(player, rig.remote)[0].sender).to.equal("Support");
			expect(delivered[0].placeholder).to.equal(true);
			const calls = harness.text.filterCalls() - callsBefore;
			rig.pollAgain();
			rig.pollAgain();
			// Later polls filter nothing again.
			expect(harness.text.filterCalls() - callsBefore).to.equal(calls);
			expect(messagesOf(player, rig.remote).size()).to.equal(2);
		});

		it("sends a placeholder, never the unfiltered text, when TextService's filter fails", () => {
			rig = liveRig();
			const delivered = new Array<BridgeMessage>();
			rig.bridge.message.Connect((_, message) => delivered.push(message));
			const player = harness.players.add(2106);
			harness.text.failNextFilters(1000);
			rig.bridge.open(player, STATIC_CALL);
			rig.waitForPolls();
			expect(textsOf(player, rig.remote)).to.equal(`${MESSAGE_UNAVAILABLE}|${MESSAGE_UNAVAILABLE}`);
			expect(messagesOf(player, rig.remote)[0].sender).to.equal("Support");
			expect(delivered[0].placeholder).to.equal(true);
			const sent = everythingSentTo(player, rig.remote);
			expect(sent.find("help", 1, true)[0]).never.to.be.ok();
			expect(sent.find("Marco", 1, true)[0]).never.to.be.ok();
			expect(sent.find("sorted", 1, true)[0]).never.to.be.ok();
		});

		it("treats a filter that answers something other than a string as a failure", () => {
			rig = liveRig({ filter: () => undefined as unknown as string, polling: { filterAttempts: 1 } });
			const player = harness.players.add(2107);
			rig.bridge.open(player, STATIC_CALL);
			rig.waitForPolls();
			expect(textsOf(player, rig.remote)).to.equal(`${MESSAGE_UNAVAILABLE}|${MESSAGE_UNAVAILABLE}`);
		});
	});
};
