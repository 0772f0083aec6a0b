import { harness } from "../../support/harness";
import { deskControl } from "../../support/deskControl";
import { serviceControl } from "../../support/serviceControl";
import { messagesOf } from "./support";
import { waitSeconds, waitUntil } from "../../support/waits";
import { chatsOf, DeskRig, deskChatIdOf, deskRig, dropDeskRig, fireDesk, resultsOf } from "./deskRig";

// Issue 33: behaviours of the support desk that a one-expression bug could break with every older spec green. Each
// counts what reached the reference service (its tickets, its request log) or what the player's client received.

/** The player messages the service stored for the caller's ticket, oldest first. */
function storedWords(callerId: number): Array<string> {
	const ticket = deskControl.tickets().find((candidate) => tostring(candidate.callerId) === tostring(callerId));
	if (ticket === undefined) return [];
	return ticket.messages.filter((message) => message.origin === "user").map((message) => message.message);
}

export = () => {
	let r: DeskRig;
	beforeEach(() => (r = deskRig()));
	afterEach(() => dropDeskRig(r));

	/** A player in the server with an open call and its chat opened by one sync; returns the call's chat id. */
	const openCall = (player: Player): string => {
		fireDesk(r, player, "call", { type: "support", reason: "I need help" });
		waitUntil(() => r.desk.getCallCount() >= 1 && deskChatIdOf(r, player) !== undefined, "the call", 5);
		r.sync();
		return deskChatIdOf(r, player)!;
	};

	describe("the support desk (issue 33)", () => {
		it("refuses a player's report of himself: nothing reaches the service", () => {
			const player = harness.players.add(4301, "Selfish");
			harness.players.add(4302, "Bystander");
			fireDesk(r, player, "call", { type: "report", reason: "Scamming", reporting: 4301 });
			waitSeconds(0.2);
			expect(resultsOf(r, player)[0]).to.equal("You cannot report yourself.");
			expect(serviceControl.count("supportCreate")).to.equal(0);
			expect(deskControl.tickets().size()).to.equal(0);
		});

		it("drops a player's message into another player's chat named by its chat id", () => {
			const owner = harness.players.add(4311, "Owner");
			const intruder = harness.players.add(4312, "Intruder");
			const ownersChat = openCall(owner);
			// The intruder has sent nothing else: no rate limit stands between the forged message and the outbox.
			fireDesk(r, intruder, "say", ownersChat, "forged words");
			r.sync();
			r.sync();
			expect(storedWords(4311).size()).to.equal(0);
			expect(
				messagesOf(owner, r.chatRemote)
					.filter((message) => message.text === "forged words")
					.size(),
			).to.equal(0);
		});

		it("echoes the player's own message into their window filtered, as sent to staff unfiltered", () => {
			harness.text.block(["darn"]);
			const player = harness.players.add(4321, "Writer");
			const chatId = openCall(player);
			fireDesk(r, player, "say", chatId, "darn bike");
			waitUntil(() => messagesOf(player, r.chatRemote).size() >= 1, "the echo", 5);
			const shown = messagesOf(player, r.chatRemote).map((message) => message.text);
			expect(shown.join("|")).to.equal("#### bike");
			r.sync();
			expect(storedWords(4321).join("|")).to.equal("darn bike");
		});

		it("does not reopen a call whose support/end failed when the next sync still lists it open", () => {
			const player = harness.players.add(4331, "Leaving");
			const chatId = openCall(player);
			serviceControl.fault({ operation: "supportEnd", status: 500, times: 1 });
			fireDesk(r, player, "end", chatId);
			waitUntil(() => r.desk.getCallCount() === 0, "the end", 5);
			expect(serviceControl.count("supportEnd")).to.equal(1);
			// The service still lists the call as open: the next syncs must not give the player a window again.
			const ticket = deskControl.tickets()[0];
			expect(ticket.status).never.to.equal("closed");
			r.sync();
			r.sync();
			expect(r.desk.getCallCount()).to.equal(0);
			expect(chatsOf(r, player).size()).to.equal(1);
		});

		it("after a failed sync the player's messages reach staff in the order written", () => {
			const player = harness.players.add(4341, "Ordered");
			const chatId = openCall(player);
			fireDesk(r, player, "say", chatId, "one");
			// The sync carrying "one" is held, then refused before acting (a 503): "two" is written meanwhile.
			serviceControl.fault({ operation: "sendData", status: 503, latencyMs: 400, times: 1 });
			let failedSyncDone = false;
			task.spawn(() => {
				r.sync();
				failedSyncDone = true;
			});
			waitSeconds(0.1);
			fireDesk(r, player, "say", chatId, "two");
			waitUntil(() => failedSyncDone, "the failed sync", 5);
			expect(storedWords(4341).size()).to.equal(0);
			r.sync();
			r.sync();
			expect(storedWords(4341).join("|")).to.equal("one|two");
		});
	});
};
