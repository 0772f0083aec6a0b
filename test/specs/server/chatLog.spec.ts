import { StaffOps } from "../../../src/server";
import { SYNC_IDLE_SECONDS } from "../../../src/server/features/presence/sync";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { Started, cleanUp, freshStart, join, startDeployed } from "./support";

// Chat logging under Roblox's two chat systems (issue 30, item 4), against the reference service's deployed profile:
// a staff member's chat lines become `message` session events, counted in the sync bodies the service received.
// Messages go through the harness's chat (lune/roblox/fakes/chat.luau): under TextChatService the server calls each
// channel's ShouldDeliverCallback once per receiver; Player.Chatted fires under the legacy chat, and under
// TextChatService only when a spec says so (Roblox's reference does not say whether it does).

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Decodes standard base64 (the deployed service's `encoded: true` messages). */
function fromBase64(text: string): string {
	let bits = 0;
	let count = 0;
	let out = "";
	for (const [char] of text.gmatch("[%w%+/]")) {
		bits = bits * 64 + (BASE64.find(char as string, 1, true)[0]! - 1);
		count += 6;
		if (count >= 8) {
			count -= 8;
			out += string.char(math.floor(bits / 2 ** count) % 256);
			bits %= 2 ** count;
		}
	}
	return out;
}

/** The texts of the `message` events in every sync body the reference service received, oldest first. */
function loggedLines(): Array<string> {
	const lines = new Array<string>();
	for (const request of serviceControl.requests().requests) {
		if (request.operation !== "sendData") continue;
		const events = (request.body as { events?: Array<{ type?: unknown; message?: unknown; encoded?: unknown }> })
			.events;
		for (const event of events ?? []) {
			if (event.type !== "message" || !typeIs(event.message, "string")) continue;
			lines.push(event.encoded === true ? fromBase64(event.message) : event.message);
		}
	}
	return lines;
}

/** Moves the fake clock a sync interval at a time, `syncs` times, letting each sync reach the service. */
function sync(started: Started, syncs: number): void {
	for (let i = 0; i < syncs; i++) {
		const before = serviceControl.count("sendData");
		started.clock.advance(SYNC_IDLE_SECONDS);
		waitUntil(() => serviceControl.count("sendData") > before, "a sync");
	}
}

/** Starts with chat logging on; a staff member (1002) and two other players join. Returns the staff member. */
function staffInChat(): { started: Started; staff: Player } {
	const started = startDeployed({ activity: { chatMessages: true } });
	const staff = join(1002, "HeadModHana");
	join(2501);
	join(2502);
	waitUntil(() => StaffOps.isStaff(staff), "the staff join");
	waitSeconds(0.1);
	return { started, staff };
}

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUp());
	afterAll(() => serviceControl.reset());

	describe("chat logging", () => {
		for (const chattedToo of [true, false]) {
			it(`logs a TextChatService message once (Player.Chatted firing too: ${chattedToo})`, () => {
				harness.chat.setChattedUnderTextChat(chattedToo);
				const { started, staff } = staffInChat();
				// Delivered to all three clients: ShouldDeliverCallback ran once per receiver, and never yielded.
				expect(harness.chat.send(staff, "hello team")).to.equal(3);
				expect(harness.chat.counts().yieldingCallbacks).to.equal(0);
				sync(started, 3);
				const lines = loggedLines();
				expect(lines.size()).to.equal(1);
				expect(lines[0]).to.equal("hello team");
			});
		}

		it("logs through Player.Chatted in a place that uses the legacy chat", () => {
			harness.chat.setVersion("LegacyChatService");
			const { started, staff } = staffInChat();
			harness.chat.send(staff, "legacy hello");
			sync(started, 2);
			const lines = loggedLines();
			expect(lines.size()).to.equal(1);
			expect(lines[0]).to.equal("legacy hello");
		});

		it("logs a 200-character message in CJK and emoji (700 bytes)", () => {
			const text = string.rep("漢", 100) + string.rep("😀", 100);
			expect(utf8.len(text)[0]).to.equal(200);
			expect(text.size()).to.equal(700);
			const { started, staff } = staffInChat();
			harness.chat.send(staff, text);
			sync(started, 2);
			const lines = loggedLines();
			expect(lines.size()).to.equal(1);
			expect(lines[0]).to.equal(text);
		});

		it("logs nothing when the game leaves chat logging off", () => {
			const started = startDeployed();
			const staff = join(1002, "HeadModHana");
			waitUntil(() => StaffOps.isStaff(staff), "the staff join");
			waitSeconds(0.1);
			expect(harness.chat.send(staff, "not logged")).to.equal(1);
			sync(started, 2);
			expect(loggedLines().size()).to.equal(0);
		});
	});
};
