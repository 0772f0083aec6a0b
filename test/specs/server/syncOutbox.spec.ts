import { StaffOps } from "../../../src/server";
import { SYNC_FAST_SECONDS } from "../../../src/server/features/presence/sync";
import { ensureRemote } from "../../../src/shared/remotes";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { waitUntil } from "../../support/waits";
import { received } from "../bridge/support";
import { storedFrom } from "../bridge/deskRig";
import { cleanUp, freshStart, join, Started, startDeployed, syncAfter } from "./support";

/** Moves the clock one fast sync interval on (a call is open) and waits for that sync's answer. */
const fastSync = (started: Started) => syncAfter(started, SYNC_FAST_SECONDS);

// Issue 42, "Queues and caps": what the sync tells the chat outbox (docs/deployed-service.md#the-sync: chat messages
// are not sent again blindly, the transcript is read first, but only after a sync whose outcome is unknown). Against
// the reference service's deployed profile; every count is of requests it received or messages it stored.

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUp());
	afterAll(() => serviceControl.reset());

	describe("the sync and the chat outbox", () => {
		it("an answered sync's player messages are stored once and never checked: no transcript read", () => {
			const started = startDeployed();
			const caller = join(2951, "Caller");
			waitUntil(() => StaffOps.getSession(caller) !== undefined, "the join");
			const [placed] = StaffOps.requestCall(caller, { type: "support", reason: "I need help" }).await();
			expect(placed).to.equal(true);
			const remote = ensureRemote("SupportRequests");
			const chats = () => received(caller, remote).filter(([kind]) => kind === "chat");
			waitUntil(() => chats().size() === 1, "the call's chat on the caller's client");
			const chatId = (chats()[0][1] as { chatId: string }).chatId;
			fastSync(started);
			const reads = serviceControl.count("getCallMessages");
			harness.players.client(caller).fire(remote, "say", chatId, "hello staff");
			const desk = started.server.getSupportDesk()!;
			waitUntil(() => desk.stats.said === 1, "the message queued");
			fastSync(started);
			expect(storedFrom(caller.UserId).join("|")).to.equal("hello staff");
			fastSync(started);
			fastSync(started);
			// The sync was answered: the message is stored, and nothing reads the transcript to look for it (before:
			// every answered sync with a message cost a transcript read, as if its outcome were unknown).
			expect(serviceControl.count("getCallMessages")).to.equal(reads);
			expect(storedFrom(caller.UserId).join("|")).to.equal("hello staff");
		});
	});
};
