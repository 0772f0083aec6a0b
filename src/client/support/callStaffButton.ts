import { Signal } from "../../shared/signal";
import { screenGui, themedText, THEME } from "../ui";

/**
 * The small "Call staff" entry: a ScreenGui (`ResetOnSpawn` off) with one button in the top-right corner, below
 * Roblox's top bar (the ScreenGui keeps the top bar's inset, so the button never covers Roblox's own buttons), 44 px
 * tall for touch, selectable with a gamepad, activated by mouse, touch or gamepad alike (`Activated`).
 *
 * Tree: `ScreenGui "StaffOpsCallStaff"` › `TextButton "CallStaff"`.
 *
 * @example
 * ```ts
 * const entry = new CallStaffButton(playerGui);
 * entry.pressed.Connect(() => print("open the form"));
 * entry.setShown(true);
 * ```
 * @see README#support-calls
 */
export class CallStaffButton {
	/** The entry's ScreenGui; `Enabled` only while the entry is shown. */
	readonly gui: ScreenGui;
	/** The button was pressed. */
	readonly pressed = new Signal<[]>();
	private readonly button: TextButton;
	private readonly connection: RBXScriptConnection;

	constructor(parent: Instance) {
		const gui = screenGui("StaffOpsCallStaff", 40);
		gui.IgnoreGuiInset = false;
		gui.Enabled = false;
		this.gui = gui;

		const button = themedText("TextButton", "CallStaff", gui, 18);
		button.Text = "Call staff";
		button.BackgroundColor3 = THEME.background;
		button.BackgroundTransparency = 0.2;
		button.AutoButtonColor = true;
		button.Selectable = true;
		button.AnchorPoint = new Vector2(1, 0);
		button.Position = new UDim2(1, -12, 0, 12);
		button.Size = UDim2.fromOffset(112, 44);
		const corner = new Instance("UICorner");
		corner.CornerRadius = new UDim(0, 8);
		corner.Parent = button;
		this.button = button;
		this.connection = button.Activated.Connect(() => this.pressed.Fire());
		gui.Parent = parent;
	}

	/** Shows or hides the entry. */
	setShown(shown: boolean): void {
		this.gui.Enabled = shown;
		this.button.Visible = shown;
	}

	/** Whether the entry is shown. */
	isShown(): boolean {
		return this.gui.Enabled && this.button.Visible;
	}

	/** Removes the entry. */
	destroy(): void {
		this.connection.Disconnect();
		this.gui.Destroy();
	}
}
