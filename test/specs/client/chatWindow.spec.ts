import { ChatWindow, formatClockTime } from "../../../src/client/chat/chatWindow";
import { harness } from "../../support/harness";
import { waitUntil } from "../../support/waits";

/** A PlayerGui to mount in (not creatable in Roblox; Lune makes one). */
const newPlayerGui = () => new Instance("PlayerGui" as "Folder");

const NOON = 1717243200; // 2024-06-01T12:00:00Z

function utcWindow(parent: Instance, title = "Support", maxEntries?: number) {
	return new ChatWindow(parent, { title, formatTime: (seconds) => formatClockTime(seconds, true), maxEntries });
}

function find<T extends Instance>(root: Instance, path: string): T {
	let current: Instance = root;
	for (const name of path.split("/")) {
		const child = current.FindFirstChild(name);
		if (child === undefined) error(`no ${name} under ${current.GetFullName()} (looking for ${path})`, 2);
		current = child;
	}
	return current as T;
}

/** The message entries under the list, in LayoutOrder. */
function entries(window: ChatWindow): Array<Frame> {
	const list = find<ScrollingFrame>(window.gui, "Window/Messages");
	const frames = list.GetChildren().filter((child): child is Frame => child.IsA("Frame"));
	frames.sort((a, b) => a.LayoutOrder < b.LayoutOrder);
	return frames;
}

function describeEntry(entry: Frame): string {
	const sender = find<TextLabel>(entry, "Header/Sender").Text;
	const time = find<TextLabel>(entry, "Header/Time").Text;
	const text = find<TextLabel>(entry, "Text").Text;
	return `${sender} ${time} ${text}`;
}

// The built-in window, built in the harness; specs check its instance tree (Lune has no rendering).
export = () => {
	let parent: Instance;

	beforeEach(() => {
		parent = newPlayerGui();
	});

	afterEach(() => parent.Destroy());

	describe("ChatWindow", () => {
		it("builds a ScreenGui with a title bar, minimise and close buttons, and a scrolling message list", () => {
			const window = utcWindow(parent, "Cafe support");
			const gui = parent.FindFirstChild("StaffOpsCallChat") as ScreenGui;
			expect(gui).to.equal(window.gui);
			expect(gui.IsA("ScreenGui")).to.equal(true);
			expect(gui.ResetOnSpawn).to.equal(false);
			expect(find<TextLabel>(gui, "Window/TitleBar/Title").Text).to.equal("Cafe support");
			expect(find<TextButton>(gui, "Window/TitleBar/Minimise").IsA("TextButton")).to.equal(true);
			expect(find<TextButton>(gui, "Window/TitleBar/Close").IsA("TextButton")).to.equal(true);
			const list = find<ScrollingFrame>(gui, "Window/Messages");
			expect(list.IsA("ScrollingFrame")).to.equal(true);
			expect(list.AutomaticCanvasSize).to.equal(Enum.AutomaticSize.Y);
			expect(list.ScrollingDirection).to.equal(Enum.ScrollingDirection.Y);
			const layout = list.FindFirstChildOfClass("UIListLayout")!;
			expect(layout.SortOrder).to.equal(Enum.SortOrder.LayoutOrder);
			expect(entries(window).size()).to.equal(0);
		});

		it("shows messages in arrival order, each with its sender, time and text", () => {
			const window = utcWindow(parent);
			window.addMessage({ sender: "HeadModHana", text: "Hi! Thanks for calling.", sentAt: NOON });
			window.addMessage({ sender: "HeadModHana", text: "What happened?", sentAt: NOON + 65 });
			window.addMessage({ sender: "ModMarco", text: "I am joining your server.", sentAt: NOON + 3600 + 600 });
			const shown = entries(window).map(describeEntry);
			expect(shown.join("\n")).to.equal(
				[
					"HeadModHana 12:00 Hi! Thanks for calling.",
					"HeadModHana 12:01 What happened?",
					"ModMarco 13:10 I am joining your server.",
				].join("\n"),
			);
			const names = entries(window).map((entry) => entry.Name);
			expect(names.join(",")).to.equal("Message1,Message2,Message3");
			expect(window.getEntryCount()).to.equal(3);
		});

		it("shows text as plain text, never as rich text markup", () => {
			const window = utcWindow(parent);
			const entry = window.addMessage({ sender: "<b>x</b>", text: '<font size="100">big</font>', sentAt: NOON })!;
			expect(find<TextLabel>(entry, "Text").RichText).to.equal(false);
			expect(find<TextLabel>(entry, "Header/Sender").RichText).to.equal(false);
			expect(find<TextLabel>(entry, "Text").Text).to.equal('<font size="100">big</font>');
		});

		it("keeps only the newest maxEntries messages", () => {
			const window = utcWindow(parent, "Support", 3);
			for (let i = 1; i <= 5; i++) window.addMessage({ sender: "A", text: `m${i}`, sentAt: NOON });
			const texts = entries(window).map((entry) => find<TextLabel>(entry, "Text").Text);
			expect(texts.join(",")).to.equal("m3,m4,m5");
		});

		it("minimises to its title bar, counts new messages there, and restores", () => {
			const window = utcWindow(parent);
			window.addMessage({ sender: "A", text: "before", sentAt: NOON });
			window.setMinimised(true);
			const list = find<ScrollingFrame>(window.gui, "Window/Messages");
			const frame = find<Frame>(window.gui, "Window");
			const title = find<TextLabel>(window.gui, "Window/TitleBar/Title");
			expect(window.isMinimised()).to.equal(true);
			expect(list.Visible).to.equal(false);
			expect(frame.Size.Y.Offset).to.equal(32);
			expect(find<TextButton>(window.gui, "Window/TitleBar/Minimise").Text).to.equal("+");
			window.addMessage({ sender: "A", text: "while minimised", sentAt: NOON });
			window.addMessage({ sender: "A", text: "another", sentAt: NOON });
			expect(title.Text).to.equal("Support (2 new)");
			window.setMinimised(false);
			expect(list.Visible).to.equal(true);
			expect(frame.Size.Y.Offset > 32).to.equal(true);
			expect(title.Text).to.equal("Support");
			expect(entries(window).size()).to.equal(3);
		});

		it("minimises and restores when its minimise button is activated", () => {
			const window = utcWindow(parent);
			const minimise = find<TextButton>(window.gui, "Window/TitleBar/Minimise");
			harness.gui.activate(minimise);
			waitUntil(() => window.isMinimised(), "the click to minimise", 2);
			harness.gui.activate(minimise);
			waitUntil(() => !window.isMinimised(), "the click to restore", 2);
		});

		it("closes when its close button is activated: the ScreenGui is destroyed and closed fires by the player", () => {
			const window = utcWindow(parent);
			let byPlayer: boolean | undefined;
			window.closed.Connect((value) => (byPlayer = value));
			harness.gui.activate(find<TextButton>(window.gui, "Window/TitleBar/Close"));
			waitUntil(() => window.isClosed(), "the click to close", 2);
			expect(byPlayer).to.equal(true);
			expect(parent.FindFirstChild("StaffOpsCallChat")).never.to.be.ok();
		});

		it("closes from code once, and then ignores new messages", () => {
			const window = utcWindow(parent);
			let closings = 0;
			let byPlayer: boolean | undefined;
			window.closed.Connect((value) => {
				closings += 1;
				byPlayer = value;
			});
			window.close();
			window.close();
			expect(closings).to.equal(1);
			expect(byPlayer).to.equal(false);
			expect(parent.GetChildren().size()).to.equal(0);
			expect(window.addMessage({ sender: "A", text: "late", sentAt: NOON })).never.to.be.ok();
			window.setMinimised(true);
			expect(window.isMinimised()).to.equal(false);
		});

		it("adds End and a text box for a call; Send fires the trimmed text (200 characters at most) and clears", () => {
			const window = utcWindow(parent);
			const sent = new Array<string>();
			let ends = 0;
			window.sent.Connect((text) => sent.push(text));
			window.endRequested.Connect(() => (ends += 1));
			window.setCallControls(true);
			const input = find<TextBox>(window.gui, "Window/InputBar/Input");
			const send = find<TextButton>(window.gui, "Window/InputBar/Send");
			// Activated is deferred: each press is waited for before the next text is typed.
			input.Text = "  hello there  ";
			harness.gui.activate(send);
			waitUntil(() => sent.size() === 1, "the first send", 2);
			input.Text = "   ";
			harness.gui.activate(send);
			waitUntil(() => input.Text === "", "the blank text cleared", 2);
			input.Text = string.rep("é", 250);
			harness.gui.activate(send);
			harness.gui.activate(find<TextButton>(window.gui, "Window/TitleBar/End"));
			waitUntil(() => sent.size() === 2 && ends === 1, "the long send and the end", 2);
			expect(sent[0]).to.equal("hello there");
			expect(utf8.len(sent[1])[0]).to.equal(200);
			expect(input.Text).to.equal("");
			window.setCallControls(false);
			expect(window.gui.FindFirstChild("Window")!.FindFirstChild("InputBar")).to.equal(undefined);
			expect(find<TextButton>(window.gui, "Window/TitleBar/End")).to.be.ok();
		});

		it("shows an ended call: no End, no text box, the title says ended, the messages stay", () => {
			const window = utcWindow(parent, "Staff call");
			window.setCallControls(true);
			window.addMessage({ sender: "System", text: "The call was ended by a staff member.", sentAt: NOON });
			window.showEnded();
			expect(window.isEnded()).to.equal(true);
			expect(window.isClosed()).to.equal(false);
			const frame = find<Frame>(window.gui, "Window");
			expect(frame.FindFirstChild("InputBar")).to.equal(undefined);
			expect(frame.FindFirstChild("TitleBar")!.FindFirstChild("End")).to.equal(undefined);
			expect(find<TextLabel>(window.gui, "Window/TitleBar/Title").Text).to.equal("Staff call (ended)");
			expect(entries(window).size()).to.equal(1);
			window.setCallControls(true);
			expect(frame.FindFirstChild("InputBar")).to.equal(undefined);
		});

		it("formats times as HH:MM", () => {
			expect(formatClockTime(0, true)).to.equal("00:00");
			expect(formatClockTime(NOON + 13 * 3600 + 5 * 60 + 59, true)).to.equal("01:05");
			expect(formatClockTime(NOON).match("^%d%d:%d%d$")[0]).to.be.ok();
		});
	});
};
