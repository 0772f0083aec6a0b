import { HttpService, Players } from "@rbxts/services";
import type { CallOptions } from "../api/client";
import type { CallMessage, CallMessagesAnswer } from "../api/types";
import { RateLimiter } from "../shared/rateLimiter";
import { ensureRemotes } from "../shared/remotes";
import { Signal, SignalConnection } from "../shared/signal";
import type { RequestBudget } from "../transport/budget";
import { robloxScheduler, Scheduler } from "../transport/scheduler";
import { StaffOpsError } from "../transport/StaffOpsError";
import { robloxTextFilter, TextFilter } from "./filter";
import { parseIsoTime } from "./messageTime";
import {
	CallCloseReason,
	ChatClosedPayload,
	ChatMessagePayload,
	ChatOpenedPayload,
	DEFAULT_SENDER,
	DEFAULT_TITLE,
	MESSAGE_UNAVAILABLE,
	readClientRequest,
} from "../client/chat/protocol";

/**
 * The part of {@link StaffOpsClient} the bridge uses: `calls.getMessages` and the budget it draws from.
 * @see README#support-calls
 */
export interface CallsClient {
	readonly calls: {
		getMessages(callId: string, options?: CallOptions): Promise<CallMessagesAnswer>;
	};
	getBudget(): RequestBudget;
}

/**
 * The part of `Players` the bridge uses: it closes a player's chats when they leave.
 * @see README#support-calls
 */
export interface BridgePlayers {
	readonly PlayerRemoving: RBXScriptSignal<(player: Player) => void>;
}

/**
 * How the bridge polls, in seconds. Defaults: a chat polls `busyInterval` (2 s) after a poll that brought a new
 * message; each quiet poll multiplies the wait by `growth` (1.5) up to `quietInterval` (10 s): 2, 3, 4.5, 6.75,
 * 10, 10, ... Every wait is jittered by ±`jitter` (10 %). A failed poll waits `retryDelay` (5 s), doubling per
 * further failure up to `maxRetryDelay` (60 s), or longer when the service sent `Retry-After`. All open chats
 * together plan at most `budgetShare` (half) of the request budget: with `n` chats open no chat polls more often
 * than every `60 * n / (perMinute * budgetShare)` seconds. `jitter` may be 0.
 *
 * @see README#support-calls
 */
export interface PollingOptions {
	readonly busyInterval?: number;
	readonly quietInterval?: number;
	readonly growth?: number;
	readonly jitter?: number;
	readonly retryDelay?: number;
	readonly maxRetryDelay?: number;
	readonly budgetShare?: number;
	/**
	 * Polls on which a message's filtering may fail before the placeholder is sent instead, for a game's own
	 * `filter`. Default 3. Ignored for the default TextService filter, which retries internally: a message is
	 * filtered by it once, and a failure shows the placeholder at once.
	 */
	readonly filterAttempts?: number;
}

/**
 * What a {@link CallBridge} is built from. Only `client` is required; the rest default to Roblox's services.
 *
 * @example
 * ```ts
 * const bridge = new CallBridge({ client: new StaffOpsClient({ baseUrl, apiKey }) });
 * ```
 * @see README#support-calls
 */
export interface CallBridgeOptions {
	/** The typed client (or anything with `calls.getMessages` and `getBudget()`). */
	readonly client: CallsClient;
	/** The clock for poll intervals; default `os.clock` + `task.delay`. */
	readonly scheduler?: Scheduler;
	/** Uniform draws in [0, 1) for jitter; default `math.random`. */
	readonly random?: () => number;
	/** Filters text for one player; default {@link robloxTextFilter} (TextService). */
	readonly filter?: TextFilter;
	/** Where leaves come from; default `Players`. */
	readonly players?: BridgePlayers;
	/** The remote to the clients; default the `CallEvents` remote in ReplicatedStorage (created when missing). */
	readonly remote?: RemoteEvent;
	readonly polling?: PollingOptions;
}

/** Per-chat options of {@link CallBridge.open}. */
export interface OpenChatOptions {
	/** The chat window's title (game text, not filtered by the bridge); default `Support`, at most 100 characters. */
	readonly title?: string;
}

/** Where a chat is: waiting for its first answer, showing messages, or over. */
export type CallChatState = "connecting" | "open" | "closed";

/**
 * One player's view of one support call, as game code holds it.
 * @see README#support-calls
 */
export interface CallChat {
	/** The opaque id the player's client knows this chat by (never the call id). */
	readonly chatId: string;
	/** The service's call id; stays on the server. */
	readonly callId: string;
	readonly player: Player;
	readonly title: string;
	/** `connecting` until the first answer shows the call open, then `open`, then `closed`. */
	getState(): CallChatState;
	/** Closes the chat (reason `closed`); does nothing when it is already closed. */
	close(): void;
}

/**
 * A message the bridge delivered to a player, as game code sees it.
 * @see README#support-calls
 */
export interface BridgeMessage {
	/** The service's message id. */
	readonly id: string;
	/** 1, 2, 3, ... within the chat. */
	readonly seq: number;
	/** The sender's name as the player saw it (filtered). */
	readonly sender: string;
	/** The text as the player saw it (filtered), or the placeholder. */
	readonly text: string;
	/** Unix seconds: the service's time of the message, or the time it arrived when `timeEstimated`. */
	readonly sentAt: number;
	/** True when the service's time was missing or unreadable, so `sentAt` is when the bridge received it. */
	readonly timeEstimated: boolean;
	readonly origin: "agent" | "other";
	/** True when filtering kept failing and the player got `[message could not be shown]`. */
	readonly placeholder: boolean;
}

/**
 * Counters of a bridge since it was made, for dashboards and cost checks.
 * @see README#support-calls
 */
export interface CallBridgeStats {
	/** Chats not closed yet (connecting or open). */
	readonly open: number;
	/** Chats with a poll in flight or being filtered right now. */
	readonly busy: number;
	/** Polls started (each is one `GET /calls/{callId}/messages`, plus the transport's own retries). */
	readonly polls: number;
	/** Polls that failed after the transport's retries. */
	readonly failedPolls: number;
	/** Messages sent to players. */
	readonly delivered: number;
	/** Events clients fired on the remote. */
	readonly clientEvents: number;
	/** Of those, the ones dropped: over the rate limit, malformed, or about a chat that is not an open chat of the player's. */
	readonly clientEventsDropped: number;
}

const MAX_CALL_ID = 100;
const MAX_TITLE = 100;
const MAX_SENDER_CHARS = 50;
const MAX_TEXT_CHARS = 1000;
const MAX_REPLAY = 100;
/** Messages shown when a chat opens on a call that already has a transcript: the newest ones. */
const MAX_BACKLOG = 50;

interface Session {
	readonly chat: ChatHandle;
	readonly userId: number;
	readonly delivered: Set<string>;
	readonly filterFailures: Map<string, number>;
	readonly senders: Map<string, string>;
	readonly log: Array<ChatMessagePayload>;
	seq: number;
	interval: number;
	failures: number;
	busy: boolean;
	timer: number;
}

class ChatHandle implements CallChat {
	state: CallChatState = "connecting";

	constructor(
		readonly chatId: string,
		readonly callId: string,
		readonly player: Player,
		readonly title: string,
		private readonly bridge: CallBridge,
	) {}

	getState(): CallChatState {
		return this.state;
	}

	close(): void {
		if (this.state !== "closed") this.bridge.close(this.player, this.callId);
	}
}

function positive(value: number | undefined, fallback: number): number {
	return value !== undefined && typeIs(value, "number") && value === value && value > 0 && value < math.huge
		? value
		: fallback;
}

/** Cuts a text to `max` characters without splitting a UTF-8 sequence. */
function truncate(text: string, max: number): string {
	const cut = utf8.offset(text, max + 1);
	return cut !== undefined && cut <= text.size() ? text.sub(1, cut - 1) : text;
}

/** The message's time from the service, or the receive time with `estimated` when it is missing or unreadable. */
function messageTime(created: string | undefined): [seconds: number, estimated: boolean] {
	const parsed = parseIsoTime(created);
	if (parsed !== undefined) return [parsed, false];
	return [DateTime.now().UnixTimestampMillis / 1000, true];
}

/** Why an error ends a chat for good, or undefined when a later poll may succeed. */
function closeReasonFor(err: unknown): CallCloseReason | undefined {
	if (!StaffOpsError.is(err)) return undefined;
	if (err.kind === "invalid") return "error";
	if (err.kind === "service" || err.kind === "http") {
		if (err.status === 404) return "not-found";
		if (err.status >= 400 && err.status <= 499 && err.status !== 408 && err.status !== 429) return "error";
	}
	return undefined;
}

/**
 * The server side of in-game support calls: game code opens a chat for a player and a call id; the bridge polls
 * the call's transcript (`GET /calls/{callId}/messages`, priority `low`) while its status is `open`, filters each
 * new message for that player with TextService and sends it to that player only, in order and exactly once, over
 * the `CallEvents` remote. It closes the chat when the call stops being open, the service no longer knows it, the
 * player leaves, the player closes the window, or game code closes it. A client never names a call: it knows a
 * chat only by an opaque `chatId`.
 *
 * Filtering: a message (sender name and text) leaves the server only filtered for its recipient. When filtering
 * fails, the message and every later one wait for the next poll; after `filterAttempts` failed polls the player
 * gets {@link MESSAGE_UNAVAILABLE} instead, never the unfiltered text.
 *
 * Opening: the chat is `connecting` until the first answer; a failed first poll is retried like any other. A call
 * that already has a long transcript shows its newest 50 messages. Failures: transport errors, timeouts, 408, 429,
 * 5xx and undecodable answers back the chat off and it recovers; 404 closes it (`not-found`), other 4xx refusals
 * close it (`error`).
 *
 * Cost: one request per poll; about 6 requests per minute for a quiet chat and 30 for a chat whose every poll
 * brings a message (measured in `test/specs/bridge/polling.spec.ts`), and never more than `budgetShare` of the
 * request budget for all chats together.
 *
 * @example
 * ```ts
 * const bridge = new CallBridge({ client });
 * bridge.closed.Connect((chat, reason) => print(`${chat.player.Name}'s call ended: ${reason}`));
 * const chat = bridge.open(player, "call-123", { title: "Cafe support" });
 * ```
 * @see README#support-calls
 */
export class CallBridge {
	/** A chat's first answer showed the call open; the player's window appears. */
	readonly opened = new Signal<[chat: CallChat]>();
	/** A message was delivered to the chat's player (filtered). */
	readonly message = new Signal<[chat: CallChat, message: BridgeMessage]>();
	/** A chat closed; fires once per chat, also for one that never opened (e.g. the call was already over). */
	readonly closed = new Signal<[chat: CallChat, reason: CallCloseReason]>();

	private readonly client: CallsClient;
	private readonly scheduler: Scheduler;
	private readonly random: () => number;
	private readonly filter: TextFilter;
	private readonly remote: RemoteEvent;
	private readonly limiter: RateLimiter;
	private readonly replayLimiter: RateLimiter;
	private readonly connections = new Array<RBXScriptConnection | SignalConnection>();
	private readonly byChatId = new Map<string, Session>();
	private readonly byUser = new Map<number, Array<Session>>();
	private readonly busyInterval: number;
	private readonly quietInterval: number;
	private readonly growth: number;
	private readonly jitter: number;
	private readonly retryDelay: number;
	private readonly maxRetryDelay: number;
	private readonly budgetShare: number;
	private readonly filterAttempts: number;
	private destroyed = false;
	private polls = 0;
	private failedPolls = 0;
	private deliveredCount = 0;
	private clientEvents = 0;
	private clientEventsDropped = 0;

	/**
	 * Makes a bridge and starts listening to the `CallEvents` remote and to leaves; nothing is polled until a chat
	 * opens.
	 * @param options the client (required) and the Roblox seams
	 */
	constructor(options: CallBridgeOptions) {
		this.client = options.client;
		this.scheduler = options.scheduler ?? robloxScheduler;
		this.random = options.random ?? (() => math.random());
		this.filter = options.filter ?? robloxTextFilter;
		this.remote = options.remote ?? ensureRemotes().CallEvents;
		const polling = options.polling ?? {};
		this.busyInterval = positive(polling.busyInterval, 2);
		this.quietInterval = math.max(positive(polling.quietInterval, 10), this.busyInterval);
		this.growth = math.max(positive(polling.growth, 1.5), 1);
		this.jitter = polling.jitter === 0 ? 0 : math.min(positive(polling.jitter, 0.1), 0.5);
		this.retryDelay = positive(polling.retryDelay, 5);
		this.maxRetryDelay = math.max(positive(polling.maxRetryDelay, 60), this.retryDelay);
		this.budgetShare = math.min(positive(polling.budgetShare, 0.5), 1);
		this.filterAttempts = math.max(math.floor(positive(polling.filterAttempts, 3)), 1);
		// A client may fire about once a second, with a small burst; a replay (up to 100 messages per chat) far
		// less often, so a client cannot turn one small event into a flood of remote traffic.
		this.limiter = new RateLimiter(1, 5, () => this.scheduler.now());
		this.replayLimiter = new RateLimiter(0.1, 2, () => this.scheduler.now());

		this.connections.push(
			this.remote.OnServerEvent.Connect((player, ...args) => this.onClientEvent(player, args)),
			(options.players ?? Players).PlayerRemoving.Connect((player) => this.onPlayerRemoving(player)),
		);
	}

	/**
	 * Opens a chat of `callId` for `player` and starts polling at once. Opening the same call for the same player
	 * again returns the chat already open. The window appears when the first answer shows the call `open`; a call
	 * that is not open (or unknown) closes the chat without showing anything. Throws on a non-Player, an empty or
	 * over-long call id (100 characters), or a destroyed bridge.
	 *
	 * @example
	 * ```ts
	 * const chat = bridge.open(player, "call-123");
	 * task.delay(600, () => chat.close());
	 * ```
	 */
	open(player: Player, callId: string, options?: OpenChatOptions): CallChat {
		if (!typeIs(player, "Instance") || !player.IsA("Player")) error("CallBridge.open: player must be a Player", 2);
		if (!typeIs(callId, "string") || callId.size() === 0 || callId.size() > MAX_CALL_ID) {
			error(`CallBridge.open: callId must be a non-empty string of at most ${MAX_CALL_ID} characters`, 2);
		}
		if (this.destroyed) error("CallBridge.open: the bridge was destroyed", 2);
		const existing = this.find(player.UserId, callId);
		if (existing !== undefined) return existing.chat;

		const title: unknown = typeIs(options, "table") ? options.title : undefined;
		const chat = new ChatHandle(
			HttpService.GenerateGUID(false),
			callId,
			player,
			typeIs(title, "string") && title.size() > 0 ? truncate(title, MAX_TITLE) : DEFAULT_TITLE,
			this,
		);
		const session: Session = {
			chat,
			userId: player.UserId,
			delivered: new Set(),
			filterFailures: new Map(),
			senders: new Map(),
			log: [],
			seq: 0,
			interval: this.busyInterval,
			failures: 0,
			busy: false,
			timer: 0,
		};
		this.byChatId.set(chat.chatId, session);
		const list = this.byUser.get(session.userId) ?? [];
		list.push(session);
		this.byUser.set(session.userId, list);

		if (player.Parent === undefined) {
			this.finish(session, "left");
		} else {
			this.poll(session);
		}
		return chat;
	}

	/**
	 * Closes `player`'s chat of `callId`, or every chat of `player` when `callId` is omitted (reason `closed`); the
	 * player's window closes. Returns how many chats it closed.
	 *
	 * @example
	 * ```ts
	 * bridge.close(player);
	 * ```
	 */
	close(player: Player, callId?: string): number {
		if (!typeIs(player, "Instance") || !player.IsA("Player")) return 0;
		let count = 0;
		for (const session of [...(this.byUser.get(player.UserId) ?? [])]) {
			if (callId === undefined || session.chat.callId === callId) {
				this.finish(session, "closed");
				count += 1;
			}
		}
		return count;
	}

	/** The chats not closed yet: `player`'s, or everyone's when omitted. */
	getChats(player?: Player): Array<CallChat> {
		const out = new Array<CallChat>();
		if (player !== undefined) {
			for (const session of this.byUser.get(player.UserId) ?? []) out.push(session.chat);
		} else {
			for (const [, session] of this.byChatId) out.push(session.chat);
		}
		return out;
	}

	/** Counters since the bridge was made. */
	getStats(): CallBridgeStats {
		let busy = 0;
		for (const [, session] of this.byChatId) if (session.busy) busy += 1;
		return {
			open: this.byChatId.size(),
			busy,
			polls: this.polls,
			failedPolls: this.failedPolls,
			delivered: this.deliveredCount,
			clientEvents: this.clientEvents,
			clientEventsDropped: this.clientEventsDropped,
		};
	}

	/** Closes every chat (reason `destroyed`), stops listening to the remote and to leaves. Idempotent. */
	destroy(): void {
		if (this.destroyed) return;
		this.destroyed = true;
		const sessions = new Array<Session>();
		for (const [, session] of this.byChatId) sessions.push(session);
		for (const session of sessions) this.finish(session, "destroyed");
		for (const connection of this.connections) connection.Disconnect();
		this.connections.clear();
	}

	/** `CallBridge(2 open)`. */
	toString(): string {
		return `CallBridge(${this.byChatId.size()} open)`;
	}

	private find(userId: number, callId: string): Session | undefined {
		return (this.byUser.get(userId) ?? []).find((session) => session.chat.callId === callId);
	}

	private poll(session: Session): void {
		if (session.chat.state === "closed" || session.busy) return;
		session.busy = true;
		this.polls += 1;
		this.client.calls.getMessages(session.chat.callId, { priority: "low" }).andThen(
			(answer) => {
				// Filtering yields: run it in its own thread so the Promise chain never does.
				task.spawn(() => {
					const [ok, problem] = pcall(() => this.afterAnswer(session, answer));
					if (!ok) {
						warn(`[StaffOps] call bridge: ${tostring(problem)}`);
						this.afterFailure(session, problem);
					}
				});
			},
			(err: unknown) => this.afterFailure(session, err),
		);
	}

	private afterAnswer(session: Session, answer: CallMessagesAnswer): void {
		const chat = session.chat;
		if (chat.state === "closed") return;
		session.failures = 0;
		const stillOpen = answer.status === "open";
		if (chat.state === "connecting") {
			if (!stillOpen) {
				session.busy = false;
				this.finish(session, "ended");
				return;
			}
			chat.state = "open";
			this.send(chat.player, "opened", { chatId: chat.chatId, title: chat.title } satisfies ChatOpenedPayload);
			this.opened.Fire(chat);
			// A long transcript: only its newest messages are filtered and shown.
			const skip = answer.messages.size() - MAX_BACKLOG;
			for (let i = 0; i < skip; i++) session.delivered.add(answer.messages[i].id);
		}
		const [count, blocked] = this.deliverNew(session, answer.messages);
		session.busy = false;
		// Filtering yields: the player may have left, or game code closed the chat, meanwhile.
		if (chat.getState() === "closed") return;
		if (!stillOpen && !blocked) {
			this.finish(session, "ended");
			return;
		}
		session.interval =
			count > 0 || blocked ? this.busyInterval : math.min(this.quietInterval, session.interval * this.growth);
		this.schedule(session, math.max(this.jittered(session.interval), this.minInterval()));
	}

	private afterFailure(session: Session, err: unknown): void {
		session.busy = false;
		if (session.chat.state === "closed") return;
		this.failedPolls += 1;
		const reason = closeReasonFor(err);
		if (reason !== undefined) {
			this.finish(session, reason);
			return;
		}
		session.failures += 1;
		let wait = this.jittered(math.min(this.maxRetryDelay, this.retryDelay * 2 ** (session.failures - 1)));
		const retryAfter = StaffOpsError.is(err) ? err.retryAfter : undefined;
		if (retryAfter !== undefined) wait = math.max(wait, math.min(retryAfter, this.maxRetryDelay));
		this.schedule(session, math.max(wait, this.minInterval()));
	}

	/** Delivers the transcript's undelivered messages in order; stops at one whose filtering failed. */
	private deliverNew(session: Session, messages: ReadonlyArray<CallMessage>): [count: number, blocked: boolean] {
		let count = 0;
		for (const message of messages) {
			const id = message.id;
			if (session.delivered.has(id)) continue;
			if (message.message === undefined || message.message === "") {
				// Nothing to show; an empty entry would only confuse the player.
				session.delivered.add(id);
				continue;
			}
			const rawSender = truncate(message.username ?? "", MAX_SENDER_CHARS);
			const shown = this.filterMessage(session, rawSender, truncate(message.message, MAX_TEXT_CHARS));
			if (session.chat.getState() === "closed") return [count, false];
			let sender: string;
			let text: string;
			let placeholder = false;
			if (shown !== undefined) {
				[sender, text] = shown;
			} else {
				const failures = (session.filterFailures.get(id) ?? 0) + 1;
				// TextService's filter retries internally: its failure is final (a message is filtered once).
				const attempts = this.filter === robloxTextFilter ? 1 : this.filterAttempts;
				if (failures < attempts) {
					session.filterFailures.set(id, failures);
					return [count, true];
				}
				sender = session.senders.get(rawSender) ?? DEFAULT_SENDER;
				text = MESSAGE_UNAVAILABLE;
				placeholder = true;
			}
			session.filterFailures.delete(id);
			session.delivered.add(id);
			this.deliver(session, id, sender, text, message, placeholder);
			count += 1;
		}
		return [count, false];
	}

	/** The sender and text filtered for the session's player, or undefined when either could not be filtered. */
	private filterMessage(session: Session, rawSender: string, rawText: string): [string, string] | undefined {
		let sender = rawSender === "" ? DEFAULT_SENDER : session.senders.get(rawSender);
		if (sender === undefined) {
			sender = this.filtered(rawSender, session.chat.player);
			if (sender === undefined) return undefined;
			session.senders.set(rawSender, sender);
		}
		const text = this.filtered(rawText, session.chat.player);
		return text !== undefined ? [sender, text] : undefined;
	}

	private filtered(text: string, player: Player): string | undefined {
		const [ok, result] = pcall(this.filter, text, player);
		return ok && typeIs(result, "string") ? result : undefined;
	}

	private deliver(
		session: Session,
		id: string,
		sender: string,
		text: string,
		message: CallMessage,
		placeholder: boolean,
	): void {
		const chat = session.chat;
		session.seq += 1;
		const [sentAt, timeEstimated] = messageTime(message.created);
		const payload: ChatMessagePayload = {
			chatId: chat.chatId,
			seq: session.seq,
			sender,
			text,
			sentAt,
			origin: message.origin === "agent" ? "agent" : "other",
		};
		session.log.push(payload);
		if (session.log.size() > MAX_REPLAY) session.log.shift();
		this.deliveredCount += 1;
		this.send(chat.player, "message", payload);
		this.message.Fire(chat, {
			id,
			seq: payload.seq,
			sender,
			text,
			sentAt: payload.sentAt,
			timeEstimated,
			origin: payload.origin,
			placeholder,
		});
	}

	private finish(session: Session, reason: CallCloseReason): void {
		const chat = session.chat;
		if (chat.state === "closed") return;
		const wasOpen = chat.state === "open";
		chat.state = "closed";
		session.timer += 1;
		this.byChatId.delete(chat.chatId);
		const list = this.byUser.get(session.userId);
		if (list !== undefined) {
			const index = list.indexOf(session);
			if (index >= 0) list.remove(index);
			if (list.size() === 0) this.byUser.delete(session.userId);
		}
		if (wasOpen && reason !== "left") {
			this.send(chat.player, "closed", { chatId: chat.chatId, reason } satisfies ChatClosedPayload);
		}
		this.closed.Fire(chat, reason);
	}

	private schedule(session: Session, seconds: number): void {
		session.timer += 1;
		const token = session.timer;
		this.scheduler.delay(seconds, () => {
			if (session.timer === token && session.chat.state !== "closed") this.poll(session);
		});
	}

	private jittered(seconds: number): number {
		return seconds * (1 + this.jitter * (2 * this.random() - 1));
	}

	/** The shortest wait that keeps every open chat together within `budgetShare` of the budget. */
	private minInterval(): number {
		const [ok, perMinute] = pcall(() => this.client.getBudget().getPerMinute());
		if (!ok || !typeIs(perMinute, "number") || perMinute <= 0) return 0;
		return (60 * this.byChatId.size()) / (perMinute * this.budgetShare);
	}

	private send(player: Player, kind: "opened" | "message" | "closed", payload: object): void {
		// FireClient can throw for a player who is leaving; the chat closes through PlayerRemoving anyway.
		pcall(() => this.remote.FireClient(player, kind, payload));
	}

	private onClientEvent(player: Player, args: Array<unknown>): void {
		if (this.destroyed) return;
		this.clientEvents += 1;
		const request =
			typeIs(player, "Instance") && player.IsA("Player") && this.limiter.allow(player.UserId)
				? readClientRequest(args)
				: undefined;
		if (request === undefined) {
			this.clientEventsDropped += 1;
			return;
		}
		if (request.kind === "ready") {
			if (!this.replayLimiter.allow(player.UserId)) {
				this.clientEventsDropped += 1;
				return;
			}
			for (const session of this.byUser.get(player.UserId) ?? []) {
				const chat = session.chat;
				if (chat.state !== "open") continue;
				this.send(player, "opened", { chatId: chat.chatId, title: chat.title } satisfies ChatOpenedPayload);
				for (const payload of session.log) this.send(player, "message", payload);
			}
			return;
		}
		const session = this.byChatId.get(request.chatId);
		if (session !== undefined && session.userId === player.UserId) {
			this.finish(session, "dismissed");
		} else {
			this.clientEventsDropped += 1;
		}
	}

	private onPlayerRemoving(player: Player): void {
		const userId = player.UserId;
		this.limiter.forget(userId);
		this.replayLimiter.forget(userId);
		for (const session of [...(this.byUser.get(userId) ?? [])]) this.finish(session, "left");
	}
}
