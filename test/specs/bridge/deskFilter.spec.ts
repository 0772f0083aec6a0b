import { WORDS } from "../../../src/bridge/supportDeskOptions";
import { FILTER_DEADLINE_SECONDS } from "../../../src/roblox/textFilter";
import { MESSAGE_UNAVAILABLE } from "../../../src/shared/chatProtocol";
import { deskControl } from "../../support/deskControl";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { waitUntil } from "../../support/waits";
import { DeskRig, deskChatIdOf, deskRig, dropDeskRig, fireDesk, resultsOf } from "./deskRig";
import { messagesOf } from "./support";

// Issue 42, item 2, the support-call routes: the service's words about a call and a player's own message echoed back
// reach the player only through the one filter with a deadline (`filterWithin`); when it fails (TextService throws)
// or stays silent past its deadline (on the desk's clock), the player sees a fixed text of ours, never the words.
// Read at the player's client: the desk's results and the call window's messages.

export = () => {
	let r: DeskRig;
	beforeEach(() => (r = deskRig()));
	afterEach(() => dropDeskRig(r));

	/** Breaks the filter `how`; for a silent one, moves the desk's clock past the deadline once the call is made. */
	function withBrokenFilter(how: "fails" | "hangs", act: () => void): void {
		if (how === "fails") harness.text.failNextFilters(1000);
		else harness.text.hangFilters(true);
		const calls = harness.text.filterCalls();
		act();
		if (how === "hangs") {
			waitUntil(() => harness.text.filterCalls() > calls, "the filter call that hangs", 5);
			r.clock.advance(FILTER_DEADLINE_SECONDS);
		}
	}

	for (const how of ["fails", "hangs"] as const) {
		describe(`SupportDesk: the service's words and the player's own when the filter ${how}`, () => {
			it("a call the service refuses with its words: the player reads our refusal, not the words", () => {
				const player = harness.players.add(4951, "Banned");
				serviceControl.call("POST", "/_control/call-bans", { userId: "4951" });
				withBrokenFilter(how, () => fireDesk(r, player, "call", { type: "support", reason: "help me" }));
				waitUntil(() => resultsOf(r, player).size() === 1, "the refusal", 10);
				expect(resultsOf(r, player)[0]).to.equal(WORDS.refused);
				expect(serviceControl.count("supportCreate" as never)).to.equal(1);
				expect(r.desk.getCallCount()).to.equal(0);
			});

			it("a player's own message is echoed as the placeholder, and sent to staff once as written", () => {
				const player = harness.players.add(4952, "Caller");
				fireDesk(r, player, "call", { type: "support", reason: "I need help" });
				waitUntil(() => r.desk.getCallCount() === 1, "the call", 5);
				const chatId = deskChatIdOf(r, player)!;
				withBrokenFilter(how, () => fireDesk(r, player, "say", chatId, "my bike is gone"));
				waitUntil(() => messagesOf(player, r.chatRemote).size() === 1, "the echo", 10);
				const echo = messagesOf(player, r.chatRemote)[0];
				expect(echo.text).to.equal(MESSAGE_UNAVAILABLE);
				expect(echo.sender).to.equal("Caller");
				harness.text.hangFilters(false);
				r.sync();
				const mine = deskControl.tickets()[0].messages.filter((message) => message.origin === "user");
				expect(mine.size()).to.equal(1);
				expect(mine[0].message).to.equal("my bike is gone");
			});
		});
	}
};
