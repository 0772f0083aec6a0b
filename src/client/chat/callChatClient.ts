import {
	CallCloseReason,
	ChatMessagePayload,
	isClosedPayload,
	isMessagePayload,
	isOpenedPayload,
} from "../../shared/chatProtocol";
import { Signal } from "../../shared/signal";

/**
 * How the chat client talks to the server: the `CallEvents` remote in a game, a fake client in specs.
 *
 * @example
 * ```ts
 * const channel = remoteChannel(ReplicatedStorage.WaitForChild("StaffOpsRemotes").WaitForChild("CallEvents") as RemoteEvent);
 * ```
 * @see README#support-calls
 */
export interface ChatChannel {
	/** Calls `handler` with what the server fired. */
	readonly connect: (handler: (...args: Array<unknown>) => void) => { Disconnect(): void };
	/** Fires to the server. */
	readonly send: (...args: Array<unknown>) => void;
}

/**
 * A {@link ChatChannel} over a RemoteEvent (client side: `OnClientEvent` and `FireServer`).
 *
 * @example
 * ```ts
 * const client = new CallChatClient(remoteChannel(callEvents)).start();
 * ```
 */
export function remoteChannel(remote: RemoteEvent): ChatChannel {
	return {
		connect: (handler) => remote.OnClientEvent.Connect(handler),
		send: (...args) => remote.FireServer(...args),
	};
}

/**
 * Listens to a {@link ChatChannel} once at a time: `open` connects and sends the server the client's greeting (so it
 * replays what this client must know), `close` cuts the connection. The chat and support clients start and stop on
 * it. @internal
 */
export class ChannelListener {
	private connection?: { Disconnect(): void };

	constructor(
		private readonly channel: ChatChannel,
		private readonly greeting: string,
	) {}

	/** Connects `handler` and greets the server; nothing when already open. */
	open(handler: (args: Array<unknown>) => void): void {
		if (this.connection !== undefined) return;
		this.connection = this.channel.connect((...args) => handler(args));
		this.channel.send(this.greeting);
	}

	/** Cuts the connection (no handler runs after it); `open` may connect again. */
	close(): void {
		this.connection?.Disconnect();
		this.connection = undefined;
	}
}

/** An open chat, as the client knows it. @see README#support-calls */
export interface ChatInfo {
	/** The server's opaque id of the chat. */
	readonly chatId: string;
	readonly title: string;
}

/** One message of a chat, filtered by the server for this player. @see README#support-calls */
export type ChatMessage = ChatMessagePayload;

/** Why a chat closed, as the client hears it; `dismissed` when this client closed it. */
export type ChatCloseReason = CallCloseReason;

const MAX_KEPT = 200;

interface ChatState {
	readonly info: ChatInfo;
	readonly messages: Array<ChatMessage>;
	readonly order: number;
	lastSeq: number;
}

/**
 * The client side of support calls, for games that draw their own UI (the built-in window, {@link ChatWindow}, is
 * driven by it too). It listens to the server's `CallEvents`, checks every payload, drops repeats (a replay after
 * `start()` or a UI reload sends messages again; each is shown once, by its `seq`), keeps the last 200 messages of
 * each open chat, and fires signals.
 *
 * @example
 * ```ts
 * const chats = new CallChatClient(remoteChannel(callEvents));
 * chats.message.Connect((chat, message) => print(`[${chat.title}] ${message.sender}: ${message.text}`));
 * chats.start();
 * ```
 * @see README#support-calls
 */
export class CallChatClient {
	/** A chat opened (or was replayed after `start()` and was not known yet). */
	readonly opened = new Signal<[chat: ChatInfo]>();
	/** A new message arrived, in order. */
	readonly message = new Signal<[chat: ChatInfo, message: ChatMessage]>();
	/** A chat closed. */
	readonly closed = new Signal<[chat: ChatInfo, reason: ChatCloseReason]>();

	private readonly chats = new Map<string, ChatState>();
	private openedCount = 0;
	private readonly listener: ChannelListener;

	constructor(private readonly channel: ChatChannel) {
		this.listener = new ChannelListener(channel, "ready");
	}

	/**
	 * Starts listening and asks the server to replay this player's open chats (so a client that starts late, or a
	 * UI that was rebuilt, catches up). Returns the client.
	 */
	start(): this {
		this.listener.open((args) => this.onEvent(args));
		return this;
	}

	/** Closes a chat from this side (the player closed its window): tells the server, then fires `closed`. */
	dismiss(chatId: string): void {
		const chat = this.chats.get(chatId);
		if (chat === undefined) return;
		this.chats.delete(chatId);
		this.channel.send("dismiss", chatId);
		this.closed.Fire(chat.info, "dismissed");
	}

	/** The open chats, oldest first. */
	getChats(): Array<ChatInfo> {
		const states = new Array<ChatState>();
		for (const [, chat] of this.chats) states.push(chat);
		states.sort((a, b) => a.order < b.order);
		return states.map((chat) => chat.info);
	}

	/** The messages of an open chat received so far (the last 200), in order. */
	getMessages(chatId: string): Array<ChatMessage> {
		return [...(this.chats.get(chatId)?.messages ?? [])];
	}

	/** Stops listening and forgets every chat (no signals fire). */
	destroy(): void {
		this.listener.close();
		this.chats.clear();
	}

	private onEvent(args: Array<unknown>): void {
		const [kind, payload] = [args[0], args[1]];
		if (kind === "opened" && isOpenedPayload(payload)) {
			if (this.chats.has(payload.chatId)) return;
			const info: ChatInfo = { chatId: payload.chatId, title: payload.title };
			this.openedCount += 1;
			this.chats.set(payload.chatId, { info, messages: [], order: this.openedCount, lastSeq: 0 });
			this.opened.Fire(info);
		} else if (kind === "message" && isMessagePayload(payload)) {
			const chat = this.chats.get(payload.chatId);
			if (chat === undefined || payload.seq <= chat.lastSeq) return;
			chat.lastSeq = payload.seq;
			chat.messages.push(payload);
			if (chat.messages.size() > MAX_KEPT) chat.messages.shift();
			this.message.Fire(chat.info, payload);
		} else if (kind === "closed" && isClosedPayload(payload)) {
			const chat = this.chats.get(payload.chatId);
			if (chat === undefined) return;
			this.chats.delete(payload.chatId);
			this.closed.Fire(chat.info, payload.reason);
		}
	}
}
