import { readTickets, SupportTicket } from "../api/resources/supportCalls";
import { CALL_STATUSES, CallMessage, MessageOrigin } from "../api/resources/calls";
import { RateLimiter } from "../shared/rateLimiter";
import { ensureRemote } from "../shared/remotes";
import {
	CallRequest,
	PRESET_REASONS,
	readSupportRequest,
	SupportChatPayload,
	SupportResultPayload,
	SupportStatePayload,
	SUPPORT_REQUESTS_REMOTE,
} from "../shared/supportProtocol";
import { robloxScheduler, Scheduler } from "../transport/scheduler";
import type { PlayerMessageOutbox } from "./chatOutbox";
import { CallPlacement } from "./callPlacement";
import { DeskCalls } from "./deskCalls";
import { PlayerMessages } from "./playerMessages";
import { canUserChat } from "../roblox/chatPermission";
import { robloxPlayers } from "../roblox/players";
import { filterWithin, robloxTextFilter, TextFilter } from "../roblox/textFilter";
import type { DeskCall, DeskPlayers, DeskStats, SupportDeskOptions } from "./supportDeskOptions";
import type { CallChat } from "./types";

export { CALL_COOLDOWN } from "./callPlacement";
export type { DeskPlayers, SupportDeskClient, SupportDeskOptions } from "./supportDeskOptions";

const CALL_TITLE = "Staff call";

const defaultCanChat = (player: Player): boolean => {
	const [ok, allowed] = pcall(canUserChat, player);
	return ok && allowed === true;
};

/**
 * Support calls a player starts, against the deployed service (docs/service-contract.md#opening-a-support-call): a player calls staff or
 * reports a player (`support/create`, sent once; after an unknown outcome the open call is looked up and adopted,
 * never created twice), writes back (each message an id, sent once through the sync's {@link ChatOutbox}), reads
 * agents' messages (from the sync's `ongoingChats`, or by polling while the sync is off), and ends the call
 * (`support/end`). A staff-started chat (a `claimed` ticket the player did not open) opens the player's window by
 * itself. Everything a client sends is checked and rate-limited; a client names a call only by its own chat's id.
 * The desk is the remote's door; placing a call (`callPlacement.ts`), the player's messages (`playerMessages.ts`)
 * and the calls it knows and their ends (`deskCalls.ts`) are beside it.
 *
 * @example
 * ```ts
 * const desk = new SupportDesk({ client, bridge, runningGameId: () => server.getRunningGameId() });
 * desk.setAvailable(true);
 * ```
 * @see README#support-calls
 */
export class SupportDesk {
	/** The player messages for the sync's `chatEvents`: the `ChatOutbox` hook. */
	readonly outbox: PlayerMessageOutbox;
	/**
	 * Counters: `support/create` sent, calls adopted after a lookup, `support/end` sent, client events dropped,
	 * messages queued, and player messages not sent (`notSent`: refused when written, or given up after an unknown
	 * sync; the player was told each time).
	 */
	readonly stats: DeskStats = { creates: 0, adopted: 0, ends: 0, dropped: 0, said: 0, notSent: 0 };

	private readonly calls: DeskCalls;
	private readonly placement: CallPlacement;
	private readonly messages: PlayerMessages;
	private readonly canChatCache = new Map<number, boolean>();
	private readonly eventLimiter: RateLimiter;
	private readonly remote: RemoteEvent;
	private readonly filter: TextFilter;
	private readonly scheduler: Scheduler;
	private readonly connections = new Array<{ Disconnect(): void }>();
	private available = false;
	private offered = false;
	private fedBySync = false;

	constructor(private readonly options: SupportDeskOptions) {
		const scheduler = (this.scheduler = options.scheduler ?? robloxScheduler);
		this.eventLimiter = new RateLimiter(4, 10, () => scheduler.now());
		this.remote = options.remote ?? ensureRemote(SUPPORT_REQUESTS_REMOTE);
		this.filter = options.filter ?? robloxTextFilter;
		const players = () => this.players();
		const canChat = (player: Player) => this.canChat(player);
		const calls = (this.calls = new DeskCalls(options, this.stats, players));
		this.placement = new CallPlacement(
			options,
			calls,
			this.stats,
			{
				available: () => this.available,
				canChat,
				players,
				adopt: (ticket, player) => this.adoptTicket(ticket, player),
				shown: (player, text, fallback) => this.shown(player, text, fallback),
			},
			scheduler,
		);
		this.messages = new PlayerMessages(options, calls, this.stats, canChat, this.filter, scheduler);
		this.outbox = this.messages.outbox;
		this.connections.push(
			this.remote.OnServerEvent.Connect((player, ...args) => this.onEvent(player, args)),
			this.players().PlayerRemoving.Connect((player) => this.onLeave(player)),
			options.bridge.closed.Connect((chat, reason) => calls.onChatClosed(chat, reason)),
		);
	}

	/**
	 * Turns calling staff on or off (the deployed profile, and the game's own settings), and whether the built-in "Call
	 * staff" entry is offered to players (the workspace's `moderation`, as the official module's menu).
	 */
	setAvailable(available: boolean, offered = available): void {
		if (this.available === available && this.offered === offered) return;
		this.available = available;
		this.offered = offered;
		for (const player of this.players().GetPlayers()) this.sendState(player);
	}

	/**
	 * The sync's answer `ongoingChats` (the `onOngoingChats` hook): feeds each call's transcript to its chat, opens a
	 * chat for a live call of a player in the server that this desk does not know (a staff-started chat, or a call
	 * whose create answer was lost), and from now on lets the sync, not polls, bring transcripts.
	 */
	handleOngoingChats(chats: ReadonlyArray<unknown>): void {
		this.setFedBySync(true);
		const seen = new Set<string>();
		for (const ticket of readTickets(chats)) {
			seen.add(ticket._id);
			let call = this.calls.calls.get(ticket._id);
			// A ticket in a status StaffOps does not know is never adopted; a known call's chat leaves it alone (the poller).
			const live = CALL_STATUSES.is(ticket.status) && CALL_STATUSES.of[ticket.status].goesOn;
			if (call === undefined && live && !this.calls.ended.has(ticket._id)) {
				call = this.adoptTicket(ticket);
				// Nobody here can take part in it: its caller left before the service knew (or the server closes).
				if (call === undefined) this.calls.endIfOrphaned(ticket);
			}
			if (call === undefined) continue;
			// Back in the list after an answer that lost it (a cut answer): the sync feeds it again, no more polls.
			this.options.bridge.setFed(call.chat, true);
			this.options.bridge.feed(call.chat, ticket.status ?? "open", ticket.messages);
		}
		// A call missing from the list lost its closure (a lost answer): its transcript poll finds out.
		for (const [callId, call] of this.calls.calls) {
			if (!seen.has(callId)) this.options.bridge.setFed(call.chat, false);
		}
	}

	/** The sync stopped (or never ran): chats poll their transcripts again. */
	setFedBySync(fed: boolean): void {
		if (this.fedBySync === fed) return;
		this.fedBySync = fed;
		for (const [, call] of this.calls.calls) this.options.bridge.setFed(call.chat, fed);
	}

	/**
	 * Starts a support call or a report for `player` from game code (the same checks as the player's own request).
	 * Resolves with the chat, or rejects with the words shown to the player.
	 */
	request(player: Player, request: CallRequest): Promise<CallChat> {
		return new Promise((resolve, reject) => {
			const problem = this.placement.place(player, request, (ok, text, chat) => {
				if (ok && chat !== undefined) resolve(chat);
				else reject(text);
			});
			if (problem !== undefined) reject(problem);
		});
	}

	/**
	 * Ends every open call (`serverClosed`); call before `endServer` at shutdown (its end leaves calls open for ever).
	 * A call whose create is still in flight is ended as soon as its answer comes. Resolves when all are answered.
	 */
	endAllCalls(): Promise<void> {
		return this.calls.endAllCalls();
	}

	/** The open calls this desk knows. */
	getCallCount(): number {
		return this.calls.calls.size();
	}

	/** Whether the shutdown has calls to end: open ones, ones being created, or ends still on the way. */
	hasCallsToEnd(): boolean {
		return this.calls.hasCallsToEnd();
	}

	/** Stops listening; open calls stay open on the service. */
	destroy(): void {
		for (const connection of this.connections) connection.Disconnect();
		this.connections.clear();
	}

	private onEvent(player: Player, args: Array<unknown>): void {
		const present = typeIs(player, "Instance") && player.IsA("Player") && player.Parent !== undefined;
		const request = present && this.eventLimiter.allow(player.UserId) ? readSupportRequest(args) : undefined;
		if (request === undefined) {
			this.stats.dropped += 1;
			return;
		}
		if (request.kind === "hello") this.sendState(player);
		else if (request.kind === "call") {
			const problem = this.placement.place(player, request.request, (ok, text) => this.tell(player, ok, text));
			if (problem !== undefined) this.tell(player, false, problem);
		} else if (request.kind === "say") this.messages.say(player, request.chatId, request.text);
		else {
			const call = this.calls.byChatId.get(request.chatId);
			if (call === undefined || call.player !== player) this.stats.dropped += 1;
			else this.calls.endCall(call, "closedByUser");
		}
	}

	/** Opens a chat for a ticket; the player is the caller (when in the server). Undefined when no chat can open. */
	private adoptTicket(ticket: SupportTicket, knownPlayer?: Player): DeskCall | undefined {
		const existing = this.calls.calls.get(ticket._id);
		if (existing !== undefined) return existing;
		// Answered while the server closes, after its calls were ended: not opened (the caller ends it).
		if (this.calls.closing) return undefined;
		const callerId = tonumber(ticket.callerId);
		const player = knownPlayer ?? (callerId !== undefined ? this.players().GetPlayerByUserId(callerId) : undefined);
		if (player === undefined || player.Parent === undefined || this.calls.byUser.has(player.UserId))
			return undefined;
		const chat = this.options.bridge.attach(player, ticket._id, {
			title: CALL_TITLE,
			fed: this.fedBySync,
			// The player's own words are echoed when they write them; their copies in the transcript are not shown.
			hide: (message: CallMessage) => message.origin === ("user" satisfies MessageOrigin),
		});
		if (chat.getState() === "closed") return undefined;
		const runningGameId = ticket.runningGameId ?? this.options.runningGameId();
		const call: DeskCall = {
			player,
			callId: ticket._id,
			chat,
			runningGameId,
			ending: false,
			echoes: [],
			echoing: false,
		};
		this.calls.add(call);
		this.remote.FireClient(player, "chat", {
			chatId: chat.chatId,
			writable: this.canChat(player),
		} satisfies SupportChatPayload);
		if (ticket.messages.size() > 0 || ticket.status !== undefined) {
			this.options.bridge.feed(chat, ticket.status ?? "open", ticket.messages);
		}
		this.calls.updateFast();
		return call;
	}

	private onLeave(player: Player): void {
		this.eventLimiter.forget(player.UserId);
		this.messages.forget(player.UserId);
		this.placement.forget(player.UserId);
		this.canChatCache.delete(player.UserId);
	}

	private canChat(player: Player): boolean {
		let allowed = this.canChatCache.get(player.UserId);
		if (allowed === undefined) {
			allowed = (this.options.canChat ?? defaultCanChat)(player);
			if (player.Parent !== undefined) this.canChatCache.set(player.UserId, allowed);
		}
		return allowed;
	}

	private sendState(player: Player): void {
		const available =
			this.available && this.options.runningGameId() !== undefined && this.options.mayCall?.(player) !== false;
		const state: SupportStatePayload = {
			available,
			offered: available && this.offered,
			canChat: this.canChat(player),
			presets: PRESET_REASONS,
		};
		pcall(() => this.remote.FireClient(player, "state", state));
	}

	private tell(player: Player, ok: boolean, text: string): void {
		pcall(() => this.remote.FireClient(player, "result", { ok, text } satisfies SupportResultPayload));
	}

	/** Service words for the player, filtered for them; `fallback` when filtering fails. */
	private shown(player: Player, text: string, fallback: string): string {
		if (text === "") return fallback;
		return filterWithin(this.filter, text.sub(1, 200), player, this.scheduler) ?? fallback;
	}

	private players(): DeskPlayers {
		return this.options.players ?? robloxPlayers;
	}
}
