import { t } from "@rbxts/t";

/**
 * The `CallEvents` remote's messages, shared by the server bridge and the client chat module. Pure data and
 * checks, no services. A wire contract of both sides of the game, so it lives in `shared/`, below both; the client
 * part of the drop-in model (`lib/client` and `lib/shared`) carries it.
 *
 * Server → client: `FireClient(player, kind, payload)`:
 * - `("opened", { chatId, title })`
 * - `("message", { chatId, seq, sender, text, sentAt, origin })`
 * - `("closed", { chatId, reason })`
 *
 * Client → server: `FireServer("ready")` (replay my open chats) or `FireServer("dismiss", chatId)` (I closed the
 * window). Anything else is dropped.
 *
 * @see README#support-calls
 */

/** The support calls' chat remote (messages above). @internal */
export const CALL_EVENTS_REMOTE = "CallEvents";

/**
 * Why a chat closed:
 * - `ended`: the call's status is no longer `open`;
 * - `not-found`: the service does not know the call (404);
 * - `left`: the player left the server;
 * - `closed`: game code closed it ({@link CallBridge.close} or {@link CallChat.close});
 * - `dismissed`: the player closed the chat window;
 * - `error`: the service refused for good (e.g. 400);
 * - `destroyed`: the bridge was destroyed.
 *
 * @see README#support-calls
 */
export type CallCloseReason = "ended" | "not-found" | "left" | "closed" | "dismissed" | "error" | "destroyed";

/** `opened`: a chat window should appear. @see README#support-calls */
export interface ChatOpenedPayload {
	/** An opaque id made by the server for this chat; never the service's call id. */
	readonly chatId: string;
	/** The window title game code chose (default `Support`). */
	readonly title: string;
}

/** `message`: one agent message, already filtered for this player. @see README#support-calls */
export interface ChatMessagePayload {
	readonly chatId: string;
	/** 1, 2, 3, ... within the chat: the delivery order; a client ignores a `seq` it has already seen. */
	readonly seq: number;
	/** Who wrote it (filtered), `Support` when the service named no one. */
	readonly sender: string;
	/** The filtered text, or {@link MESSAGE_UNAVAILABLE} when filtering kept failing. */
	readonly text: string;
	/** When it was written, in Unix seconds (the service's `created`, else when the server received it). */
	readonly sentAt: number;
	/** `agent` when the service says so, else `other`. */
	readonly origin: "agent" | "other";
}

/** `closed`: the chat is over; the window closes. @see README#support-calls */
export interface ChatClosedPayload {
	readonly chatId: string;
	readonly reason: CallCloseReason;
}

/**
 * The text shown instead of a message that could not be filtered (TextService kept failing): unfiltered text
 * never reaches a player.
 */
export const MESSAGE_UNAVAILABLE = "[message could not be shown]";

/** The sender shown when the service names no one, or when the name could not be filtered. */
export const DEFAULT_SENDER = "Support";

/** The window title when game code gives none. */
export const DEFAULT_TITLE = "Support";

/** Longest chat id, sender, text and title (in bytes) a payload may carry. @internal */
export const LIMITS = { chatId: 64, sender: 200, text: 4000, title: 400 } as const;

const CLOSE_REASONS = new Set<string>(["ended", "not-found", "left", "closed", "dismissed", "error", "destroyed"]);

const boundedString =
	(max: number) =>
	(value: unknown): value is string =>
		typeIs(value, "string") && value.size() <= max;
const finite = (value: unknown): value is number =>
	typeIs(value, "number") && value === value && math.abs(value) < math.huge;
const isSeq = (value: unknown): value is number => finite(value) && value >= 1 && value % 1 === 0;
const isCloseReason = (value: unknown): value is CallCloseReason => typeIs(value, "string") && CLOSE_REASONS.has(value);

/** @internal */
export const isChatId = (value: unknown): value is string =>
	typeIs(value, "string") && value.size() > 0 && value.size() <= LIMITS.chatId;

/** @internal */
export const isOpenedPayload = t.strictInterface({
	chatId: isChatId,
	title: boundedString(LIMITS.title),
}) as unknown as t.check<ChatOpenedPayload>;

/** @internal */
export const isMessagePayload = t.strictInterface({
	chatId: isChatId,
	seq: isSeq,
	sender: boundedString(LIMITS.sender),
	text: boundedString(LIMITS.text),
	sentAt: finite,
	origin: t.literal("agent", "other"),
}) as unknown as t.check<ChatMessagePayload>;

/** @internal */
export const isClosedPayload = t.strictInterface({
	chatId: isChatId,
	reason: isCloseReason,
}) as unknown as t.check<ChatClosedPayload>;

/** A request from a client, after checking. @internal */
export type ClientRequest = { readonly kind: "ready" } | { readonly kind: "dismiss"; readonly chatId: string };

/**
 * Reads what a client fired: exactly `("ready")` or `("dismiss", chatId)`; undefined for anything else (wrong
 * types, extra arguments, oversized strings).
 * @internal
 */
export function readClientRequest(args: ReadonlyArray<unknown>): ClientRequest | undefined {
	const kind = args[0];
	if (kind === "ready" && args.size() === 1) return { kind: "ready" };
	if (kind === "dismiss" && args.size() === 2 && isChatId(args[1])) return { kind: "dismiss", chatId: args[1] };
	return undefined;
}
