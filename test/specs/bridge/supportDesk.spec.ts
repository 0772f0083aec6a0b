import { HttpService } from "@rbxts/services";
import { harness } from "../../support/harness";
import { deskControl } from "../../support/deskControl";
import { serviceControl, FaultSpec } from "../../support/serviceControl";
import { messagesOf, kindsOf } from "./support";
import { waitSeconds, waitUntil } from "../../support/waits";
import { linesWith, warnings } from "../server/support";
import {
	DeskRig,
	deskCallers,
	deskChatIdOf,
	deskRig,
	dropDeskRig,
	fireDesk,
	resultsOf,
	sayInCall,
	storedFrom,
} from "./deskRig";

export = () => {
	let r: DeskRig;
	beforeEach(() => (r = deskRig()));
	afterEach(() => dropDeskRig(r));

	const fire = (player: Player, ...args: Array<unknown>) => fireDesk(r, player, ...args);
	const results = (player: Player) => resultsOf(r, player);
	const chatIdOf = (player: Player) => deskChatIdOf(r, player);
	const count = (operation: string) => serviceControl.count(operation as never);
	const liveTickets = () =>
		deskControl
			.tickets()
			.filter((ticket) => ticket.status !== "closed")
			.size();
	/** The next support/create waits `latencyMs` at the service before it acts (a frozen service). */
	const lateCreate = (latencyMs: number) =>
		serviceControl.fault({
			operation: "supportCreate" as never,
			kind: "late" as FaultSpec["kind"],
			latencyMs,
			times: 1,
		});

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

		it("after an unknown sync and 5 failed transcript reads gives the messages up, never sends them twice, and tells the player", () => {
			// docs/support-calls.md (SC23): the sync's outcome is unknown (the service stored the message, the answer
			// was lost) and the transcript cannot be read: after 5 reads the message is given up, not sent again.
			const player = harness.players.add(4111, "Unread");
			fire(player, "call", { type: "support", reason: "help" });
			waitUntil(() => r.desk.getCallCount() === 1, "the call", 5);
			r.sync();
			const chatId = chatIdOf(player)!;
			fire(player, "say", chatId, "only once");
			serviceControl.fault({ operation: "getCallMessages" as never, status: 500, times: 1000 });
			serviceControl.fault({ operation: "sendData" as never, kind: "drop-after" as FaultSpec["kind"], times: 1 });
			r.sync();
			// Each failed read schedules the next 5 s later when its answer is handled: move the clock a second at a
			// time (a read handled after a bigger step would wait for a step that never comes), bounded.
			const began = os.clock();
			while (r.desk.outbox.lost === 0 && os.clock() - began < 30) {
				r.clock.advance(1);
				waitSeconds(0.05);
			}
			expect(r.desk.outbox.lost).to.equal(1);
			expect(count("getCallMessages") >= 5).to.equal(true);
			serviceControl.clearFaults();
			r.sync();
			r.sync();
			const mine = deskControl.tickets()[0].messages.filter((m) => m.origin === "user");
			expect(mine.size()).to.equal(1);
			expect(mine[0].message).to.equal("only once");
			const told = messagesOf(player, r.chatRemote).filter(
				(m) => m.text === "Some of your messages may not have reached staff. Please write them again.",
			);
			expect(told.size()).to.equal(1);
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

		// Issue 32, point 3: no call outlives everyone who knew of it.
		it("ends a call the service created after its caller left (the create held until after the leave)", () => {
			const player = harness.players.add(4120, "Gone");
			lateCreate(1500);
			fire(player, "call", { type: "support", reason: "help" });
			harness.players.remove(player);
			waitUntil(() => deskControl.tickets().size() === 1 && count("supportEnd") === 1, "the end", 10);
			waitUntil(() => !r.desk.hasCallsToEnd(), "the end's answer", 5);
			expect(count("supportCreate")).to.equal(1);
			expect(count("supportEnd")).to.equal(1);
			const ticket = deskControl.tickets()[0];
			expect(ticket.status).to.equal("closed");
			expect(ticket.closedReason).to.equal("userLeft");
			expect(r.desk.getCallCount()).to.equal(0);
		});

		it("ends a live call the sync lists for a player who is not in the server, once", () => {
			deskControl.startChat(r.runningGameId, 4121);
			r.sync();
			r.sync();
			waitUntil(() => count("supportEnd") === 1 && !r.desk.hasCallsToEnd(), "the end", 5);
			r.sync();
			expect(count("supportEnd")).to.equal(1);
			expect(liveTickets()).to.equal(0);
			expect(deskControl.tickets()[0].closedReason).to.equal("userLeft");
		});

		it("ends a call whose create is answered while the server's calls are being ended", () => {
			const player = harness.players.add(4122, "Late");
			lateCreate(1000);
			fire(player, "call", { type: "support", reason: "help" });
			expect(r.desk.getCallCount()).to.equal(0);
			expect(r.desk.hasCallsToEnd()).to.equal(true);
			r.desk.endAllCalls().await();
			expect(count("supportCreate")).to.equal(1);
			expect(count("supportEnd")).to.equal(1);
			expect(liveTickets()).to.equal(0);
			expect(deskControl.tickets()[0].closedReason).to.equal("serverClosed");
			expect(kindsOf(player, r.chatRemote)).to.equal("");
		});

		it("ends the call when game code closes the player's chat", () => {
			const player = harness.players.add(4123, "Closed");
			fire(player, "call", { type: "support", reason: "help" });
			waitUntil(() => r.desk.getCallCount() === 1, "the call", 5);
			r.sync();
			expect(r.bridge.close(player)).to.equal(1);
			waitUntil(() => r.desk.getCallCount() === 0 && count("supportEnd") === 1, "the end", 5);
			expect(liveTickets()).to.equal(0);
			expect(deskControl.tickets()[0].closedReason).to.equal("closedByUser");
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

		it("places one call at a time per player, and one new call per 30 s", () => {
			// docs/support-calls.md (SC21): a second call while one is open is refused with the player's words, and so
			// is a new call within 30 s of the last; neither reaches the service.
			const player = harness.players.add(4109, "Twice");
			fire(player, "call", { type: "support", reason: "first" });
			waitUntil(() => r.desk.getCallCount() === 1, "the first call", 5);
			fire(player, "call", { type: "support", reason: "second, while the first is open" });
			expect(results(player)[results(player).size() - 1]).to.equal("You already have a call open.");
			fire(player, "end", chatIdOf(player)!);
			waitUntil(() => r.desk.getCallCount() === 0, "the end", 5);
			r.clock.advance(29);
			fire(player, "call", { type: "support", reason: "again within 30 s" });
			expect(results(player)[results(player).size() - 1]).to.equal(
				"Please wait a little before calling staff again.",
			);
			expect(count("supportCreate")).to.equal(1);
			r.clock.advance(1.5);
			fire(player, "call", { type: "support", reason: "after 30 s" });
			waitUntil(() => r.desk.getCallCount() === 1, "the second call", 5);
			expect(count("supportCreate")).to.equal(2);
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

	// Issue 32, point 4: each player's messages wait in a queue of their own, and nothing shown as sent is dropped.
	describe("SupportDesk: fair, visible message queues", () => {
		const callers = (from: number, count: number) => deskCallers(r, from, count);
		const say = (player: Player, chatId: string, text: string) => sayInCall(r, player, chatId, text);
		const notices = (player: Player) => messagesOf(player, r.chatRemote).filter((m) => m.sender === "Notice");

		it("30 callers writing one message a second do not push out another caller's 5 messages", () => {
			const flood = callers(4200, 30);
			const [[victim, victimChat]] = callers(4300, 1);
			// 120 s of 30 players writing at the documented rate (one a second), a sync every 3 s; a 31st player
			// writes 5 messages late in it, behind everything the others wrote (before: 3 of the 5 reached staff).
			for (let second = 1; second <= 120; second++) {
				r.clock.advance(1);
				for (const [player, chatId] of flood) say(player, chatId, `flood ${player.UserId} ${second}`);
				if (second > 70 && second <= 75) say(victim, victimChat, `mine ${second - 70}`);
				task.wait();
				if (second % 3 === 0) r.sync();
			}
			for (let i = 0; i < 30 && r.desk.outbox.size() > 0; i++) r.sync();
			const mine = storedFrom(victim.UserId);
			expect(mine.join("|")).to.equal("mine 1|mine 2|mine 3|mine 4|mine 5");
			// Every message written reached staff once: nobody's were pushed out.
			let stored = 0;
			for (const ticket of deskControl.tickets())
				stored += ticket.messages.filter((m) => m.origin === "user").size();
			expect(stored).to.equal(30 * 120 + 5);
			expect(r.desk.stats.notSent).to.equal(0);
			expect(notices(victim).size()).to.equal(0);
		});

		it("a full queue refuses the next message and tells the player, once in a while; no message shown is lost", () => {
			const [[writer, chatId]] = callers(4400, 1);
			// The service is down for a while: every sync fails, and the player keeps writing at one a second.
			serviceControl.fault({ operation: "sendData" as never, status: 503, times: 100 });
			for (let second = 1; second <= 25; second++) {
				r.clock.advance(1);
				say(writer, chatId, `line ${second}`);
				task.wait();
				if (second % 3 === 0) r.sync();
			}
			waitUntil(() => r.desk.stats.said + r.desk.stats.notSent === 25, "every line handled", 5);
			serviceControl.clearFaults();
			for (let i = 0; i < 5 && r.desk.outbox.size() > 0; i++) r.sync();
			const stored = storedFrom(writer.UserId);
			const echoed = messagesOf(writer, r.chatRemote)
				.filter((m) => m.sender !== "Notice")
				.map((m) => m.text);
			expect(stored.size()).to.equal(20);
			expect(r.desk.stats.notSent).to.equal(5);
			// What the player saw as sent is exactly what reached staff; each refusal was said (at most one per 10 s).
			expect(echoed.join("|")).to.equal(stored.join("|"));
			expect(notices(writer).size() >= 1 && notices(writer).size() <= 3).to.equal(true);
			expect(linesWith(warnings(), "a player message was not sent").size()).to.equal(1);
		});
	});

	describe("SupportDesk: a message origin StaffOps does not know", () => {
		it("shows it to the player as other text, never hidden as the player's own words, counts it and warns once", () => {
			const player = harness.players.add(4501, "Caller");
			fire(player, "call", { type: "support", reason: "help" });
			waitUntil(() => r.desk.getCallCount() === 1, "the call", 5);
			r.sync();
			const hello = "Hello, how can I help?";
			deskControl.reply(deskControl.tickets()[0]._id, hello);
			const index = deskControl
				.tickets()[0]
				.messages.findIndex((message) => message.message === hello && message.origin === "agent");
			expect(index >= 0).to.equal(true);
			// The next sync gives the agent's message an origin StaffOps does not know (a renamed `agent`, say).
			serviceControl.fault({
				operation: "sendData" as never,
				kind: "extended",
				fields: { [`ongoingChats.0.messages.${index}.origin`]: "staff" },
				times: 1,
			});
			r.sync();
			r.sync();
			// The player saw it once, as other text; it was counted once and warned once, naming the origin.
			expect(
				messagesOf(player, r.chatRemote)
					.map((message) => `${message.text}:${message.origin}`)
					.join("|"),
			).to.equal(`${hello}:other`);
			expect(r.bridge.getStats().unknownOrigins).to.equal(1);
			expect(linesWith(warnings(), "origin StaffOps does not know (staff)").size()).to.equal(1);
		});
	});
};
