// The Instances a chat window is built of (its frame, title bar, message list, entries, End button, input bar):
// shapes and colours only; what they do is the window's (chatWindow.ts).
import { builderSans, themedText, THEME } from "../ui";

/** The window's size in pixels, and its bars' heights. */
export const WIDTH = 320;
export const HEIGHT = 260;
export const TITLE_HEIGHT = 32;
export const INPUT_HEIGHT = 44;
const BACKGROUND = THEME.background;
const TITLE_BACKGROUND = THEME.field;
const MUTED = THEME.muted;
const ACCENT = THEME.accent;
const END_COLOR = Color3.fromRGB(150, 60, 60);

/** A text label of the window. */
export function label(
	name: string,
	parent: Instance,
	props: Partial<WritableInstanceProperties<TextLabel>>,
): TextLabel {
	const instance = themedText("TextLabel", name, parent, 14);
	instance.BackgroundTransparency = 1;
	instance.TextXAlignment = Enum.TextXAlignment.Left;
	for (const [key, value] of pairs(props)) (instance as unknown as Record<string, unknown>)[key] = value;
	return instance;
}

/** A small square button of the title bar, `x` pixels from its right edge. */
export function button(name: string, text: string, x: number, parent: Instance): TextButton {
	const instance = themedText("TextButton", name, parent, 16);
	instance.Text = text;
	instance.AutoButtonColor = true;
	instance.BackgroundColor3 = TITLE_BACKGROUND;
	instance.AnchorPoint = new Vector2(1, 0.5);
	instance.Position = new UDim2(1, x, 0.5, 0);
	instance.Size = UDim2.fromOffset(24, 24);
	return instance;
}

/** `Frame "Window"`, on the right of the screen, `offset` pixels below its middle. */
export function buildFrame(gui: ScreenGui, offset: number): Frame {
	const frame = new Instance("Frame");
	frame.Name = "Window";
	frame.AnchorPoint = new Vector2(1, 0.5);
	frame.Position = new UDim2(1, -16, 0.5, offset);
	frame.Size = UDim2.fromOffset(WIDTH, HEIGHT);
	frame.BackgroundColor3 = BACKGROUND;
	frame.BorderSizePixel = 0;
	frame.ClipsDescendants = true;
	frame.Parent = gui;
	const corner = new Instance("UICorner");
	corner.CornerRadius = new UDim(0, 8);
	corner.Parent = frame;
	return frame;
}

/** `Frame "TitleBar"` with `TextLabel "Title"`, `TextButton "Minimise"` and `TextButton "Close"`. */
export function buildTitleBar(frame: Frame, title: string) {
	const bar = new Instance("Frame");
	bar.Name = "TitleBar";
	bar.Size = new UDim2(1, 0, 0, TITLE_HEIGHT);
	bar.BackgroundColor3 = TITLE_BACKGROUND;
	bar.BorderSizePixel = 0;
	bar.Parent = frame;
	const titleLabel = label("Title", bar, {
		Text: title,
		FontFace: builderSans(Enum.FontWeight.Bold),
		Position: UDim2.fromOffset(12, 0),
		Size: new UDim2(1, -80, 1, 0),
		TextTruncate: Enum.TextTruncate.AtEnd,
	});
	const minimiseButton = button("Minimise", "–", -40, bar);
	const closeButton = button("Close", "×", -8, bar);
	return { bar, titleLabel, minimiseButton, closeButton };
}

/** `ScrollingFrame "Messages"` under the title bar, its entries in `LayoutOrder`. */
export function buildMessageList(frame: Frame): ScrollingFrame {
	const list = new Instance("ScrollingFrame");
	list.Name = "Messages";
	list.Position = UDim2.fromOffset(0, TITLE_HEIGHT);
	list.Size = new UDim2(1, 0, 1, -TITLE_HEIGHT);
	list.BackgroundTransparency = 1;
	list.BorderSizePixel = 0;
	list.ScrollBarThickness = 4;
	list.ScrollingDirection = Enum.ScrollingDirection.Y;
	list.CanvasSize = new UDim2();
	list.AutomaticCanvasSize = Enum.AutomaticSize.Y;
	list.Parent = frame;
	const layout = new Instance("UIListLayout");
	layout.SortOrder = Enum.SortOrder.LayoutOrder;
	layout.Padding = new UDim(0, 8);
	layout.Parent = list;
	const padding = new Instance("UIPadding");
	padding.PaddingLeft = new UDim(0, 12);
	padding.PaddingRight = new UDim(0, 12);
	padding.PaddingTop = new UDim(0, 8);
	padding.PaddingBottom = new UDim(0, 8);
	padding.Parent = list;
	return list;
}

/**
 * `Frame "Message<count>"` (not parented): `Frame "Header"` (`TextLabel "Sender"`, `TextLabel "Time"`) and
 * `TextLabel "Text"`.
 */
export function buildEntry(count: number, sender: string, time: string, text: string): Frame {
	const entry = new Instance("Frame");
	entry.Name = `Message${count}`;
	entry.LayoutOrder = count;
	entry.BackgroundTransparency = 1;
	entry.Size = new UDim2(1, 0, 0, 0);
	entry.AutomaticSize = Enum.AutomaticSize.Y;
	const layout = new Instance("UIListLayout");
	layout.SortOrder = Enum.SortOrder.LayoutOrder;
	layout.Padding = new UDim(0, 2);
	layout.Parent = entry;

	const header = new Instance("Frame");
	header.Name = "Header";
	header.LayoutOrder = 1;
	header.BackgroundTransparency = 1;
	header.Size = new UDim2(1, 0, 0, 16);
	header.Parent = entry;
	label("Sender", header, {
		Text: sender,
		FontFace: builderSans(Enum.FontWeight.Bold),
		TextColor3: ACCENT,
		TextSize: 13,
		Size: new UDim2(1, -48, 1, 0),
		TextTruncate: Enum.TextTruncate.AtEnd,
	});
	label("Time", header, {
		Text: time,
		TextColor3: MUTED,
		TextSize: 12,
		AnchorPoint: new Vector2(1, 0),
		Position: UDim2.fromScale(1, 0),
		Size: new UDim2(0, 44, 1, 0),
		TextXAlignment: Enum.TextXAlignment.Right,
	});
	label("Text", entry, {
		Text: text,
		LayoutOrder: 2,
		Size: new UDim2(1, 0, 0, 0),
		AutomaticSize: Enum.AutomaticSize.Y,
		TextWrapped: true,
		TextYAlignment: Enum.TextYAlignment.Top,
	});
	return entry;
}

/** `TextButton "End"` in the title bar, left of the minimise button. */
export function buildEndButton(bar: Frame): TextButton {
	const endButton = button("End", "End", -72, bar);
	endButton.Size = UDim2.fromOffset(44, 24);
	endButton.BackgroundColor3 = END_COLOR;
	endButton.TextSize = 14;
	return endButton;
}

/** `Frame "InputBar"` (not parented) at the window's bottom: `TextBox "Input"` and `TextButton "Send"`. */
export function buildInputBar() {
	const bar = new Instance("Frame");
	bar.Name = "InputBar";
	bar.AnchorPoint = new Vector2(0, 1);
	bar.Position = UDim2.fromScale(0, 1);
	bar.Size = new UDim2(1, 0, 0, INPUT_HEIGHT);
	bar.BackgroundColor3 = TITLE_BACKGROUND;
	bar.BorderSizePixel = 0;
	const input = themedText("TextBox", "Input", bar, 16);
	input.Text = "";
	input.PlaceholderText = "Write to staff";
	input.ClearTextOnFocus = false;
	input.TextEditable = true;
	input.PlaceholderColor3 = MUTED;
	input.TextXAlignment = Enum.TextXAlignment.Left;
	input.TextTruncate = Enum.TextTruncate.AtEnd;
	input.BackgroundColor3 = BACKGROUND;
	input.Position = UDim2.fromOffset(8, 6);
	input.Size = new UDim2(1, -84, 1, -12);
	const send = themedText("TextButton", "Send", bar, 16);
	send.Text = "Send";
	send.BackgroundColor3 = ACCENT.Lerp(BACKGROUND, 0.4);
	send.AnchorPoint = new Vector2(1, 0.5);
	send.Position = new UDim2(1, -8, 0.5, 0);
	send.Size = new UDim2(0, 64, 1, -12);
	return { bar, input, send };
}
