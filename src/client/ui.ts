/**
 * What StaffOps' built-in UIs (call staff entry and form, chat window, consent prompt, notifications) share, so
 * they look alike and a change of colour or font is made once. Pure construction helpers: no remotes, no state.
 */

/** The built-in UIs' colours. @internal */
export const THEME = {
	background: Color3.fromRGB(24, 26, 31),
	/** Title bars, text fields, unselected buttons. */
	field: Color3.fromRGB(36, 39, 46),
	text: Color3.fromRGB(235, 237, 240),
	muted: Color3.fromRGB(150, 156, 166),
	accent: Color3.fromRGB(120, 170, 255),
} as const;

/** Builder Sans, Roblox's current UI font (Gotham is gone: docs/roblox.md). @internal */
export function builderSans(weight: Enum.FontWeight = Enum.FontWeight.Medium): Font {
	return new Font("rbxasset://fonts/families/BuilderSans.json", weight);
}

/**
 * A ScreenGui for one built-in UI: `ResetOnSpawn` off, so a respawn does not take it away, and sibling z-order.
 * Not parented: the caller parents it once it is built.
 * @internal
 */
export function screenGui(name: string, displayOrder: number): ScreenGui {
	const gui = new Instance("ScreenGui");
	gui.Name = name;
	gui.ResetOnSpawn = false;
	gui.DisplayOrder = displayOrder;
	gui.ZIndexBehavior = Enum.ZIndexBehavior.Sibling;
	return gui;
}

/**
 * A text instance in the theme: no border, Builder Sans (bold for buttons), the theme's text colour, `RichText` off
 * (text from players and the service is shown as typed, never as markup), parented to `parent`.
 * @internal
 */
export function themedText<T extends "TextLabel" | "TextButton" | "TextBox">(
	kind: T,
	name: string,
	parent: Instance,
	textSize: number,
): CreatableInstances[T] {
	const instance = new Instance(kind) as TextLabel | TextButton | TextBox;
	instance.Name = name;
	instance.BorderSizePixel = 0;
	instance.FontFace = builderSans(kind === "TextButton" ? Enum.FontWeight.Bold : Enum.FontWeight.Medium);
	instance.TextColor3 = THEME.text;
	instance.TextSize = textSize;
	instance.RichText = false;
	instance.Parent = parent;
	return instance as CreatableInstances[T];
}

/**
 * The panel of a built-in dialog (the consent prompt, the call form): a frame in the theme's background, in the
 * middle of the screen, `size` large but never larger than `maxSize`, parented to `gui`.
 * @internal
 */
export function dialogPanel(name: string, gui: ScreenGui, size: UDim2, maxSize: Vector2): Frame {
	const panel = new Instance("Frame");
	panel.Name = name;
	panel.AnchorPoint = new Vector2(0.5, 0.5);
	panel.Position = UDim2.fromScale(0.5, 0.5);
	panel.Size = size;
	panel.BackgroundColor3 = THEME.background;
	panel.BorderSizePixel = 0;
	const limit = new Instance("UISizeConstraint");
	limit.MaxSize = maxSize;
	limit.Parent = panel;
	panel.Parent = gui;
	return panel;
}
