import { HttpService } from "@rbxts/services";
import { harness } from "../../support/harness";
import { deskControl } from "../../support/deskControl";
import { serviceControl, FaultSpec } from "../../support/serviceControl";
import { messagesOf, kindsOf } from "./support";
import { waitUntil } from "../../support/waits";
import { DeskRig, deskChatIdOf, deskRig, dropDeskRig, fireDesk, resultsOf } from "./deskRig";

export = () => {
	let r: DeskRig;
	beforeEach(() => {
		r = deskRig();
	});
	afterEach(() => dropDeskRig(r));

	const fire = (player: Player, ...args: Array<unknown>) => fireDesk(r, player, ...args);
	const results = (player: Player) => resultsOf(r, player);
	const chatIdOf = (player: Player) => deskChatIdOf(r, player);
	const count = (operation: string) => serviceControl.count(operation as never);

	describe("SupportDesk: a player calls staff against the deployed service", () => {
		it("sends support/create once, shows agent messages, sends the player's words once, and ends the call", () => {
			const player = harness.players.add(4101, "Caller");
			fire(player, "call", { type: "support", reason: "I need help" });
			waitUntil(() => r.desk.getCallCount() === 1, "the call", 5);
			expect(count("supportCreate")).to.equal(1);
			expect(r.fast[0]).to.equal(true);
			const ticket = deskControl.tickets()[0];
			r.sync();
			expect(kindsOf(player, r.chatRemote).find("opened")[0]).to.be.ok();
			deskControl.reply(ticket._id, "Hello, how can I help?");
			r.sync();
			expect(
				messagesOf(player, r.chatRemote)
					.map((m) => m.text)
					.join("|"),
			).to.equal("Hello, how can I help?");
			const chatId = chatIdOf(player)!;
			fire(player, "say", chatId, "my \0bike\n is gone");
			r.sync();
			r.sync();
			const mine = deskControl.tickets()[0].messages.filter((m) => m.origin === "user");
			expect(mine.size()).to.equal(1);
			expect(mine[0].message).to.equal("my bike is gone");
			fire(player, "end", chatId);
			waitUntil(() => r.desk.getCallCount() === 0, "the end", 5);
			expect(count("supportEnd")).to.equal(1);
			expect(deskControl.tickets()[0].closedReason).to.equal("closedByUser");
			expect(r.fast[r.fast.size() - 1]).to.equal(false);
		});

		it("after a lost create answer adopts the open call instead of creating a second", () => {
			const player = harness.players.add(4102, "Lost");
			serviceControl.fault({
				operation: "supportCreate" as never,
				kind: "drop-after" as FaultSpec["kind"],
				times: 1,
			});
			fire(player, "call", { type: "support", reason: "help" });
			waitUntil(() => r.desk.getCallCount() === 1, "the adopted call", 10);
			expect(count("supportCreate")).to.equal(1);
			expect(count("listCalls") >= 1).to.equal(true);
			expect(deskControl.tickets().size()).to.equal(1);
		});

		it("after an unknown sync re-sends only the player messages the transcript lacks", () => {
			const player = harness.players.add(4103, "Writer");
			fire(player, "call", { type: "support", reason: "help" });
			waitUntil(() => r.desk.getCallCount() === 1, "the call", 5);
			r.sync();
			const chatId = chatIdOf(player)!;
			fire(player, "say", chatId, "one");
			serviceControl.fault({ operation: "sendData" as never, kind: "drop-after" as FaultSpec["kind"], times: 1 });
			r.sync();
			waitUntil(() => r.desk.outbox.sent === 1, "the check", 5);
			fire(player, "say", chatId, "two");
			r.sync();
			r.sync();
			const texts = deskControl
				.tickets()[0]
				.messages.filter((m) => m.origin === "user")
				.map((m) => m.message);
			expect(texts.join("|")).to.equal("one|two");
		});

		it("opens the player's window for a chat staff started, and keeps the closing message", () => {
			const player = harness.players.add(4104, "Chatty");
			deskControl.startChat(r.runningGameId, 4104);
			r.sync();
			expect(r.desk.getCallCount()).to.equal(1);
			expect(messagesOf(player, r.chatRemote)[0].text).to.equal("Hi there");
			deskControl.end(deskControl.tickets()[0]._id);
			r.sync();
			const texts = messagesOf(player, r.chatRemote).map((m) => m.text);
			expect(texts[texts.size() - 1]).to.equal("The call was ended by a staff member.");
			expect(kindsOf(player, r.chatRemote).sub(-6)).to.equal("closed");
			expect(r.desk.getCallCount()).to.equal(0);
		});

		it("ends every open call at shutdown with serverClosed", () => {
			const a = harness.players.add(4105, "A");
			const b = harness.players.add(4106, "B");
			fire(a, "call", { type: "support", reason: "help" });
			fire(b, "call", { type: "report", reason: "Scamming", reporting: 4105 });
			waitUntil(() => r.desk.getCallCount() === 2, "two calls", 5);
			r.desk.endAllCalls().await();
			expect(count("supportEnd")).to.equal(2);
			for (const ticket of deskControl.tickets()) expect(ticket.closedReason).to.equal("serverClosed");
			const report = deskControl.tickets().find((t) => t.callType === "report")!;
			expect(report.reporting).to.equal("A");
		});

		it("checks and rate-limits a hostile client", () => {
			const player = harness.players.add(4107, "Hostile");
			const other = harness.players.add(4108, "Other");
			fire(player, "call", { type: "report", reason: "x", reporting: 999999 });
			expect(results(player)[0]).to.equal("That player is not in this server.");
			for (let i = 0; i < 30; i++)
				harness.players.client(player).fire(r.deskRemote, "call", { type: "support", reason: "spam" });
			task.wait(0.2);
			fire(player, "call", { type: "support", reason: string.rep("x", 5000) });
			fire(player, "call", { type: "support", reason: "ok", extra: true });
			expect(count("supportCreate")).to.equal(1);
			fire(other, "call", { type: "support", reason: "mine" });
			waitUntil(() => r.desk.getCallCount() === 2, "two calls", 5);
			const othersChat = chatIdOf(other)!;
			fire(player, "end", othersChat);
			fire(player, "say", othersChat, "forged");
			fire(player, "say", HttpService.GenerateGUID(false), "forged");
			r.sync();
			expect(r.desk.getCallCount()).to.equal(2);
			for (const ticket of deskControl.tickets()) {
				expect(ticket.messages.filter((m) => m.origin === "user").size()).to.equal(0);
			}
			expect(r.desk.stats.dropped >= 3).to.equal(true);
		});

		it("gives a player whose chat settings forbid chat preset reasons only and no free text", () => {
			harness.text.setCanChat(4109, false);
			const player = harness.players.add(4109, "Quiet");
			fire(player, "call", { type: "support", reason: "my own words" });
			expect(results(player)[0]).to.equal("Please pick one of the listed reasons.");
			fire(player, "call", { type: "support", reason: "I need help with the game" });
			waitUntil(() => r.desk.getCallCount() === 1, "the call", 5);
			r.sync();
			fire(player, "say", chatIdOf(player)!, "hello");
			r.sync();
			expect(
				deskControl
					.tickets()[0]
					.messages.filter((m) => m.origin === "user")
					.size(),
			).to.equal(0);
		});
	});
};
