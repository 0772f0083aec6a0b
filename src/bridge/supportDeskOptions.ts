// What a support desk is built from, and the record it keeps of each call it knows.
import type { SupportCallsApi } from "../api/resources/supportCalls";
import type { CallMessagesAnswer } from "../api/resources/calls";
import type { Scheduler } from "../transport/scheduler";
import type { PlayersLike } from "../roblox/players";
import type { TextFilter } from "../roblox/textFilter";
import type { CallBridge } from "./callBridge";
import type { CallChat } from "./types";

/** What the desk needs of the typed client: the support routes and the transcript read. @internal */
export interface SupportDeskClient {
	readonly support: SupportCallsApi;
	readonly calls: { getMessages(callId: string): Promise<CallMessagesAnswer> };
}

/** The part of `Players` the desk uses. @see README#support-calls */
export type DeskPlayers = Pick<PlayersLike, "GetPlayers" | "GetPlayerByUserId" | "PlayerRemoving">;

/**
 * What a {@link SupportDesk} is built from. `client`, `bridge` and `runningGameId` are required.
 * @see README#support-calls
 */
export interface SupportDeskOptions {
	readonly client: SupportDeskClient;
	readonly bridge: CallBridge;
	/** The running game id of the current registration; undefined while unregistered (calls are unavailable). */
	readonly runningGameId: () => string | undefined;
	/** The sync's fast mode (every ≤3 s) while a call is open; the deployed profile's sync provides it. */
	readonly setFast?: (fast: boolean) => void;
	/** Whether `player`'s chat settings allow chat; default `TextChatService:CanUserChatAsync` (false on error). */
	readonly canChat?: (player: Player) => boolean;
	readonly filter?: TextFilter;
	readonly scheduler?: Scheduler;
	readonly remote?: RemoteEvent;
	readonly players?: DeskPlayers;
	/** Send `support/end` `userLeft` when a player leaves (only when leaves are not reported: they end calls). */
	readonly endOnLeave?: () => boolean;
	/** Whether `player` may call at all (the service tracks nothing for a `tracked: false` player); default yes. */
	readonly mayCall?: (player: Player) => boolean;
}

/**
 * A desk's counters: `support/create` sent, calls adopted after a lookup, `support/end` sent, client events dropped,
 * messages queued, and player messages not sent (`notSent`: refused when written, or given up after an unknown
 * sync; the player was told each time). @internal
 */
export interface DeskStats {
	creates: number;
	adopted: number;
	ends: number;
	dropped: number;
	said: number;
	notSent: number;
}

/** One call the desk knows: its player, its chat, and where its end stands. @internal */
export interface DeskCall {
	readonly player: Player;
	readonly callId: string;
	readonly chat: CallChat;
	/** The server the call was opened under: a leave ends the player's calls on the server it names only. */
	readonly runningGameId?: string;
	ending: boolean;
	/** The player's own words waiting to be echoed to them, in the order written (filtering yields). */
	readonly echoes: Array<string>;
	echoing: boolean;
}

/** What the desk tells a player about their call, in the player's words. @internal */
export const WORDS = {
	unavailable: "Calling staff is not available right now.",
	busy: "Your call is being placed. Please wait.",
	cooldown: "Please wait a little before calling staff again.",
	alreadyOpen: "You already have a call open.",
	presetsOnly: "Please pick one of the listed reasons.",
	noReason: "Please say what you need help with.",
	notHere: "That player is not in this server.",
	self: "You cannot report yourself.",
	unreachable: "Staff could not be reached. Please try again in a moment.",
	unsure: "We could not confirm your call. Please try again in a moment.",
	refused: "Your call could not be placed.",
	placed: "Your call was sent. A staff member will answer here.",
	tooFast: "Your last message was not sent: please write a little slower.",
	queueFull: "Your last message was not sent: please wait a moment before writing again.",
	lost: "Some of your messages may not have reached staff. Please write them again.",
} as const;
