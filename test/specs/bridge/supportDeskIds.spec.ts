import { WORDS } from "../../../src/bridge/supportDeskOptions";
import { deskControl } from "../../support/deskControl";
import { harness } from "../../support/harness";
import { registerSpecServer } from "../../support/referenceClient";
import { FaultSpec, serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { DeskRig, deskChatIdOf, deskRig, dropDeskRig, fireDesk, resultsOf } from "./deskRig";

// Issue 42, "ids and marks": a call belongs to its caller on this server. A client that sends another player's chat
// id cannot end their call, and after a lost create answer the lookup adopts only a call opened on this server, never
// the caller's call on another one. Counted at the service (support/end, support/create) and at the players.

export = () => {
	let r: DeskRig;
	beforeEach(() => (r = deskRig()));
	afterEach(() => dropDeskRig(r));

	const count = (operation: string) => serviceControl.count(operation as never);
	const statusOf = (callId: string) => deskControl.tickets().find((ticket) => ticket._id === callId)?.status;

	describe("SupportDesk: whose call it is", () => {
		it("a player sending another player's chat id cannot end their call: no support/end reaches the service", () => {
			const caller = harness.players.add(4961, "Caller");
			const hostile = harness.players.add(4962, "Hostile");
			fireDesk(r, caller, "call", { type: "support", reason: "I need help" });
			waitUntil(() => r.desk.getCallCount() === 1, "the caller's call", 5);
			const chatId = deskChatIdOf(r, caller)!;
			const callId = deskControl.tickets()[0]._id;
			// The hostile client fires the desk's remote with the caller's chat id, in every shape an end can take.
			fireDesk(r, hostile, "end", chatId);
			fireDesk(r, hostile, "end", chatId, "closedByUser");
			r.clock.advance(5);
			waitSeconds(0.3);
			expect(count("supportEnd")).to.equal(0);
			expect(r.desk.getCallCount()).to.equal(1);
			expect(statusOf(callId)).to.equal("open");
			expect(resultsOf(r, hostile).size()).to.equal(0);
			// The caller's own end still works, once.
			fireDesk(r, caller, "end", chatId);
			waitUntil(() => count("supportEnd") === 1, "the caller's end at the service", 5);
			expect(statusOf(callId)).to.equal("closed");
		});

		it("after a lost create answer, the caller's open call on another server is not adopted here", () => {
			const player = harness.players.add(4963, "Traveller");
			const otherServer = registerSpecServer(r.client, "job-elsewhere");
			const [opened, answer] = r.client.support
				.create({
					runningGameId: otherServer,
					callType: "support",
					callerId: player.UserId,
					reason: "help on the other server",
					players: [[player.UserId, player.Name, player.DisplayName]],
				})
				.await();
			expect(opened).to.equal(true);
			const elsewhere = (answer as { ticket: { _id: string } }).ticket._id;
			// The create here is lost before the service acts: the lookup finds only the call on the other server.
			serviceControl.fault({ operation: "supportCreate" as never, kind: "drop" as FaultSpec["kind"], times: 1 });
			fireDesk(r, player, "call", { type: "support", reason: "help here" });
			waitUntil(() => resultsOf(r, player).size() === 1, "the answer to the call", 10);
			expect(resultsOf(r, player)[0]).to.equal(WORDS.unsure);
			expect(r.desk.getCallCount()).to.equal(0);
			expect(count("supportCreate")).to.equal(2);
			expect(count("listCalls") >= 1).to.equal(true);
			// The other server's call is left alone: neither opened here nor ended.
			expect(count("supportEnd")).to.equal(0);
			expect(statusOf(elsewhere)).to.equal("open");
		});
	});
};
