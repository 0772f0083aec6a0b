import { Players } from "@rbxts/services";
import { CALL_EVENTS_REMOTE } from "../../shared/chatProtocol";
import { waitForRemote } from "../../shared/remotes";
import { SUPPORT_REQUESTS_REMOTE } from "../../shared/supportProtocol";
import { CallChatClient, ChatInfo, remoteChannel } from "./callChatClient";
import { ChatWindow, ChatWindowOptions } from "./chatWindow";
import { ClientPart } from "../clientPart";
import { sharedSupportClient } from "../support";
import type { SupportClient } from "../support/supportClient";

/**
 * The built-in chat UI, mounted on a {@link CallChatClient}.
 * @see README#support-calls
 */
export interface MountedCallChat {
	/** The window of an open chat. */
	getWindow(chatId: string): ChatWindow | undefined;
	/** Closes every window and stops following the client (the client keeps running). */
	destroy(): void;
}

/**
 * Options of {@link mountCallChat}: the windows' options except the title (each chat brings its own), plus the
 * support client that makes a window a call the player writes in and ends.
 */
export type MountOptions = Omit<ChatWindowOptions, "title" | "offset"> & {
	/** Calls the player takes part in get a text box (when allowed) and an End button, driven by this client. */
	readonly support?: SupportClient;
	/** Seconds a window stays open, showing the closing message, after staff ended the call. Default 30. */
	readonly lingerSeconds?: number;
};

const STACK_OFFSET = 40;
const LINGER_SECONDS = 30;

/**
 * Shows a {@link ChatWindow} for every chat the client has open or opens later: its messages in order, closed when
 * the chat closes. The player's close button dismisses the chat (the server stops polling it). With `support`, a call
 * the player takes part in gets an End button and (when their chat settings allow) a text box; when staff end a call,
 * its window stays, showing the closing message, until the player closes it or `lingerSeconds` pass.
 *
 * @example
 * ```ts
 * const chats = new CallChatClient(remoteChannel(callEvents));
 * mountCallChat(chats, Players.LocalPlayer.WaitForChild("PlayerGui"));
 * chats.start();
 * ```
 * @see README#support-calls
 */
export function mountCallChat(client: CallChatClient, parent: Instance, options: MountOptions = {}): MountedCallChat {
	const windows = new Map<string, ChatWindow>();
	const support = options.support;
	const lingerSeconds = options.lingerSeconds ?? LINGER_SECONDS;
	const windowOptions: ChatWindowOptions = {
		formatTime: options.formatTime,
		maxEntries: options.maxEntries,
	};
	let alive = true;

	const show = (chat: ChatInfo) => {
		if (!alive || windows.has(chat.chatId)) return;
		const window = new ChatWindow(parent, {
			...windowOptions,
			title: chat.title,
			offset: windows.size() * STACK_OFFSET,
		});
		windows.set(chat.chatId, window);
		window.closed.Connect((byPlayer) => {
			if (windows.get(chat.chatId) === window) windows.delete(chat.chatId);
			// A window kept open after the call ended closes on its own; the chat is already over on the server.
			if (byPlayer && !window.isEnded()) client.dismiss(chat.chatId);
		});
		if (support !== undefined) {
			window.sent.Connect((text) => support.say(chat.chatId, text));
			window.endRequested.Connect(() => support.endCall(chat.chatId));
			if (support.isCall(chat.chatId)) window.setCallControls(support.canWrite(chat.chatId));
		}
		for (const message of client.getMessages(chat.chatId)) window.addMessage(message);
	};

	const ended = (chat: ChatInfo, reason: string) => {
		support?.forget(chat.chatId);
		const window = windows.get(chat.chatId);
		if (window === undefined) return;
		// Staff ended the call: its closing message stays readable until the player closes the window or time passes.
		if (reason !== "ended" || lingerSeconds <= 0) {
			window.close();
			return;
		}
		window.showEnded();
		task.delay(lingerSeconds, () => window.close());
	};

	const connections = [
		client.opened.Connect(show),
		client.message.Connect((chat, message) => windows.get(chat.chatId)?.addMessage(message)),
		client.closed.Connect(ended),
	];
	if (support !== undefined) {
		connections.push(
			support.chatAttached.Connect((chat) => windows.get(chat.chatId)?.setCallControls(chat.writable)),
		);
	}
	for (const chat of client.getChats()) show(chat);

	return {
		getWindow(chatId) {
			return windows.get(chatId);
		},
		destroy() {
			alive = false;
			for (const connection of connections) connection.Disconnect();
			const open = new Array<ChatWindow>();
			for (const [, window] of windows) open.push(window);
			for (const window of open) window.close();
		},
	};
}

// Once per client: the drop-in model's loader and a game's own client code may both start the chat (or a starter
// copy and its original may both run); a second start must not open a second window for every chat. A later call
// answers the client the first call started (undefined while that first call still waits).
let started: CallChatClient | undefined;
const part = new ClientPart(
	(options: MountOptions): [started: boolean, result: CallChatClient | undefined] => {
		const events = waitForRemote(CALL_EVENTS_REMOTE);
		const requests = events && waitForRemote(SUPPORT_REQUESTS_REMOTE);
		const player = Players.LocalPlayer;
		// Nothing was mounted: a later call may try again.
		if (events === undefined || requests === undefined || player === undefined) return [false, undefined];
		const playerGui = player.WaitForChild("PlayerGui");
		const client = new CallChatClient(remoteChannel(events));
		// The player's side of a call (text box, End) goes through this client's one support client.
		mountCallChat(client, playerGui, { support: sharedSupportClient(requests), ...options });
		started = client;
		return [true, client.start()];
	},
	() => started,
	() => (started = undefined),
);

/**
 * The one call a client script needs for the built-in support chat: waits for StaffOps' remotes (up to 30 s; undefined
 * when the server does not run StaffOps), mounts the windows in the local player's PlayerGui and starts the client.
 * Once per client: a later call mounts nothing and returns the client the first call started (undefined while that
 * first call still waits). The windows' ScreenGuis keep `ResetOnSpawn` off, so they survive respawns; call it from a
 * script that is not reset either (StarterPlayerScripts, or a `Script` with `RunContext` Client in ReplicatedStorage).
 *
 * @example
 * ```ts
 * // StarterPlayerScripts/SupportChat.client.ts
 * import { startCallChat } from "@rbxts/staffops";
 * startCallChat();
 * ```
 * @see README#support-calls
 */
export function startCallChat(options: MountOptions = {}): CallChatClient | undefined {
	return part.start(options);
}
