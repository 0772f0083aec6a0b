import { CallMessage, MESSAGE_ORIGINS } from "../api/resources/calls";
import { logWarn } from "../background/log";
import { ChatMessagePayload, DEFAULT_SENDER, MESSAGE_UNAVAILABLE } from "../shared/chatProtocol";
import type { Session } from "./chatRegistry";
import { filterWithin, TextFilter } from "../roblox/textFilter";
import type { Scheduler } from "../transport/scheduler";
import { parseIsoTime } from "./messageTime";
import { newMessages } from "./newMessages";
import { MAX_REPLAY } from "./settings";
import { Slicer, YieldSlice } from "../shared/slicer";
import type { BridgeMessage, CallChat } from "./types";

const MAX_SENDER_CHARS = 50;
const MAX_TEXT_CHARS = 1000;
/** The most of an unknown origin a warning names. */
const MAX_ORIGIN_CHARS = 50;

/** Cuts a text to `max` characters without splitting a UTF-8 sequence. @internal */
export function truncate(text: string, max: number): string {
	const cut = utf8.offset(text, max + 1);
	return cut !== undefined && cut <= text.size() ? text.sub(1, cut - 1) : text;
}

/** What delivery needs from the bridge. @internal */
export interface MessageDeliverySeams {
	readonly filter: TextFilter;
	/** The clock of the filter's deadline. */
	readonly scheduler: Scheduler;
	readonly filterAttempts: number;
	readonly yieldSlice: YieldSlice;
	/** The clock slices are measured on. */
	readonly workClock: () => number;
	/** Sends a `message` payload to a player; never throws. */
	readonly send: (player: Player, payload: ChatMessagePayload) => void;
	/** Tells game code (the `message` signal, the counters). */
	readonly delivered: (chat: CallChat, message: BridgeMessage) => void;
}

/** What one delivery step did: messages sent, and whether some were held back (cap reached, filter failed). */
export interface DeliveryResult {
	readonly count: number;
	readonly more: boolean;
}

type Shown = [sender: string, text: string, placeholder: boolean];

/**
 * The filter-and-send step of one poll: takes the messages the chat has not handled (by id, whatever their
 * position), filters each for the chat's player (once per message: what passed is kept while a message waits), and
 * sends at most `MAX_PER_POLL` of them, oldest `created` first. A message whose filtering failed holds back itself and every later one
 * until a later poll; after `filterAttempts` polls it is sent as {@link MESSAGE_UNAVAILABLE}. The bridge's own work
 * on a long transcript runs in slices that give the frame back.
 * @internal
 */
export class Delivery {
	/** Messages delivered whose origin StaffOps does not know: shown as other text, counted, warned once. */
	unknownOrigins = 0;

	constructor(private readonly ports: MessageDeliverySeams) {}

	/**
	 * Delivers the new messages of `messages` (see {@link newMessages}); `opening` is the chat's first transcript,
	 * of which only the newest `MAX_BACKLOG` are for the player. Stops at the cap, a failed filter, or a closed
	 * chat.
	 */
	deliverNew(session: Session, messages: ReadonlyArray<CallMessage>, opening = false): DeliveryResult {
		const chat = session.chat;
		const slicer = new Slicer(this.ports.yieldSlice, this.ports.workClock);
		const { chosen, more } = newMessages(session.seen, messages, slicer, opening);
		let count = 0;
		for (const { message, index } of chosen) {
			// A slice may have yielded (while reading, or after the last delivery): the chat may have closed meanwhile.
			if (chat.getState() === "closed") return { count, more: false };
			const shown = this.shown(session, message);
			// Filtering yields: the player may have left, or game code closed the chat, meanwhile.
			slicer.restart();
			if (chat.getState() === "closed") return { count, more: false };
			if (shown === undefined) return { count, more: true };
			session.pending = undefined;
			session.seen.mark(message.id, index);
			this.deliver(session, message, shown);
			count += 1;
			slicer.check();
		}
		return { count, more };
	}

	/** The sender and text filtered for the chat's player, the placeholder, or undefined to wait for a later poll. */
	private shown(session: Session, message: CallMessage): Shown | undefined {
		const player = session.chat.player;
		let pending = session.pending;
		if (pending === undefined || pending.id !== message.id) {
			pending = { id: message.id, failures: 0 };
			session.pending = pending;
		}
		const rawSender = truncate(message.username ?? "", MAX_SENDER_CHARS);
		if (pending.sender === undefined) {
			pending.sender = rawSender === "" ? DEFAULT_SENDER : session.senders.get(rawSender);
			if (pending.sender === undefined) {
				pending.sender = this.filtered(rawSender, player);
				if (pending.sender !== undefined) session.senders.set(rawSender, pending.sender);
			}
		}
		if (pending.sender !== undefined && pending.text === undefined) {
			pending.text = this.filtered(truncate(message.message ?? "", MAX_TEXT_CHARS), player);
		}
		if (pending.sender !== undefined && pending.text !== undefined) return [pending.sender, pending.text, false];
		pending.failures += 1;
		if (pending.failures < this.ports.filterAttempts) return undefined;
		return [pending.sender ?? DEFAULT_SENDER, MESSAGE_UNAVAILABLE, true];
	}

	/** Undefined when the filter failed or missed its deadline: the message waits, then shows the placeholder. */
	private filtered(text: string, player: Player): string | undefined {
		return filterWithin(this.ports.filter, text, player, this.ports.scheduler);
	}

	/**
	 * How a message's origin is shown, looked up in {@link MESSAGE_ORIGINS}; a message without one as other text. One
	 * StaffOps does not know (a service may add one) is shown as other text too, counted and warned once: never as the
	 * agent's, and never hidden as the support desk hides the player's own words. Were it a renamed `agent`, hiding
	 * it would keep staff's answers from the player; shown, the worst is a renamed `user` showing the player their
	 * own words twice.
	 */
	private originShown(origin: string | undefined): "agent" | "other" {
		if (origin === undefined) return "other";
		if (MESSAGE_ORIGINS.is(origin)) return MESSAGE_ORIGINS.of[origin].shownAs;
		this.unknownOrigins += 1;
		if (this.unknownOrigins === 1) {
			logWarn(
				`support calls: the service sent a message of an origin StaffOps does not know (${truncate(origin, MAX_ORIGIN_CHARS)}); such messages are shown as other text, never as the agent's. Later ones stay quiet`,
			);
		}
		return "other";
	}

	private deliver(session: Session, message: CallMessage, [sender, text, placeholder]: Shown): void {
		const chat = session.chat;
		session.seq += 1;
		// The service's time of the message; when it is missing or unreadable, the time it arrived, and the signal
		// says the time is estimated.
		const parsed = parseIsoTime(message.created);
		const timeEstimated = parsed === undefined;
		const payload: ChatMessagePayload = {
			chatId: chat.chatId,
			seq: session.seq,
			sender,
			text,
			sentAt: parsed ?? DateTime.now().UnixTimestampMillis / 1000,
			origin: this.originShown(message.origin),
		};
		session.log.push(payload);
		if (session.log.size() > MAX_REPLAY) session.log.shift();
		this.ports.send(chat.player, payload);
		this.ports.delivered(chat, {
			id: message.id,
			seq: payload.seq,
			sender,
			text,
			sentAt: payload.sentAt,
			timeEstimated,
			origin: payload.origin,
			placeholder,
		});
	}
}
