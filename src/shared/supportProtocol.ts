/**
 * The `SupportRequests` remote's messages (support calls a player starts), shared by the server's support desk and
 * the client's call entry. Pure data and checks, no services.
 *
 * Client → server (`FireServer`):
 * - `("hello")`: tell me whether I can call staff (answered with `state`);
 * - `("call", { type, reason, reporting? })`: start a support call or report a player (`reporting`: a UserId);
 * - `("say", chatId, text)`: write in my call; `("end", chatId)`: end my call.
 *
 * Server → client (`FireClient`):
 * - `("state", { available, canChat, presets })`: whether the entry is shown, whether free text is allowed;
 * - `("result", { ok, text })`: what became of a `call` request, in words for the player;
 * - `("chat", { chatId, writable })`: a chat of `CallEvents` is a call the player can write in and end.
 *
 * @see README#support-calls
 */

/** The remote of support calls a player starts (messages above). @internal */
export const SUPPORT_REQUESTS_REMOTE = "SupportRequests";

/** Longest message a player writes, in characters (as Roblox chat). */
export const MAX_PLAYER_TEXT = 200;

/** Reasons a player picks from; the only ones for a player whose chat settings forbid free text. */
export const PRESET_REASONS = {
	support: ["I need help with the game", "I found a bug", "I have a question for staff", "Something else"],
	report: ["Harassment or bullying", "Cheating or exploiting", "Inappropriate behaviour", "Scamming"],
} as const;

/** What kind of call a player starts. */
export type SupportCallType = "support" | "report";

/** `state`: what the player's call entry shows. */
export interface SupportStatePayload {
	/** Calls may be placed (from the built-in form, a game's own UI through `SupportClient`, or game code). */
	readonly available: boolean;
	/**
	 * The built-in "Call staff" entry is shown: calls are available and the workspace's `moderation` is on, as the
	 * official module's menu. Absent from an older server: `available`.
	 */
	readonly offered?: boolean;
	/** False when the player's chat settings forbid chat: preset reasons only, no writing in a call. */
	readonly canChat: boolean;
	readonly presets: { readonly support: ReadonlyArray<string>; readonly report: ReadonlyArray<string> };
}

/** `result`: what became of the player's `call` request. */
export interface SupportResultPayload {
	readonly ok: boolean;
	readonly text: string;
}

/** `chat`: a chat the player can write in and end. */
export interface SupportChatPayload {
	readonly chatId: string;
	readonly writable: boolean;
}

/**
 * A `call` request after checking; what `StaffOps.requestCall` takes (and the Luau `CallRequest`).
 * @see docs/support-calls.md#calls-a-player-starts
 */
export interface CallRequest {
	readonly type: SupportCallType;
	readonly reason: string;
	readonly reporting?: number;
}

/** A client request after checking. @internal */
export type SupportRequest =
	| { readonly kind: "hello" }
	| { readonly kind: "call"; readonly request: CallRequest }
	| { readonly kind: "say"; readonly chatId: string; readonly text: string }
	| { readonly kind: "end"; readonly chatId: string };

const MAX_RAW = 1000;
const MAX_CHAT_ID = 64;

const isChatId = (value: unknown): value is string =>
	typeIs(value, "string") && value.size() > 0 && value.size() <= MAX_CHAT_ID;

/**
 * Cleans a player's text: control characters removed, spaces trimmed, cut to `max` characters (without splitting a
 * UTF-8 sequence). Undefined when nothing is left or it is not valid UTF-8.
 * @internal
 */
export function cleanText(text: string, max = MAX_PLAYER_TEXT): string | undefined {
	if (utf8.len(text)[0] === undefined) return undefined;
	const [stripped] = text.gsub("%c", "");
	const [trimmed] = stripped.gsub("^%s+", "");
	const [cleaned] = trimmed.gsub("%s+$", "");
	if (cleaned.size() === 0) return undefined;
	const cut = utf8.offset(cleaned, max + 1);
	return cut !== undefined && cut <= cleaned.size() ? cleaned.sub(1, cut - 1) : cleaned;
}

/**
 * Reads what a client fired on `SupportRequests`; undefined for anything malformed (wrong types, extra
 * arguments or fields, oversized strings, NaN).
 * @internal
 */
export function readSupportRequest(args: ReadonlyArray<unknown>): SupportRequest | undefined {
	const kind = args[0];
	if (kind === "hello" && args.size() === 1) return { kind: "hello" };
	if (kind === "say" && args.size() === 3 && isChatId(args[1]) && typeIs(args[2], "string")) {
		if (args[2].size() > MAX_RAW) return undefined;
		return { kind: "say", chatId: args[1], text: args[2] };
	}
	if (kind === "end" && args.size() === 2 && isChatId(args[1])) return { kind: "end", chatId: args[1] };
	if (kind !== "call" || args.size() !== 2 || !typeIs(args[1], "table")) return undefined;
	const body = args[1] as Record<string, unknown>;
	for (const [key] of pairs(body)) {
		if (key !== "type" && key !== "reason" && key !== "reporting") return undefined;
	}
	const callType = body.type;
	const reason = body.reason;
	const reporting = body.reporting;
	if (callType !== "support" && callType !== "report") return undefined;
	if (!typeIs(reason, "string") || reason.size() > MAX_RAW) return undefined;
	if (reporting !== undefined) {
		if (!typeIs(reporting, "number") || reporting !== reporting || reporting <= 0 || reporting % 1 !== 0) {
			return undefined;
		}
	}
	if (callType === "report" && reporting === undefined) return undefined;
	const reported = callType === "report" ? (reporting as number) : undefined;
	return { kind: "call", request: { type: callType, reason, reporting: reported } };
}
