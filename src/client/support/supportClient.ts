import {
	MAX_PLAYER_TEXT,
	SupportCallType,
	SupportChatPayload,
	SupportResultPayload,
	SupportStatePayload,
} from "../../shared/supportProtocol";
import { Signal } from "../../shared/signal";
import { ChannelListener, ChatChannel } from "../chat/callChatClient";

/** What a player asks for with {@link SupportClient.requestCall}. @see README#support-calls */
export interface SupportCallArgs {
	readonly type: SupportCallType;
	/** Free text (at most 200 characters) when `canChat`, else one of the preset reasons of the state. */
	readonly reason: string;
	/** For a report: the UserId of the player reported (in the server, not the local player). */
	readonly reporting?: number;
}

const MAX_PRESETS = 20;
const MAX_PRESET_LENGTH = 200;
const MAX_RESULT_LENGTH = 400;
const MAX_CHAT_ID = 64;
const MAX_CHATS = 20;

/** What the client assumes until the server answers `hello`: nothing to show. */
const UNKNOWN_STATE: SupportStatePayload = {
	available: false,
	offered: false,
	canChat: false,
	presets: { support: [], report: [] },
};

const isPresetList = (value: unknown): value is Array<string> => {
	if (!typeIs(value, "table")) return false;
	const list = value as Array<unknown>;
	if (list.size() > MAX_PRESETS) return false;
	let count = 0;
	for (const [, item] of pairs(value as object)) {
		count += 1;
		if (!typeIs(item, "string") || item.size() === 0 || item.size() > MAX_PRESET_LENGTH) return false;
	}
	return count === list.size();
};

/** Checks a `state` payload; undefined when malformed. */
function readState(value: unknown): SupportStatePayload | undefined {
	if (!typeIs(value, "table")) return undefined;
	const state = value as Record<string, unknown>;
	const presets = state.presets as Record<string, unknown> | undefined;
	if (!typeIs(state.available, "boolean") || !typeIs(state.canChat, "boolean") || !typeIs(presets, "table")) {
		return undefined;
	}
	if (!isPresetList(presets.support) || !isPresetList(presets.report)) return undefined;
	return {
		available: state.available,
		offered: state.available && (typeIs(state.offered, "boolean") ? state.offered : true),
		canChat: state.canChat,
		presets: { support: [...presets.support], report: [...presets.report] },
	};
}

function readResult(value: unknown): SupportResultPayload | undefined {
	if (!typeIs(value, "table")) return undefined;
	const result = value as Record<string, unknown>;
	if (!typeIs(result.ok, "boolean") || !typeIs(result.text, "string")) return undefined;
	if (result.text.size() > MAX_RESULT_LENGTH) return undefined;
	return { ok: result.ok, text: result.text };
}

function readChat(value: unknown): SupportChatPayload | undefined {
	if (!typeIs(value, "table")) return undefined;
	const chat = value as Record<string, unknown>;
	if (!typeIs(chat.chatId, "string") || chat.chatId.size() === 0 || chat.chatId.size() > MAX_CHAT_ID) {
		return undefined;
	}
	if (!typeIs(chat.writable, "boolean")) return undefined;
	return { chatId: chat.chatId, writable: chat.writable };
}

/**
 * The client side of calling staff (the `SupportRequests` remote), for custom UIs; the built-in "Call staff" entry
 * and the chat window's text box and End button are driven by it too. It asks the server whether calling is
 * available (`hello`), sends the player's requests, checks every payload the server sends and fires signals.
 * The chats themselves (messages, closure) arrive on {@link CallChatClient}; `chatAttached` says which of them are
 * calls the player can end, and write in.
 *
 * @example
 * ```ts
 * const support = new SupportClient(remoteChannel(remotes.SupportRequests)).start();
 * support.stateChanged.Connect((state) => (myButton.Visible = state.available));
 * support.result.Connect((result) => print(result.text));
 * support.requestCall({ type: "support", reason: "I found a bug" });
 * ```
 * @see README#support-calls
 */
export class SupportClient {
	/** The server said whether calling staff is available, whether free text is allowed, and the preset reasons. */
	readonly stateChanged = new Signal<[state: SupportStatePayload]>();
	/** What became of a call request, in words for the player. */
	readonly result = new Signal<[result: SupportResultPayload]>();
	/** A chat of `CallEvents` is a call the player can end (and write in when `writable`). */
	readonly chatAttached = new Signal<[chat: SupportChatPayload]>();

	private state = UNKNOWN_STATE;
	private readonly chats = new Map<string, boolean>();
	private readonly listener: ChannelListener;

	constructor(private readonly channel: ChatChannel) {
		this.listener = new ChannelListener(channel, "hello");
	}

	/** Starts listening and asks the server for the state (`hello`). Returns the client. */
	start(): this {
		this.listener.open((args) => this.onEvent(args));
		return this;
	}

	/** The last state the server sent (not available until it answered). */
	getState(): SupportStatePayload {
		return this.state;
	}

	/**
	 * Asks the server to start a support call or a report; the answer arrives on `result`. The server checks
	 * everything again (cooldown, presets, the reported player).
	 */
	requestCall(args: SupportCallArgs): void {
		const body: { type: SupportCallType; reason: string; reporting?: number } = {
			type: args.type,
			reason: args.reason.sub(1, MAX_PLAYER_TEXT * 4),
		};
		if (args.type === "report") body.reporting = args.reporting;
		this.channel.send("call", body);
	}

	/** Writes `text` (at most 200 characters are kept) in the call shown in chat `chatId`. */
	say(chatId: string, text: string): void {
		if (!this.canWrite(chatId)) return;
		this.channel.send("say", chatId, text.sub(1, MAX_PLAYER_TEXT * 4));
	}

	/** Ends the call shown in chat `chatId` (`support/end` with `closedByUser`). */
	endCall(chatId: string): void {
		if (!this.chats.has(chatId)) return;
		this.chats.delete(chatId);
		this.channel.send("end", chatId);
	}

	/** Whether chat `chatId` is a call of this player (one they can end). */
	isCall(chatId: string): boolean {
		return this.chats.has(chatId);
	}

	/** Whether the player can write in chat `chatId`. */
	canWrite(chatId: string): boolean {
		return this.chats.get(chatId) === true;
	}

	/** Forgets a chat that closed. */
	forget(chatId: string): void {
		this.chats.delete(chatId);
	}

	/** Stops listening (no signals fire). */
	destroy(): void {
		this.listener.close();
		this.chats.clear();
	}

	private onEvent(args: Array<unknown>): void {
		const [kind, payload] = [args[0], args[1]];
		if (kind === "state") {
			const state = readState(payload);
			if (state === undefined) return;
			this.state = state;
			this.stateChanged.Fire(state);
		} else if (kind === "result") {
			const result = readResult(payload);
			if (result !== undefined) this.result.Fire(result);
		} else if (kind === "chat") {
			const chat = readChat(payload);
			if (chat === undefined || this.chats.size() >= MAX_CHATS) return;
			this.chats.set(chat.chatId, chat.writable);
			this.chatAttached.Fire(chat);
		}
	}
}
