import { MAX_EVENTS_PER_SYNC, MAX_WAITING, MAX_WAITING_PER_PLAYER } from "../../../src/bridge/chatOutbox";
import { WORDS } from "../../../src/bridge/supportDeskOptions";
import { deskControl } from "../../support/deskControl";
import { serviceControl, FaultSpec } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { messagesOf } from "./support";
import { DeskRig, deskCallers, deskRig, dropDeskRig, sayInCall, storedFrom } from "./deskRig";

// Issue 42, "Queues and caps": the player messages waiting for the sync (docs/support-calls.md, "Calls a player
// starts"). Each count is of what the reference service's deployed profile stored, or what a player's chat showed.

export = () => {
	let r: DeskRig;
	beforeEach(() => (r = deskRig()));
	afterEach(() => dropDeskRig(r));

	const say = (player: Player, chatId: string, text: string) => sayInCall(r, player, chatId, text);
	const count = (operation: string) => serviceControl.count(operation as never);
	const storedInAll = () => {
		let stored = 0;
		for (const ticket of deskControl.tickets()) stored += ticket.messages.filter((m) => m.origin === "user").size();
		return stored;
	};
	const notices = (player: Player) =>
		messagesOf(player, r.chatRemote).filter((m) => m.sender === "Notice" && m.text === WORDS.queueFull);
	/** Moves the desk's clock a second at a time until `done`, bounded (a check is scheduled as its read is handled). */
	const advanceUntil = (done: () => boolean, what: string) => {
		const began = os.clock();
		while (!done()) {
			if (os.clock() - began > 30) error(`timed out after 30 s waiting for ${what}`);
			r.clock.advance(1);
			waitSeconds(0.05);
		}
	};

	describe("the outbox of player messages", () => {
		it("holds 1,000 messages at most, every player's together: the rest are refused and their writers told", () => {
			// 51 callers each fill their own queue (20) before any sync: 1,020 written, 1,000 may wait.
			const players = math.ceil(MAX_WAITING / MAX_WAITING_PER_PLAYER) + 1;
			const all = deskCallers(r, 4600, players);
			for (let message = 1; message <= MAX_WAITING_PER_PLAYER; message++) {
				// 5 at once, then one a second: the per-player rate lets every message through to the queue.
				if (message > 5) r.clock.advance(1);
				for (const [player, chatId] of all) say(player, chatId, `m${message} ${player.UserId}`);
				task.wait();
			}
			const written = players * MAX_WAITING_PER_PLAYER;
			waitUntil(() => r.desk.stats.said + r.desk.stats.notSent === written, "every message handled", 20);
			expect(r.desk.outbox.size()).to.equal(MAX_WAITING);
			for (let i = 0; i < 20 && r.desk.outbox.size() > 0; i++) r.sync();
			expect(storedInAll()).to.equal(MAX_WAITING);
			expect(r.desk.stats.notSent).to.equal(written - MAX_WAITING);
			// Each refused writer was told in their chat; nobody else was.
			let told = 0;
			for (const [player] of all) {
				const mine = storedFrom(player.UserId).size();
				const refused = MAX_WAITING_PER_PLAYER - mine;
				expect(notices(player).size()).to.equal(refused > 0 ? 1 : 0);
				told += refused;
			}
			expect(told).to.equal(written - MAX_WAITING);
		});

		it("starts each sync's round at the next player: a caller behind 100 busier callers goes in the second sync", () => {
			const busy = deskCallers(r, 4700, MAX_EVENTS_PER_SYNC);
			const [[late, lateChat]] = deskCallers(r, 4800, 1);
			// Every busy caller has 3 waiting; the late caller wrote last, so they come last in the round.
			for (let message = 1; message <= 3; message++) {
				for (const [player, chatId] of busy) say(player, chatId, `busy ${message}`);
				task.wait();
			}
			say(late, lateChat, "my one message");
			waitUntil(() => r.desk.outbox.size() === 3 * MAX_EVENTS_PER_SYNC + 1, "every message queued", 20);
			r.sync();
			// The first sync is full with one message of each busy caller.
			expect(storedInAll()).to.equal(MAX_EVENTS_PER_SYNC);
			expect(storedFrom(late.UserId).size()).to.equal(0);
			r.sync();
			// Before: every sync began with the same caller, so the late one waited until the busy ones ran dry.
			expect(storedFrom(late.UserId).join("|")).to.equal("my one message");
			expect(storedInAll()).to.equal(2 * MAX_EVENTS_PER_SYNC);
		});

		it("after an unknown sync, a newer message waits while the earlier one is checked: staff read them in order", () => {
			const [[writer, chatId]] = deskCallers(r, 4900, 1);
			say(writer, chatId, "one");
			waitUntil(() => r.desk.outbox.size() === 1, "the first message queued", 5);
			// The sync's answer is lost before the service acts; the first transcript read fails (checked again 5 s on).
			serviceControl.fault({ operation: "sendData" as never, kind: "drop" as FaultSpec["kind"], times: 1 });
			serviceControl.fault({ operation: "getCallMessages" as never, status: 500, times: 1 });
			const reads = count("getCallMessages");
			r.sync();
			waitUntil(() => count("getCallMessages") === reads + 1, "the first transcript read", 5);
			waitSeconds(0.1);
			expect(storedInAll()).to.equal(0);
			say(writer, chatId, "two");
			waitUntil(() => r.desk.stats.said === 2, "the second message queued", 5);
			r.sync();
			// "two" waits for the check of "one": nothing of this call was sent.
			expect(storedInAll()).to.equal(0);
			advanceUntil(() => r.desk.outbox.resent === 1, "the check that finds the first message missing");
			r.sync();
			r.sync();
			expect(storedFrom(writer.UserId).join("|")).to.equal("one|two");
			expect(r.desk.stats.notSent).to.equal(0);
		});

		it("after giving up an unknown sync's messages, the call's later messages are sent", () => {
			const [[writer, chatId]] = deskCallers(r, 4950, 1);
			say(writer, chatId, "only once");
			waitUntil(() => r.desk.outbox.size() === 1, "the first message queued", 5);
			serviceControl.fault({ operation: "getCallMessages" as never, status: 500, times: 1000 });
			serviceControl.fault({ operation: "sendData" as never, kind: "drop-after" as FaultSpec["kind"], times: 1 });
			r.sync();
			advanceUntil(() => r.desk.outbox.lost === 1, "the 5 failed transcript reads");
			serviceControl.clearFaults();
			say(writer, chatId, "and later");
			waitUntil(() => r.desk.outbox.size() === 1, "the later message queued", 5);
			r.sync();
			r.sync();
			// Before: the call stayed "being checked" for ever, and the later message never left the server.
			expect(storedFrom(writer.UserId).join("|")).to.equal("only once|and later");
			expect(r.desk.outbox.size()).to.equal(0);
		});
	});
};
