import { Signal } from "../../shared/signal";
import { dialogPanel, screenGui, themedText } from "../ui";

/**
 * Options of a {@link ConsentPrompt}.
 * @see README#consent
 */
export interface ConsentPromptOptions {
	/** The question's title. */
	readonly title?: string;
	/** What the player is asked. */
	readonly text?: string;
}

/** The prompt's default title. */
export const DEFAULT_CONSENT_TITLE = "Activity data";
/** The prompt's default question. */
export const DEFAULT_CONSENT_TEXT =
	"This experience's staff team records when you play here (join and leave times) to run the community. " +
	"May it keep this visit's record? You can play either way.";

const ALLOW = Color3.fromRGB(60, 130, 90);
const DECLINE = Color3.fromRGB(70, 74, 84);

/**
 * The built-in consent prompt: a ScreenGui (`ResetOnSpawn` off, so a respawn does not take it away) with a title, the
 * question and two buttons, `Allow` and `Decline`, large enough for touch and selectable with a gamepad (the `Allow`
 * button is selected when a gamepad is the input). Pure UI: {@link mountConsentPrompt} connects it to the server.
 *
 * Tree: `ScreenGui "StaffOpsConsent"` › `Frame "Prompt"` › `TextLabel "Title"`, `TextLabel "Question"`,
 * `TextButton "Allow"`, `TextButton "Decline"`.
 *
 * @example
 * ```ts
 * const prompt = new ConsentPrompt(playerGui);
 * prompt.answered.Connect((granted) => print(granted));
 * ```
 * @see README#consent
 */
export class ConsentPrompt {
	/** The prompt's ScreenGui. */
	readonly gui: ScreenGui;
	/** The player chose; fires once, then the prompt closes. */
	readonly answered = new Signal<[granted: boolean]>();
	private readonly connections = new Array<RBXScriptConnection>();
	private done = false;

	constructor(parent: Instance, options: ConsentPromptOptions = {}) {
		const gui = screenGui("StaffOpsConsent", 50);
		this.gui = gui;

		const frame = dialogPanel("Prompt", gui, new UDim2(0.9, 0, 0, 220), new Vector2(420, 260));

		const title = themedText("TextLabel", "Title", frame, 22);
		title.BackgroundTransparency = 1;
		title.TextWrapped = true;
		title.Text = options.title ?? DEFAULT_CONSENT_TITLE;
		title.Position = UDim2.fromOffset(16, 12);
		title.Size = new UDim2(1, -32, 0, 28);

		const question = themedText("TextLabel", "Question", frame, 17);
		question.BackgroundTransparency = 1;
		question.TextWrapped = true;
		question.Text = options.text ?? DEFAULT_CONSENT_TEXT;
		question.TextYAlignment = Enum.TextYAlignment.Top;
		question.Position = UDim2.fromOffset(16, 46);
		question.Size = new UDim2(1, -32, 1, -120);

		const allow = this.button("Allow", "Allow", ALLOW, 0, frame, true);
		const decline = this.button("Decline", "Decline", DECLINE, 1, frame, false);
		allow.NextSelectionRight = decline;
		decline.NextSelectionLeft = allow;
		gui.Parent = parent;
	}

	/** Closes the prompt without an answer (the server closed it, or the game moved on). */
	close(): void {
		this.done = true;
		for (const connection of this.connections) connection.Disconnect();
		this.connections.clear();
		this.gui.Destroy();
	}

	private button(name: string, label: string, color: Color3, column: number, frame: Frame, granted: boolean) {
		const button = themedText("TextButton", name, frame, 20);
		button.TextWrapped = true;
		button.Text = label;
		button.BackgroundColor3 = color;
		button.AutoButtonColor = true;
		button.Selectable = true;
		button.AnchorPoint = new Vector2(column, 1);
		button.Position = new UDim2(column, column === 0 ? 16 : -16, 1, -16);
		// 48 px tall: a comfortable touch target.
		button.Size = new UDim2(0.5, -24, 0, 48);
		this.connections.push(button.Activated.Connect(() => this.choose(granted)));
		return button;
	}

	private choose(granted: boolean): void {
		if (this.done) return;
		this.close();
		this.answered.Fire(granted);
	}
}
