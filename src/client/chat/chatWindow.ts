import { Signal } from "../../shared/signal";
import { screenGui } from "../ui";
import {
	buildEndButton,
	buildEntry,
	buildFrame,
	buildInputBar,
	buildMessageList,
	buildTitleBar,
	HEIGHT,
	INPUT_HEIGHT,
	TITLE_HEIGHT,
	WIDTH,
} from "./chatWindowParts";

/**
 * Options of a {@link ChatWindow}.
 * @see README#support-calls
 */
export interface ChatWindowOptions {
	/** The title bar's text; default `Support`. */
	readonly title?: string;
	/** Formats a message's Unix time for its entry; default {@link formatClockTime} (local `HH:MM`). */
	readonly formatTime?: (unixSeconds: number) => string;
	/** Entries kept; older ones are removed. Default 200. */
	readonly maxEntries?: number;
	/** Pixels the window sits below the default place (to stack several windows). Default 0. */
	readonly offset?: number;
}

/** What one entry shows. */
export interface ChatWindowMessage {
	readonly sender: string;
	readonly text: string;
	/** Unix seconds. */
	readonly sentAt: number;
}

/** Longest message the text box takes, in characters (as Roblox chat; the server cuts it again). */
const MAX_INPUT = 200;

/**
 * `HH:MM` of a Unix time, in the player's local time (or UTC).
 *
 * @example
 * ```ts
 * formatClockTime(0, true); // "00:00"
 * ```
 */
export function formatClockTime(unixSeconds: number, utc = false): string {
	const parts = os.date(utc ? "!*t" : "*t", math.floor(unixSeconds));
	return string.format("%02d:%02d", parts.hour, parts.min);
}

/**
 * The built-in support chat window: a ScreenGui with a title bar (title, minimise and close buttons) and a
 * scrolling list with one entry per message (sender, time, text). Pure UI: it knows nothing of remotes or calls;
 * {@link mountCallChat} connects it to a {@link CallChatClient}.
 *
 * Tree: `ScreenGui "StaffOpsCallChat"` › `Frame "Window"` › `Frame "TitleBar"` (`TextLabel "Title"`,
 * `TextButton "Minimise"`, `TextButton "Close"`) and `ScrollingFrame "Messages"` › `Frame "Message<n>"` (`n` = 1, 2,
 * ... in arrival order, also its `LayoutOrder`) › `Frame "Header"` (`TextLabel "Sender"`, `TextLabel "Time"`) and
 * `TextLabel "Text"`. A call the player takes part in adds `TextButton "End"` to the title bar and `Frame "InputBar"`
 * (`TextBox "Input"`, `TextButton "Send"`) under the messages ({@link ChatWindow.setCallControls}).
 *
 * @example
 * ```ts
 * const window = new ChatWindow(playerGui, { title: "Support" });
 * window.addMessage({ sender: "HeadModHana", text: "Hi!", sentAt: os.time() });
 * window.closed.Connect(() => print("closed"));
 * ```
 * @see README#support-calls
 */
export class ChatWindow {
	/** The window's ScreenGui (ResetOnSpawn off, so it survives respawns). */
	readonly gui: ScreenGui;
	/** The window closed; `byPlayer` when its close button was pressed. Fires once. */
	readonly closed = new Signal<[byPlayer: boolean]>();
	/** The player sent a message from the text box (trimmed, at most 200 characters). */
	readonly sent = new Signal<[text: string]>();
	/** The player pressed End. */
	readonly endRequested = new Signal<[]>();

	private readonly frame: Frame;
	private readonly bar: Frame;
	private inputBar?: Frame;
	private endButton?: TextButton;
	private ended = false;
	private readonly titleLabel: TextLabel;
	private readonly list: ScrollingFrame;
	private readonly minimiseButton: TextButton;
	private readonly formatTime: (unixSeconds: number) => string;
	private readonly maxEntries: number;
	private readonly entries = new Array<Frame>();
	private readonly connections = new Array<RBXScriptConnection>();
	private title: string;
	private count = 0;
	private unread = 0;
	private minimised = false;
	private isOver = false;
	private follow = true;

	/**
	 * Builds the window under `parent` (a PlayerGui in a game, any Instance in specs).
	 * @param parent where the ScreenGui goes
	 */
	constructor(parent: Instance, options: ChatWindowOptions = {}) {
		this.title = options.title ?? "Support";
		this.formatTime = options.formatTime ?? ((seconds) => formatClockTime(seconds));
		this.maxEntries = math.max(1, math.floor(options.maxEntries ?? 200));

		const gui = screenGui("StaffOpsCallChat", 50);
		this.gui = gui;

		const frame = (this.frame = buildFrame(gui, options.offset ?? 0));
		const { bar, titleLabel, minimiseButton, closeButton } = buildTitleBar(frame, this.title);
		this.bar = bar;
		this.titleLabel = titleLabel;
		this.minimiseButton = minimiseButton;
		this.list = buildMessageList(frame);

		this.connections.push(
			this.minimiseButton.Activated.Connect(() => this.setMinimised(!this.minimised)),
			closeButton.Activated.Connect(() => this.finish(true)),
		);
		this.followNewest();
		gui.Parent = parent;
	}

	/** Adds a message at the bottom; returns its entry (undefined once closed). */
	addMessage(message: ChatWindowMessage): Frame | undefined {
		if (this.isOver) return undefined;
		this.count += 1;
		const entry = buildEntry(this.count, message.sender, this.formatTime(message.sentAt), message.text);
		entry.Parent = this.list;

		this.entries.push(entry);
		while (this.entries.size() > this.maxEntries) this.entries.shift()!.Destroy();
		if (this.minimised) {
			this.unread += 1;
			this.showTitle();
		}
		return entry;
	}

	/** Changes the title bar's text. */
	setTitle(title: string): void {
		this.title = title;
		if (!this.isOver) this.showTitle();
	}

	/**
	 * Minimises the window to its title bar (the title then counts new messages) or restores it. The minimise
	 * button toggles this.
	 */
	setMinimised(minimised: boolean): void {
		if (this.isOver || minimised === this.minimised) return;
		this.minimised = minimised;
		this.unread = 0;
		this.list.Visible = !minimised;
		if (this.inputBar !== undefined) this.inputBar.Visible = !minimised;
		this.frame.Size = UDim2.fromOffset(WIDTH, minimised ? TITLE_HEIGHT : HEIGHT);
		this.minimiseButton.Text = minimised ? "+" : "–";
		this.showTitle();
	}

	/** Whether the window is minimised. */
	isMinimised(): boolean {
		return this.minimised;
	}

	/** How many entries the window shows. */
	getEntryCount(): number {
		return this.entries.size();
	}

	/**
	 * Makes the window a call the player takes part in: an End button in the title bar and, when `writable`, a text
	 * box with a Send button under the messages (`TextBox "Input"`, `TextButton "Send"` in `Frame "InputBar"`; the
	 * End button is `TextButton "End"` in the title bar). Calling it again updates `writable`.
	 */
	setCallControls(writable: boolean): void {
		if (this.isOver || this.ended) return;
		if (this.endButton === undefined) {
			const endButton = buildEndButton(this.bar);
			this.endButton = endButton;
			this.titleLabel.Size = new UDim2(1, -132, 1, 0);
			this.connections.push(endButton.Activated.Connect(() => this.endRequested.Fire()));
		}
		if (writable && this.inputBar === undefined) {
			this.inputBar = this.buildInput();
			this.inputBar.Visible = !this.minimised;
		} else if (!writable && this.inputBar !== undefined) this.removeInput();
		this.layoutList();
	}

	/**
	 * The call is over but the window stays, so the player can read the closing message: the End button and the
	 * text box go, the title says the call ended. The window closes when the player closes it (or game code does).
	 */
	showEnded(): void {
		if (this.isOver || this.ended) return;
		this.ended = true;
		this.endButton?.Destroy();
		this.endButton = undefined;
		this.removeInput();
		this.titleLabel.Size = new UDim2(1, -80, 1, 0);
		this.title = `${this.title} (ended)`;
		this.showTitle();
		this.layoutList();
	}

	/** Whether the call shown is over (see {@link ChatWindow.showEnded}). */
	isEnded(): boolean {
		return this.ended;
	}

	/** Whether the window was closed. */
	isClosed(): boolean {
		return this.isOver;
	}

	/** Closes the window: destroys its ScreenGui and fires `closed` (not by the player). Idempotent. */
	close(): void {
		this.finish(false);
	}

	private finish(byPlayer: boolean): void {
		if (this.isOver) return;
		this.isOver = true;
		for (const connection of this.connections) connection.Disconnect();
		this.connections.clear();
		this.gui.Destroy();
		this.closed.Fire(byPlayer);
	}

	private buildInput(): Frame {
		const { bar, input, send } = buildInputBar();
		const submit = () => {
			const [text] = input.Text.gsub("^%s+", "");
			const [trimmed] = text.gsub("%s+$", "");
			input.Text = "";
			if (trimmed.size() === 0) return;
			const cut = utf8.offset(trimmed, MAX_INPUT + 1);
			this.sent.Fire(cut !== undefined && cut <= trimmed.size() ? trimmed.sub(1, cut - 1) : trimmed);
		};
		this.connections.push(send.Activated.Connect(submit));
		// Enter (or the on-screen keyboard's return) sends too; Lune (the test harness) has no input events.
		pcall(() => {
			this.connections.push(
				input.FocusLost.Connect((enterPressed) => {
					if (enterPressed) submit();
				}),
				input.GetPropertyChangedSignal("Text").Connect(() => {
					const cut = utf8.offset(input.Text, MAX_INPUT + 1);
					if (cut !== undefined && cut <= input.Text.size()) input.Text = input.Text.sub(1, cut - 1);
				}),
			);
		});
		bar.Parent = this.frame;
		return bar;
	}

	private removeInput(): void {
		this.inputBar?.Destroy();
		this.inputBar = undefined;
	}

	/** The message list fills the space between the title bar and the text box (if any). */
	private layoutList(): void {
		const below = this.inputBar !== undefined ? INPUT_HEIGHT : 0;
		this.list.Size = new UDim2(1, 0, 1, -TITLE_HEIGHT - below);
	}

	private showTitle(): void {
		this.titleLabel.Text = this.minimised && this.unread > 0 ? `${this.title} (${this.unread} new)` : this.title;
	}

	/** Keeps the newest message in view unless the player scrolled up to read older ones. */
	private followNewest(): void {
		const list = this.list;
		// Lune (the test harness) has no layout engine: these signals exist only in Roblox.
		pcall(() => {
			this.connections.push(
				list.GetPropertyChangedSignal("AbsoluteCanvasSize").Connect(() => {
					if (this.follow) list.CanvasPosition = new Vector2(0, this.bottom());
				}),
				list.GetPropertyChangedSignal("CanvasPosition").Connect(() => {
					this.follow = list.CanvasPosition.Y >= this.bottom() - 4;
				}),
			);
		});
	}

	private bottom(): number {
		return math.max(0, this.list.AbsoluteCanvasSize.Y - this.list.AbsoluteWindowSize.Y);
	}
}
