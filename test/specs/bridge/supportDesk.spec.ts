import { HttpService } from "@rbxts/services";
import { CallBridge } from "../../../src/bridge/callBridge";
import { SupportDesk } from "../../../src/bridge/supportDesk";
import { StaffOpsApiClient } from "../../../src/api/apiClient";
import { FakeScheduler } from "../../support/fakes";
import { harness } from "../../support/harness";
import { deskControl } from "../../support/deskControl";
import { serviceControl, FaultSpec } from "../../support/serviceControl";
import { liveClient, messagesOf, kindsOf } from "./support";
import { waitUntil } from "../../support/waits";

interface Rig {
	readonly desk: SupportDesk;
	readonly bridge: CallBridge;
	readonly client: StaffOpsApiClient;
	readonly chatRemote: RemoteEvent;
	readonly deskRemote: RemoteEvent;
	readonly runningGameId: string;
	/** One sync as the deployed profile's sendData sync runs it (the stand-in driver of the two hooks). */
	readonly sync: () => void;
	readonly fast: Array<boolean>;
}

function rig(): Rig {
	serviceControl.reset("deployed");
	const client = liveClient();
	const [ok, registration] = client.activity
		.registerServer({
			gameId: 1,
			placeId: 2,
			jobId: "job-desk",
			privateServerId: "",
			privateServerOwnerId: 0,
			placeVersion: "1",
		})
		.await();
	if (!ok) error(`register: ${tostring(registration)}`);
	const runningGameId = (registration as { runningGameId: string }).runningGameId;
	const clock = new FakeScheduler();
	const chatRemote = new Instance("RemoteEvent");
	chatRemote.Name = "CallEventsUnderTest";
	const deskRemote = new Instance("RemoteEvent");
	deskRemote.Name = "SupportRequestsUnderTest";
	const bridge = new CallBridge({ client, scheduler: clock, random: () => 0.5, remote: chatRemote });
	const fast = new Array<boolean>();
	const desk = new SupportDesk({
		client,
		bridge,
		runningGameId: () => runningGameId,
		scheduler: clock,
		remote: deskRemote,
		setFast: (on) => fast.push(on),
	});
	desk.setAvailable(true);
	const sync = () => {
		const chatEvents = desk.outbox.take();
		const [sent, answer] = client
			.request({
				method: "POST",
				path: "/activity/sendData",
				body: { gameId: runningGameId, events: [], chatEvents },
				safeToRepeat: false,
			})
			.await();
		if (sent) {
			desk.outbox.settled("sent");
			desk.handleOngoingChats((answer as { ongoingChats: Array<unknown> }).ongoingChats ?? []);
		} else {
			const err = answer as { mayHaveActed?: boolean };
			desk.outbox.settled(err.mayHaveActed === true ? "unknown" : "failed");
		}
		waitUntil(() => bridge.getStats().busy === 0, "deliveries", 5);
	};
	return { desk, bridge, client, chatRemote, deskRemote, runningGameId, sync, fast };
}

export = () => {
	let r: Rig;
	beforeEach(() => {
		r = rig();
	});
	afterEach(() => {
		r.desk.destroy();
		r.bridge.destroy();
		serviceControl.clearFaults();
		harness.reset();
	});

	const fire = (player: Player, ...args: Array<unknown>) => {
		harness.players.client(player).fire(r.deskRemote, ...args);
		task.wait(0.05);
	};
	const results = (player: Player) =>
		harness.players
			.client(player)
			.received(r.deskRemote)
			.filter((entry) => entry[0] === "result")
			.map((entry) => (entry[1] as { text: string }).text);
	const chatIdOf = (player: Player) => {
		const entry = harness.players
			.client(player)
			.received(r.deskRemote)
			.find((item) => item[0] === "chat");
		return (entry?.[1] as { chatId: string } | undefined)?.chatId;
	};
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
