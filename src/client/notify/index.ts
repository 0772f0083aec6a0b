import { Players } from "@rbxts/services";
import { NOTIFICATIONS_REMOTE } from "../../shared/notifyProtocol";
import { waitForRemote } from "../../shared/remotes";
import { ClientPart } from "../clientPart";
import { screenGui, themedText, THEME } from "../ui";

/** Seconds a notification stays on screen. */
const SHOW_SECONDS = 8;
/** The longest text shown; the server sends at most this much (a dashboard notification, filtered). */
const MAX_TEXT = 1000;

/**
 * Shows one staff notification at the top of the screen for a few seconds (a ScreenGui with `ResetOnSpawn` off,
 * so a respawn does not hide it). Returns the ScreenGui. Tree: `ScreenGui "StaffOpsNotification"` › `TextLabel "Text"`.
 *
 * @example
 * ```ts
 * showNotification(Players.LocalPlayer.WaitForChild("PlayerGui"), "Server restarts in 5 minutes");
 * ```
 * @see README#deployed-service-extensions
 */
export function showNotification(parent: Instance, text: string): ScreenGui {
	const gui = screenGui("StaffOpsNotification", 70);
	const label = themedText("TextLabel", "Text", gui, 16);
	label.AnchorPoint = new Vector2(0.5, 0);
	label.Position = new UDim2(0.5, 0, 0, 16);
	label.Size = new UDim2(0, 420, 0, 64);
	label.BackgroundColor3 = THEME.background;
	label.BackgroundTransparency = 0.1;
	label.TextWrapped = true;
	label.Text = text;
	gui.Parent = parent;
	task.delay(SHOW_SECONDS, () => gui.Destroy());
	return gui;
}

const part = new ClientPart(
	(): [started: boolean, result: boolean] => {
		const remote = waitForRemote(NOTIFICATIONS_REMOTE);
		const player = Players.LocalPlayer;
		if (remote === undefined || player === undefined) return [false, false];
		const playerGui = player.WaitForChild("PlayerGui", 30);
		if (playerGui === undefined) return [true, false];
		remote.OnClientEvent.Connect((text: unknown) => {
			if (!typeIs(text, "string") || text.size() === 0 || text.size() > MAX_TEXT) return;
			showNotification(playerGui, text);
		});
		return [true, true];
	},
	() => true,
);

/**
 * The built-in staff notifications: waits for StaffOps' remotes (up to 30 s) and shows each notification the server
 * sends this player. Once per client. The server sends only text already filtered for this player.
 *
 * @example
 * ```ts
 * // StarterPlayerScripts/StaffOps.client.ts
 * import { startNotifications } from "@rbxts/staffops";
 * startNotifications();
 * ```
 * @see README#deployed-service-extensions
 */
export function startNotifications(): boolean {
	return part.start();
}
