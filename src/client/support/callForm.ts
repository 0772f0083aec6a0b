import { GuiService, UserInputService } from "@rbxts/services";
import { MAX_PLAYER_TEXT, SupportCallType, SupportStatePayload } from "../../shared/supportProtocol";
import { Signal } from "../../shared/signal";
import type { SupportCallArgs } from "./supportClient";
import { builderSans, dialogPanel, screenGui, themedText, THEME } from "../ui";

/** A player the form offers to report. */
export interface ReportablePlayer {
	readonly userId: number;
	readonly name: string;
	readonly displayName: string;
}

const FIELD = THEME.field;
const MUTED = THEME.muted;
const CHOSEN = Color3.fromRGB(60, 100, 170);
const BAD = Color3.fromRGB(240, 140, 130);
const GOOD = Color3.fromRGB(140, 210, 160);
/** Touch targets at least this tall (Roblox's guidance for mobile buttons). */
const ROW = 44;

const WORDS = {
	title: "Call staff",
	support: "Get help",
	report: "Report a player",
	reasonHint: "What do you need help with?",
	reportHint: "What happened?",
	pickReason: "Please pick a reason.",
	writeReason: "Please say what you need help with.",
	pickPlayer: "Please pick the player you are reporting.",
	noPlayers: "No other players are in this server.",
	sending: "Sending...",
} as const;

function text<T extends "TextLabel" | "TextButton" | "TextBox">(
	kind: T,
	name: string,
	parent: Instance,
	order: number,
): CreatableInstances[T] {
	const instance = themedText(kind, name, parent, 18) as TextLabel | TextButton | TextBox;
	instance.LayoutOrder = order;
	instance.BackgroundColor3 = FIELD;
	instance.BackgroundTransparency = kind === "TextLabel" ? 1 : 0;
	instance.TextWrapped = true;
	instance.Size = new UDim2(1, 0, 0, ROW);
	return instance as CreatableInstances[T];
}

function list(name: string, parent: Instance, order: number, horizontal = false): Frame {
	const frame = new Instance("Frame");
	frame.Name = name;
	frame.LayoutOrder = order;
	frame.BackgroundTransparency = 1;
	frame.Size = new UDim2(1, 0, 0, horizontal ? ROW : 0);
	frame.AutomaticSize = horizontal ? Enum.AutomaticSize.None : Enum.AutomaticSize.Y;
	const layout = new Instance("UIListLayout");
	layout.FillDirection = horizontal ? Enum.FillDirection.Horizontal : Enum.FillDirection.Vertical;
	layout.SortOrder = Enum.SortOrder.LayoutOrder;
	layout.Padding = new UDim(0, 6);
	layout.Parent = frame;
	frame.Parent = parent;
	return frame;
}

/**
 * The "Call staff" form: get help or report a player, a reason (free text of at most 200 characters, or only the
 * preset reasons when the player's chat settings forbid chat), for a report the player reported (picked from the
 * players in the server, never the player themself), Send and Cancel, and a line that tells the player in plain
 * words what became of the request. Pure UI: {@link mountCallStaff} connects it to a {@link SupportClient}.
 *
 * Tree: `ScreenGui "StaffOpsCallForm"` › `Frame "Form"` › `TextLabel "Title"`, `Frame "Kind"` (`TextButton "Support"`,
 * `TextButton "Report"`), `TextBox "Reason"` or `Frame "Presets"` (`TextButton "Preset<n>"`), `Frame "Players"`
 * (`TextButton "Player<UserId>"`, or `TextLabel "Nobody"`; shown for a report), `TextLabel "Status"` and
 * `Frame "Buttons"` (`TextButton "Send"`, `TextButton "Cancel"`).
 *
 * @example
 * ```ts
 * const form = new CallForm(playerGui, support.getState(), () => others);
 * form.submitted.Connect((args) => support.requestCall(args));
 * ```
 * @see README#support-calls
 */
export class CallForm {
	/** The form's ScreenGui. */
	readonly gui: ScreenGui;
	/** The player pressed Send with a complete request. */
	readonly submitted = new Signal<[args: SupportCallArgs]>();
	/** The form closed (Cancel, or {@link CallForm.close}). Fires once. */
	readonly closed = new Signal<[]>();

	private readonly status: TextLabel;
	private readonly sendButton: TextButton;
	private readonly kindButtons: Record<SupportCallType, TextButton>;
	private readonly reasonBox?: TextBox;
	private readonly presetFrame?: Frame;
	private readonly playerFrame: Frame;
	private readonly connections = new Array<RBXScriptConnection>();
	private type: SupportCallType = "support";
	private preset?: string;
	private reported?: number;
	private waiting = false;
	private over = false;

	/**
	 * @param parent where the ScreenGui goes (the PlayerGui)
	 * @param state the server's state: whether free text is allowed, and the preset reasons
	 * @param others the players who can be reported (everyone in the server but the local player)
	 */
	constructor(
		parent: Instance,
		private readonly state: SupportStatePayload,
		private readonly others: () => Array<ReportablePlayer>,
	) {
		const gui = screenGui("StaffOpsCallForm", 60);
		this.gui = gui;

		const form = dialogPanel("Form", gui, new UDim2(0.9, 0, 0, 0), new Vector2(380, math.huge));
		form.AutomaticSize = Enum.AutomaticSize.Y;
		const corner = new Instance("UICorner");
		corner.CornerRadius = new UDim(0, 8);
		corner.Parent = form;
		const padding = new Instance("UIPadding");
		for (const side of ["PaddingTop", "PaddingBottom", "PaddingLeft", "PaddingRight"] as const) {
			padding[side] = new UDim(0, 14);
		}
		padding.Parent = form;
		const layout = new Instance("UIListLayout");
		layout.SortOrder = Enum.SortOrder.LayoutOrder;
		layout.Padding = new UDim(0, 8);
		layout.Parent = form;

		const title = text("TextLabel", "Title", form, 1);
		title.Text = WORDS.title;
		title.TextSize = 22;
		title.FontFace = builderSans(Enum.FontWeight.Bold);

		const kind = list("Kind", form, 2, true);
		this.kindButtons = {
			support: text("TextButton", "Support", kind, 1),
			report: text("TextButton", "Report", kind, 2),
		};
		this.kindButtons.support.Text = WORDS.support;
		this.kindButtons.report.Text = WORDS.report;
		for (const callType of ["support", "report"] as const) {
			const button = this.kindButtons[callType];
			button.Size = new UDim2(0.5, -3, 1, 0);
			this.connections.push(button.Activated.Connect(() => this.setType(callType)));
		}

		if (state.canChat) {
			const box = text("TextBox", "Reason", form, 3);
			box.Text = "";
			box.ClearTextOnFocus = false;
			box.PlaceholderColor3 = MUTED;
			box.TextXAlignment = Enum.TextXAlignment.Left;
			box.Size = new UDim2(1, 0, 0, ROW * 2);
			box.MultiLine = true;
			this.reasonBox = box;
			// Roblox chat's limit, kept while typing; Lune (the test harness) has no change events.
			pcall(() => {
				this.connections.push(
					box.GetPropertyChangedSignal("Text").Connect(() => {
						if (
							utf8.len(box.Text)[0] !== undefined &&
							(utf8.len(box.Text)[0] as number) > MAX_PLAYER_TEXT
						) {
							box.Text = box.Text.sub(1, utf8.offset(box.Text, MAX_PLAYER_TEXT + 1)! - 1);
						}
					}),
				);
			});
		} else {
			this.presetFrame = list("Presets", form, 3);
		}

		this.playerFrame = list("Players", form, 4);

		this.status = text("TextLabel", "Status", form, 5);
		this.status.Text = "";
		this.status.TextSize = 16;
		this.status.Size = new UDim2(1, 0, 0, 0);
		this.status.AutomaticSize = Enum.AutomaticSize.Y;

		const buttons = list("Buttons", form, 6, true);
		this.sendButton = text("TextButton", "Send", buttons, 1);
		this.sendButton.Text = "Send";
		this.sendButton.BackgroundColor3 = CHOSEN;
		this.sendButton.Size = new UDim2(0.5, -3, 1, 0);
		const cancel = text("TextButton", "Cancel", buttons, 2);
		cancel.Text = "Cancel";
		cancel.Size = new UDim2(0.5, -3, 1, 0);
		this.connections.push(
			this.sendButton.Activated.Connect(() => this.send()),
			cancel.Activated.Connect(() => this.close()),
		);

		this.setType("support");
		gui.Parent = parent;
		// A gamepad player needs a selected button to use the form.
		const [gamepad] = pcall(() => UserInputService.GamepadEnabled && !UserInputService.TouchEnabled);
		if (gamepad === true) pcall(() => GuiService.Select(form));
	}

	/** Shows what became of the request; a refusal lets the player change it and send again. */
	showResult(ok: boolean, words: string): void {
		if (this.over) return;
		this.waiting = false;
		this.sendButton.Active = !ok;
		this.sendButton.AutoButtonColor = !ok;
		this.say(words, ok ? GOOD : BAD);
	}

	/** Whether Send was pressed and no result has come back yet. */
	isWaiting(): boolean {
		return this.waiting;
	}

	/** Whether the form was closed. */
	isClosed(): boolean {
		return this.over;
	}

	/** Closes the form (destroys its ScreenGui) and fires `closed`. Idempotent. */
	close(): void {
		if (this.over) return;
		this.over = true;
		for (const connection of this.connections) connection.Disconnect();
		this.connections.clear();
		this.gui.Destroy();
		this.closed.Fire();
	}

	private say(words: string, color: Color3): void {
		this.status.Text = words;
		this.status.TextColor3 = color;
	}

	private setType(callType: SupportCallType): void {
		if (this.over) return;
		this.type = callType;
		for (const other of ["support", "report"] as const) {
			this.kindButtons[other].BackgroundColor3 = other === callType ? CHOSEN : FIELD;
		}
		if (this.reasonBox !== undefined) {
			this.reasonBox.PlaceholderText = callType === "report" ? WORDS.reportHint : WORDS.reasonHint;
		}
		if (this.presetFrame !== undefined) this.fillPresets(this.presetFrame);
		this.fillPlayers();
		this.say("", MUTED);
	}

	private fillPresets(frame: Frame): void {
		this.preset = undefined;
		for (const child of frame.GetChildren()) if (child.IsA("TextButton")) child.Destroy();
		this.state.presets[this.type].forEach((reason, index) => {
			const button = text("TextButton", `Preset${index + 1}`, frame, index + 1);
			button.Text = reason;
			this.connections.push(
				button.Activated.Connect(() => {
					this.preset = reason;
					for (const other of frame.GetChildren()) {
						if (other.IsA("TextButton")) other.BackgroundColor3 = other === button ? CHOSEN : FIELD;
					}
				}),
			);
		});
	}

	private fillPlayers(): void {
		const frame = this.playerFrame;
		this.reported = undefined;
		for (const child of frame.GetChildren()) if (!child.IsA("UIListLayout")) child.Destroy();
		frame.Visible = this.type === "report";
		if (this.type !== "report") return;
		const others = this.others();
		if (others.size() === 0) {
			text("TextLabel", "Nobody", frame, 1).Text = WORDS.noPlayers;
			return;
		}
		others.forEach((other, index) => {
			const button = text("TextButton", `Player${other.userId}`, frame, index + 1);
			button.Text = other.displayName === other.name ? other.name : `${other.displayName} (@${other.name})`;
			this.connections.push(
				button.Activated.Connect(() => {
					this.reported = other.userId;
					for (const item of frame.GetChildren()) {
						if (item.IsA("TextButton")) item.BackgroundColor3 = item === button ? CHOSEN : FIELD;
					}
				}),
			);
		});
	}

	private send(): void {
		if (this.over || this.waiting || !this.sendButton.Active) return;
		let reason: string | undefined;
		if (this.reasonBox !== undefined) {
			const [trimmed] = this.reasonBox.Text.gsub("^%s+", "");
			const [cleaned] = trimmed.gsub("%s+$", "");
			reason = cleaned.size() > 0 ? cleaned : undefined;
			if (reason === undefined) return this.say(WORDS.writeReason, BAD);
		} else {
			reason = this.preset;
			if (reason === undefined) return this.say(WORDS.pickReason, BAD);
		}
		if (this.type === "report" && this.reported === undefined) return this.say(WORDS.pickPlayer, BAD);
		this.waiting = true;
		this.say(WORDS.sending, MUTED);
		this.submitted.Fire({ type: this.type, reason, reporting: this.reported });
	}
}
