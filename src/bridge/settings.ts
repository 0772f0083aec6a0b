import type { PollingOptions } from "./types";

/** Messages shown when a chat opens on a call that already has a transcript: the newest ones. @internal */
export const MAX_BACKLOG = 50;
/**
 * Messages delivered to one chat per poll at most; the rest wait for the next poll (2 s later, as after any poll
 * that brought messages). Bounds the filter calls and remote traffic a poll can cause, whatever the transcript.
 * @internal
 */
export const MAX_PER_POLL = 20;
/**
 * Message ids a chat remembers as delivered (or skipped). Ids before the last delivered position need no memory
 * while the transcript keeps its ids; the window only catches a transcript that moved.
 * @internal
 */
export const DELIVERED_WINDOW = 500;
/** Sender names a chat remembers filtered, so a name is filtered once per chat, not once per message. @internal */
export const SENDER_CACHE = 50;
/** Messages a player's client can ask to be replayed per chat (the newest). @internal */
export const MAX_REPLAY = 100;
/**
 * Polls a chat may still make after its call ended to deliver what the cap or a failed filter held back; past it
 * the chat closes (a transcript that keeps changing would otherwise keep a closed call polled).
 * @internal
 */
export const ENDING_POLLS = 5;

/** Polling options with defaults and bounds applied. @internal */
export interface PollingSettings {
	readonly busyInterval: number;
	readonly quietInterval: number;
	readonly growth: number;
	readonly jitter: number;
	readonly retryDelay: number;
	readonly maxRetryDelay: number;
	readonly budgetShare: number;
	readonly filterAttempts: number;
}

function positive(value: number | undefined, fallback: number): number {
	return value !== undefined && typeIs(value, "number") && value === value && value > 0 && value < math.huge
		? value
		: fallback;
}

/** Reads game code's polling options; anything that is not a positive finite number takes its default. @internal */
export function pollingSettings(polling: PollingOptions = {}): PollingSettings {
	const busyInterval = positive(polling.busyInterval, 2);
	const retryDelay = positive(polling.retryDelay, 5);
	return {
		busyInterval,
		quietInterval: math.max(positive(polling.quietInterval, 10), busyInterval),
		growth: math.max(positive(polling.growth, 1.5), 1),
		jitter: polling.jitter === 0 ? 0 : math.min(positive(polling.jitter, 0.1), 0.5),
		retryDelay,
		maxRetryDelay: math.max(positive(polling.maxRetryDelay, 60), retryDelay),
		budgetShare: math.min(positive(polling.budgetShare, 0.5), 1),
		filterAttempts: math.max(math.floor(positive(polling.filterAttempts, 3)), 1),
	};
}
