import type { CallOptions } from "../api/callOptions";
import type { CallMessagesAnswer } from "../api/resources/calls";
import type { RequestBudget } from "../transport/budget";
import type { Scheduler } from "../transport/scheduler";
import type { TextFilter } from "../roblox/textFilter";

/**
 * The part of {@link StaffOpsApiClient} the bridge uses: `calls.getMessages` and the budget it draws from.
 * @see README#support-calls
 */
export interface CallsApiClient {
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
 * 10, 10, ... Every such wait is jittered by ±`jitter` (10 %). A failed poll waits a random time (full jitter) of up
 * to `retryDelay` (5 s), a ceiling that doubles per further failure up to `maxRetryDelay` (60 s), and never less
 * than the service's `Retry-After`; while the service refuses the key, a chat polls about every `maxRetryDelay`.
 * All open chats together plan at most `budgetShare` (half) of the request budget: with `n` chats open no chat
 * polls more often than every `60 * n / (perMinute * budgetShare)` seconds. `jitter` may be 0.
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
 * const bridge = new CallBridge({ client: new StaffOpsApiClient({ baseUrl, apiKey }) });
 * ```
 * @see README#support-calls
 */
export interface CallBridgeOptions {
	/** The typed client (or anything with `calls.getMessages` and `getBudget()`). */
	readonly client: CallsApiClient;
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
	/**
	 * How a long piece of work gives the frame back between slices; default `task.wait()`. Specs pass one that
	 * measures.
	 * @internal
	 */
	readonly yieldSlice?: () => void;
	/**
	 * The clock a slice's length is measured on; default `os.clock`. Specs pass one that moves by a fixed cost per
	 * look, so slices are measured the same way on any machine.
	 * @internal
	 */
	readonly workClock?: () => number;
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
	/** Answers with a call status StaffOps does not know (a service may add one): the chat was left as it was. */
	readonly unknownStatuses: number;
	/** Messages delivered whose origin StaffOps does not know (a service may add one): shown as other text. */
	readonly unknownOrigins: number;
	/** Messages sent to players. */
	readonly delivered: number;
	/** Events clients fired on the remote. */
	readonly clientEvents: number;
	/** Of those, the ones dropped: over the rate limit, malformed, or about a chat that is not an open chat of the player's. */
	readonly clientEventsDropped: number;
}

/**
 * What one bridge holds in memory right now, for specs that check it stays bounded.
 * @internal
 */
export interface CallBridgeMemory {
	readonly chats: number;
	/** The largest delivered-id window of any chat. */
	readonly deliveredIds: number;
	/** The largest sender-name cache of any chat. */
	readonly senders: number;
	/** The largest replay log of any chat. */
	readonly replay: number;
	readonly limiterKeys: number;
	readonly replayLimiterKeys: number;
}
