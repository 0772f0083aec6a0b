import { Players, TextChatService, UserInputService } from "@rbxts/services";
import { ActivitySettings, ActivityState, isActivitySettings } from "../../shared/privacyProtocol";
import { waitForRemote } from "../../shared/remotes";
import { ClientPart } from "../clientPart";

/**
 * Where the activity detector hears about the player; each defaults to `UserInputService` and the character.
 * Specs pass fakes.
 * @see README#staff-activity
 */
export interface ActivitySources {
	/** Any input (keys, mouse, touch, gamepad). */
	readonly onInput: (handler: () => void) => { Disconnect(): void };
	/** Typing started (`true`) or stopped (`false`): a TextBox or the default chat bar gained or lost focus. */
	readonly onTyping: (handler: (typing: boolean) => void) => { Disconnect(): void };
	/** The window lost (`false`) or regained (`true`) focus. */
	readonly onWindowFocus: (handler: (focused: boolean) => void) => { Disconnect(): void };
	/** Whether the character is moving now. */
	readonly isMoving: () => boolean;
	/** Seconds, for the idle timer; default `os.clock`. */
	readonly now: () => number;
	/** Runs `fn` every `seconds`; default a `task.wait` loop. */
	readonly every: (seconds: number, fn: () => void) => { Disconnect(): void };
}

function both(first: RBXScriptConnection, second: RBXScriptConnection): { Disconnect(): void } {
	return {
		Disconnect() {
			first.Disconnect();
			second.Disconnect();
		},
	};
}

/**
 * Follows the focus of TextChatService's default chat bar (`ChatInputBarConfiguration.IsFocused`,
 * docs/roblox.md#typing-in-the-default-chat-bar); undefined where this engine or place has no such bar.
 */
function watchChatBar(handler: (focused: boolean) => void): RBXScriptConnection | undefined {
	const bar = TextChatService.FindFirstChildOfClass("ChatInputBarConfiguration");
	if (bar === undefined) return undefined;
	const [ok, connection] = pcall(() =>
		bar.GetPropertyChangedSignal("IsFocused").Connect(() => handler(bar.IsFocused === true)),
	);
	return ok ? connection : undefined;
}

function robloxSources(): ActivitySources {
	return {
		onInput: (handler) => {
			const began = UserInputService.InputBegan.Connect(() => handler());
			const changed = UserInputService.InputChanged.Connect(() => handler());
			return both(began, changed);
		},
		onTyping: (handler) => {
			let textBox = false;
			let chatBar = false;
			const changed = (box: boolean, bar: boolean) => {
				const before = textBox || chatBar;
				textBox = box;
				chatBar = bar;
				if (before !== (textBox || chatBar)) handler(textBox || chatBar);
			};
			const focused = UserInputService.TextBoxFocused.Connect(() => changed(true, chatBar));
			const released = UserInputService.TextBoxFocusReleased.Connect(() => changed(false, chatBar));
			const bar = watchChatBar((isFocused) => changed(textBox, isFocused));
			return {
				Disconnect() {
					focused.Disconnect();
					released.Disconnect();
					bar?.Disconnect();
				},
			};
		},
		onWindowFocus: (handler) => {
			const lost = UserInputService.WindowFocusReleased.Connect(() => handler(false));
			const back = UserInputService.WindowFocused.Connect(() => handler(true));
			return both(lost, back);
		},
		isMoving: () => {
			const humanoid = Players.LocalPlayer?.Character?.FindFirstChildOfClass("Humanoid");
			return humanoid !== undefined && humanoid.MoveDirection.Magnitude > 0.01;
		},
		now: () => os.clock(),
		every: (seconds, fn) => {
			let running = true;
			task.spawn(() => {
				while (running) {
					task.wait(seconds);
					if (running) fn();
				}
			});
			return {
				Disconnect() {
					running = false;
				},
			};
		},
	};
}

/**
 * Detects this player's activity state with the server's settings and reports each change (`send`): `typing` while a
 * TextBox or the default chat bar has focus; with `movement`, `idle` after `idleSeconds` without the character moving
 * and without input; with `altTab`, `idle` once the window has been out of focus for `altTabSeconds` (the server
 * sends the workspace's time, 45 s by default, so a short alt-tab is no idle; 0: at once); `active`
 * again on input, movement or focus. Returns a handle to stop it.
 * @see README#staff-activity
 */
export function detectActivity(
	settings: ActivitySettings,
	send: (state: ActivityState) => void,
	sources: ActivitySources = robloxSources(),
): { Disconnect(): void } {
	let state: ActivityState = "active";
	let typing = false;
	/** When the window lost focus (altTab on), else undefined. */
	let unfocusedAt: number | undefined;
	let lastActivity = sources.now();
	const set = (changed: ActivityState) => {
		if (changed === state) return;
		state = changed;
		send(changed);
	};
	const away = () => {
		const now = sources.now();
		if (unfocusedAt !== undefined && now - unfocusedAt >= settings.altTabSeconds) return true;
		return settings.movement && now - lastActivity >= settings.idleSeconds;
	};
	const settle = () => {
		if (typing) return set("typing");
		set(away() ? "idle" : "active");
	};
	const connections = [
		sources.onInput(() => {
			lastActivity = sources.now();
			unfocusedAt = undefined;
			settle();
		}),
		sources.onTyping((focused) => {
			typing = focused;
			lastActivity = sources.now();
			settle();
		}),
		sources.onWindowFocus((focused) => {
			if (!focused && settings.altTab) unfocusedAt ??= sources.now();
			if (focused) {
				unfocusedAt = undefined;
				lastActivity = sources.now();
			}
			settle();
		}),
		sources.every(1, () => {
			if (sources.isMoving()) lastActivity = sources.now();
			settle();
		}),
	];
	return {
		Disconnect() {
			for (const connection of connections) connection.Disconnect();
		},
	};
}

const part = new ClientPart(
	(sources?: ActivitySources, remotesParent?: Instance): [started: boolean, result: boolean] => {
		const remote = waitForRemote("Activity", remotesParent);
		if (remote === undefined) return [false, false];
		let detector: { Disconnect(): void } | undefined;
		remote.OnClientEvent.Connect((settings: unknown) => {
			if (detector !== undefined || !isActivitySettings(settings)) return;
			detector = detectActivity(settings, (state) => remote.FireServer(state), sources);
		});
		return [true, true];
	},
	() => false,
);

/**
 * Reports this client's activity when the server asks (staff, in a workspace of the deployed service): waits for
 * StaffOps' remotes (up to 30 s), then for the server's settings, and sends state changes only. Once per client;
 * yields, so call it in its own thread (the drop-in model's loader does).
 *
 * @example
 * ```ts
 * task.spawn(() => startActivityReport());
 * ```
 * @see README#staff-activity
 */
export function startActivityReport(sources?: ActivitySources, remotesParent?: Instance): boolean {
	return part.start(sources, remotesParent);
}
