import type { CallMessage, CallMessagesAnswer } from "../api/resources/calls";
import type { CallCloseReason, ChatMessagePayload } from "../shared/chatProtocol";
import { BoundedMap } from "./boundedMap";
import { DeliveredWindow } from "./deliveredWindow";
import { SENDER_CACHE } from "./settings";
import type { CallChat, CallChatState } from "./types";

/** The one message a chat is filtering or holding back, with what already passed the filter. @internal */
export interface PendingMessage {
	readonly id: string;
	sender?: string;
	text?: string;
	/** Polls on which its filtering failed. */
	failures: number;
}

/** One chat's state on the server. @internal */
export interface Session {
	readonly chat: ChatHandle;
	readonly userId: number;
	readonly seen: DeliveredWindow;
	/** Raw sender name → the name filtered for this chat's player. */
	readonly senders: BoundedMap<string, string>;
	/** What was sent, for a client's replay (the newest {@link MAX_REPLAY}). */
	readonly log: Array<ChatMessagePayload>;
	pending?: PendingMessage;
	seq: number;
	/** The wait after the last successful poll (adaptive polling). */
	interval: number;
	/** Failed polls in a row, and what the last one was. */
	failures: number;
	failing?: "retry" | "bad-key";
	/** Polls made since the call was seen ended. */
	endingPolls: number;
	/** A poll in flight or its answer being delivered. */
	busy: boolean;
	/** Bumped to cancel a scheduled poll. */
	timer: number;
	/** Its transcript comes from the sync's `ongoingChats` (no polling) instead of polls. */
	fed?: boolean;
	/** Messages left out of what the player is shown (their own words, echoed when they wrote them). */
	hide?: (message: CallMessage) => boolean;
	/** A transcript the sync brought while the previous one was still being delivered. */
	queuedFeed?: CallMessagesAnswer;
}

/** The chat as game code holds it; closing goes through whoever owns the registry. @internal */
export class ChatHandle implements CallChat {
	state: CallChatState = "connecting";

	constructor(
		readonly chatId: string,
		readonly callId: string,
		readonly player: Player,
		readonly title: string,
		private readonly onClose: (chat: ChatHandle, reason: CallCloseReason) => void,
	) {}

	getState(): CallChatState {
		return this.state;
	}

	close(): void {
		if (this.state !== "closed") this.onClose(this, "closed");
	}
}

/**
 * The chats not closed yet, by chat id (what a client names) and by player (leaves, replays, `getChats`).
 * @internal
 */
export class ChatRegistry {
	private readonly byChatId = new Map<string, Session>();
	private readonly byUser = new Map<number, Array<Session>>();

	/** Makes and registers the state of a new chat. */
	add(chat: ChatHandle, interval: number): Session {
		const session: Session = {
			chat,
			userId: chat.player.UserId,
			seen: new DeliveredWindow(),
			senders: new BoundedMap(SENDER_CACHE),
			log: [],
			seq: 0,
			interval,
			failures: 0,
			endingPolls: 0,
			busy: false,
			timer: 0,
		};
		this.byChatId.set(chat.chatId, session);
		const list = this.byUser.get(session.userId) ?? [];
		list.push(session);
		this.byUser.set(session.userId, list);
		return session;
	}

	/** Forgets a chat (it closed). */
	remove(session: Session): void {
		this.byChatId.delete(session.chat.chatId);
		const list = this.byUser.get(session.userId);
		if (list === undefined) return;
		const index = list.indexOf(session);
		if (index >= 0) list.remove(index);
		if (list.size() === 0) this.byUser.delete(session.userId);
	}

	byId(chatId: string): Session | undefined {
		return this.byChatId.get(chatId);
	}

	/** A user's chat of `callId`, if one is open. */
	find(userId: number, callId: string): Session | undefined {
		return (this.byUser.get(userId) ?? []).find((session) => session.chat.callId === callId);
	}

	/** A copy of a user's chats (safe to close them while walking it). */
	ofUser(userId: number): Array<Session> {
		return [...(this.byUser.get(userId) ?? [])];
	}

	/** A copy of every chat. */
	all(): Array<Session> {
		const out = new Array<Session>();
		for (const [, session] of this.byChatId) out.push(session);
		return out;
	}

	size(): number {
		return this.byChatId.size();
	}

	/** Chats with a poll in flight or being delivered. */
	busy(): number {
		let count = 0;
		for (const [, session] of this.byChatId) if (session.busy) count += 1;
		return count;
	}

	/** The largest per-chat memory of any chat, for specs that check it stays bounded. */
	memory(): { chats: number; deliveredIds: number; senders: number; replay: number } {
		let [deliveredIds, senders, replay] = [0, 0, 0];
		for (const [, session] of this.byChatId) {
			deliveredIds = math.max(deliveredIds, session.seen.size());
			senders = math.max(senders, session.senders.size());
			replay = math.max(replay, session.log.size());
		}
		return { chats: this.byChatId.size(), deliveredIds, senders, replay };
	}
}
