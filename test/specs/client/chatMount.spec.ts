import { CallCloseReason } from "../../../src/shared/chatProtocol";
import { CallChatClient, ChatChannel } from "../../../src/client/chat/callChatClient";
import { formatClockTime } from "../../../src/client/chat/chatWindow";
import { mountCallChat } from "../../../src/client/chat/mount";
import { harness } from "../../support/harness";

/** A PlayerGui to mount in (not creatable in Roblox; Lune makes one). */
const newPlayerGui = () => new Instance("PlayerGui" as "Folder");
import { fakeRig, FakeRig } from "../bridge/support";
import { waitUntil } from "../../support/waits";

/** The player's side of the remote in the harness, as a channel for the chat client. */
function channelOf(player: Player, remote: RemoteEvent): ChatChannel {
	const fake = harness.players.client(player);
	return {
		connect: (handler) => fake.onEvent(remote, handler),
		send: (...args) => fake.fire(remote, ...args),
	};
}

/** The chat windows under a PlayerGui. */
function windowsIn(playerGui: Instance): number {
	return playerGui
		.GetChildren()
		.filter((child) => child.Name === "StaffOpsCallChat")
		.size();
}

function textsIn(gui: Instance): string {
	const list = gui.FindFirstChild("Window")!.FindFirstChild("Messages")!;
	const frames = list.GetChildren().filter((child): child is Frame => child.IsA("Frame"));
	frames.sort((a, b) => a.LayoutOrder < b.LayoutOrder);
	return frames
		.map((frame) => {
			const sender = (frame.FindFirstChild("Header")!.FindFirstChild("Sender") as TextLabel).Text;
			return `${sender}: ${(frame.FindFirstChild("Text") as TextLabel).Text}`;
		})
		.join("|");
}

// Server bridge → CallEvents remote → client API → window, all in the harness.
export = () => {
	let rig: FakeRig;
	let playerGui: Instance;
	let reasons: Array<CallCloseReason>;

	beforeEach(() => {
		rig = fakeRig();
		reasons = [];
		rig.bridge.closed.Connect((_, reason) => reasons.push(reason));
		rig.http.open("call");
		rig.http.say("call", "Hi! Thanks for calling.", "HeadModHana");
		playerGui = newPlayerGui();
	});

	afterEach(() => {
		rig.bridge.destroy();
		playerGui.Destroy();
		harness.reset();
	});

	describe("The chat UI on the bridge", () => {
		it("opens a window for a chat and adds each message in order", () => {
			const player = harness.players.add(3101);
			const client = new CallChatClient(channelOf(player, rig.remote));
			mountCallChat(client, playerGui, { formatTime: (seconds) => formatClockTime(seconds, true) });
			client.start();
			waitUntil(() => rig.bridge.getStats().clientEvents === 1, "the client's ready", 2);
			rig.bridge.open(player, "call", { title: "Cafe support" });
			waitUntil(() => windowsIn(playerGui) === 1, "the window", 2);
			const gui = playerGui.FindFirstChild("StaffOpsCallChat")!;
			const title = gui
				.FindFirstChild("Window")!
				.FindFirstChild("TitleBar")!
				.FindFirstChild("Title") as TextLabel;
			expect(title.Text).to.equal("Cafe support");
			rig.http.say("call", "What happened?", "HeadModHana");
			rig.http.say("call", "Looking into it.", "ModMarco");
			rig.clock.advance(2);
			const expected =
				"HeadModHana: Hi! Thanks for calling.|HeadModHana: What happened?|ModMarco: Looking into it.";
			waitUntil(() => textsIn(gui) === expected, "the messages", 2);
			const time = gui.FindFirstChild("Window")!.FindFirstChild("Messages")!.FindFirstChild("Message1")!;
			expect((time.FindFirstChild("Header")!.FindFirstChild("Time") as TextLabel).Text).to.equal("08:00");
		});

		it("catches up after starting late: the replay shows every message once", () => {
			const player = harness.players.add(3102);
			rig.bridge.open(player, "call");
			rig.http.say("call", "Second", "HeadModHana");
			rig.clock.advance(2);
			// The client (and its UI) start only now: the earlier events were missed.
			const client = new CallChatClient(channelOf(player, rig.remote));
			const mounted = mountCallChat(client, playerGui);
			client.start();
			waitUntil(() => windowsIn(playerGui) === 1, "the replayed window", 2);
			const gui = playerGui.FindFirstChild("StaffOpsCallChat")!;
			waitUntil(() => textsIn(gui) !== "", "the replayed messages", 2);
			// Let anything else in flight arrive, then check nothing was shown twice.
			for (let i = 0; i < 5; i++) task.wait();
			expect(textsIn(gui)).to.equal("HeadModHana: Hi! Thanks for calling.|HeadModHana: Second");
			expect(playerGui.GetChildren().size()).to.equal(1);
			expect(mounted.getWindow(rig.bridge.getChats(player)[0].chatId)).to.be.ok();
		});

		it("keeps the window of an ended call, marked ended, until lingerSeconds pass", () => {
			const player = harness.players.add(3103);
			const client = new CallChatClient(channelOf(player, rig.remote));
			const mounted = mountCallChat(client, playerGui, { lingerSeconds: 1 });
			client.start();
			const chat = rig.bridge.open(player, "call");
			waitUntil(() => windowsIn(playerGui) === 1, "the window", 2);
			rig.http.calls.get("call")!.status = "closed";
			rig.clock.advance(2);
			expect(reasons.join(",")).to.equal("ended");
			waitUntil(() => mounted.getWindow(chat.chatId)?.isEnded() === true, "the window marked ended", 2);
			task.wait(0.5);
			expect(windowsIn(playerGui)).to.equal(1);
			waitUntil(() => windowsIn(playerGui) === 0, "the window to close after lingering", 3);
		});

		it("closes the window of an ended call at once when lingerSeconds is 0", () => {
			const player = harness.players.add(3106);
			const client = new CallChatClient(channelOf(player, rig.remote));
			mountCallChat(client, playerGui, { lingerSeconds: 0 });
			client.start();
			rig.bridge.open(player, "call");
			waitUntil(() => windowsIn(playerGui) === 1, "the window", 2);
			rig.http.calls.get("call")!.status = "closed";
			rig.clock.advance(2);
			waitUntil(() => windowsIn(playerGui) === 0, "the window to close", 2);
		});

		it("dismisses the chat on the server when the player closes the window", () => {
			const player = harness.players.add(3104);
			const client = new CallChatClient(channelOf(player, rig.remote));
			mountCallChat(client, playerGui);
			client.start();
			const chat = rig.bridge.open(player, "call");
			waitUntil(() => windowsIn(playerGui) === 1, "the window", 2);
			const close = playerGui
				.FindFirstChild("StaffOpsCallChat")!
				.FindFirstChild("Window")!
				.FindFirstChild("TitleBar")!
				.FindFirstChild("Close") as TextButton;
			harness.gui.activate(close);
			waitUntil(() => chat.getState() === "closed", "the dismiss to reach the server", 2);
			expect(windowsIn(playerGui)).to.equal(0);
			expect(reasons.join(",")).to.equal("dismissed");
		});

		it("shows one window per chat and closes only the one that ends", () => {
			rig.http.open("other");
			rig.http.say("other", "Other call here", "StudioHelper");
			const player = harness.players.add(3105);
			const client = new CallChatClient(channelOf(player, rig.remote));
			const mounted = mountCallChat(client, playerGui);
			client.start();
			const first = rig.bridge.open(player, "call", { title: "First" });
			const second = rig.bridge.open(player, "other", { title: "Second" });
			waitUntil(() => windowsIn(playerGui) === 2, "two windows", 2);
			first.close();
			waitUntil(() => windowsIn(playerGui) === 1, "the first window to close", 2);
			expect(mounted.getWindow(second.chatId)).to.be.ok();
			expect(mounted.getWindow(first.chatId)).never.to.be.ok();
			mounted.destroy();
			expect(playerGui.GetChildren().size()).to.equal(0);
		});
	});
};
