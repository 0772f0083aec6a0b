import { HttpService } from "@rbxts/services";
import { meaningOf } from "../api/failurePolicy";
import { readTickets, SupportCallsApi, SupportEndReason, SupportTicket } from "../api/resources/supportCalls";
import type { CallMessage, CallMessagesAnswer } from "../api/resources/calls";
import { logWarn } from "../background/log";
import { RateLimiter } from "../shared/rateLimiter";
import { ensureRemote } from "../shared/remotes";
import { MESSAGE_UNAVAILABLE } from "../shared/chatProtocol";
import {
	CallRequest,
	cleanText,
	PRESET_REASONS,
	readSupportRequest,
	SupportChatPayload,
	SupportResultPayload,
	SupportStatePayload,
	SUPPORT_REQUESTS_REMOTE,
} from "../shared/supportProtocol";
import { StaffOpsError } from "../transport/staffOpsError";
import { robloxScheduler, Scheduler } from "../transport/scheduler";
import type { CallBridge } from "./callBridge";
import { PlayerMessageOutbox } from "./chatOutbox";
import { BoundedMap } from "./boundedMap";
import { canUserChat } from "../roblox/chatPermission";
import { PlayersLike, robloxPlayers } from "../roblox/players";
import { filterWithin, robloxTextFilter, TextFilter } from "../roblox/textFilter";
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

/** Seconds between two calls a player starts. @internal */
export const CALL_COOLDOWN = 30;
const CALL_TITLE = "Staff call";
const ENDED_MEMORY = 200;

const WORDS = {
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
/** Who the player's notices in their chat come from. */
const NOTICE_SENDER = "Notice";
/** Seconds between two notices to one player about messages not sent. */
const NOTICE_SECONDS = 10;

interface DeskCall {
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
	readonly stats = { creates: 0, adopted: 0, ends: 0, dropped: 0, said: 0, notSent: 0 };

	private readonly calls = new Map<string, DeskCall>();
	private readonly byChatId = new Map<string, DeskCall>();
	private readonly byUser = new Map<number, DeskCall>();
	private readonly placing = new Set<number>();
	/** Creates whose answer has not come yet: the shutdown waits for them, to end what they open. */
	private readonly creating = new Set<Promise<unknown>>();
	/** Ends of calls nobody in the server can take part in any more (their caller left, or the server closes). */
	private readonly orphanEnds = new Set<Promise<unknown>>();
	/** Set by {@link endAllCalls}: every call that opens from now on is ended at once (`serverClosed`). */
	private closing = false;
	private readonly ended = new BoundedMap<string, true>(ENDED_MEMORY);
	private readonly canChatCache = new Map<number, boolean>();
	private readonly eventLimiter: RateLimiter;
	private readonly sayLimiter: RateLimiter;
	private readonly callLimiter: RateLimiter;
	private readonly noticeLimiter: RateLimiter;
	/** Kinds of dropped player messages already warned about (each is said once). */
	private readonly warnedDrops = new Set<string>();
	private readonly remote: RemoteEvent;
	private readonly filter: TextFilter;
	private readonly scheduler: Scheduler;
	private readonly connections = new Array<{ Disconnect(): void }>();
	private available = false;
	private fedBySync = false;
	private fast = false;

	constructor(private readonly options: SupportDeskOptions) {
		const scheduler = (this.scheduler = options.scheduler ?? robloxScheduler);
		const now = () => scheduler.now();
		this.eventLimiter = new RateLimiter(4, 10, now);
		this.sayLimiter = new RateLimiter(1, 5, now);
		this.callLimiter = new RateLimiter(1 / CALL_COOLDOWN, 1, now);
		this.remote = options.remote ?? ensureRemote(SUPPORT_REQUESTS_REMOTE);
		this.filter = options.filter ?? robloxTextFilter;
		this.noticeLimiter = new RateLimiter(1 / NOTICE_SECONDS, 1, now);
		this.outbox = new PlayerMessageOutbox({
			scheduler,
			readIds: (ticketId) => options.client.calls.getMessages(ticketId).andThen((answer) => answer.messages),
			lost: (events) => this.onLost(events),
		});
		const players = options.players ?? robloxPlayers;
		this.connections.push(
			this.remote.OnServerEvent.Connect((player, ...args) => this.onEvent(player, args)),
			players.PlayerRemoving.Connect((player) => this.onLeave(player)),
			options.bridge.closed.Connect((chat, reason) => this.onChatClosed(chat, reason)),
		);
	}

	/** Turns calling staff on or off (the deployed profile with `moderation` on, and the game's own setting). */
	setAvailable(available: boolean): void {
		if (this.available === available) return;
		this.available = available;
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
			let call = this.calls.get(ticket._id);
			const live = ticket.status === "open" || ticket.status === "claimed";
			if (call === undefined && live && !this.ended.has(ticket._id)) {
				call = this.adoptTicket(ticket);
				// Nobody here can take part in it: its caller left before the service knew (or the server closes).
				if (call === undefined) this.endIfOrphaned(ticket);
			}
			if (call === undefined) continue;
			// Back in the list after an answer that lost it (a cut answer): the sync feeds it again, no more polls.
			this.options.bridge.setFed(call.chat, true);
			this.options.bridge.feed(call.chat, ticket.status ?? "open", ticket.messages);
		}
		// A call missing from the list lost its closure (a lost answer): its transcript poll finds out.
		for (const [callId, call] of this.calls) if (!seen.has(callId)) this.options.bridge.setFed(call.chat, false);
	}

	/** The sync stopped (or never ran): chats poll their transcripts again. */
	setFedBySync(fed: boolean): void {
		if (this.fedBySync === fed) return;
		this.fedBySync = fed;
		for (const [, call] of this.calls) this.options.bridge.setFed(call.chat, fed);
	}

	/**
	 * Starts a support call or a report for `player` from game code (the same checks as the player's own request).
	 * Resolves with the chat, or rejects with the words shown to the player.
	 */
	request(player: Player, request: CallRequest): Promise<CallChat> {
		return new Promise((resolve, reject) => {
			const problem = this.place(player, request, (ok, text, chat) => {
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
		this.closing = true;
		const ends = new Array<Promise<unknown>>();
		for (const [, call] of this.calls) ends.push(this.endCall(call, "serverClosed"));
		// A create answered from now on ends its call (`adopted`); wait for those answers and the ends they send.
		for (const create of this.creating) ends.push(create.finally(() => this.settleOrphanEnds()));
		ends.push(this.settleOrphanEnds());
		return Promise.allSettled(ends).andThen(() => undefined);
	}

	/** The open calls this desk knows. */
	getCallCount(): number {
		return this.calls.size();
	}

	/** Whether the shutdown has calls to end: open ones, ones being created, or ends still on the way. */
	hasCallsToEnd(): boolean {
		return this.calls.size() > 0 || this.creating.size() > 0 || this.orphanEnds.size() > 0;
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
			const problem = this.place(player, request.request, (ok, text) => this.tell(player, ok, text));
			if (problem !== undefined) this.tell(player, false, problem);
		} else if (request.kind === "say") this.say(player, request.chatId, request.text);
		else {
			const call = this.byChatId.get(request.chatId);
			if (call === undefined || call.player !== player) this.stats.dropped += 1;
			else this.endCall(call, "closedByUser");
		}
	}

	/** Checks a request and sends `support/create`; returns the words of a refusal, or undefined when sent. */
	private place(
		player: Player,
		request: CallRequest,
		done: (ok: boolean, text: string, chat?: CallChat) => void,
	): string | undefined {
		const runningGameId = this.options.runningGameId();
		if (!this.available || runningGameId === undefined || player.Parent === undefined) return WORDS.unavailable;
		if (this.options.mayCall?.(player) === false) return WORDS.unavailable;
		if (this.byUser.has(player.UserId)) return WORDS.alreadyOpen;
		if (this.placing.has(player.UserId)) return WORDS.busy;
		if (request.type !== "support" && request.type !== "report") return WORDS.refused;
		const reason = typeIs(request.reason, "string") ? cleanText(request.reason) : undefined;
		if (reason === undefined) return WORDS.noReason;
		if (!this.canChat(player) && !(PRESET_REASONS[request.type] as ReadonlyArray<string>).includes(reason)) {
			return WORDS.presetsOnly;
		}
		let reporting: string | undefined;
		if (request.type === "report") {
			if (request.reporting === player.UserId) return WORDS.self;
			const reported = typeIs(request.reporting, "number")
				? this.players().GetPlayerByUserId(request.reporting)
				: undefined;
			if (reported === undefined) return WORDS.notHere;
			reporting = reported.Name;
		}
		if (!this.callLimiter.allow(player.UserId)) return WORDS.cooldown;
		const roster = this.players()
			.GetPlayers()
			.map((other) => [other.UserId, other.Name, other.DisplayName] as [number, string, string]);
		this.placing.add(player.UserId);
		this.stats.creates += 1;
		const create = this.options.client.support
			.create({
				runningGameId,
				callType: request.type,
				callerId: player.UserId,
				reason,
				reporting,
				players: roster,
			})
			.then(
				(answer) => {
					this.placing.delete(player.UserId);
					const call = this.adoptTicket(answer.ticket, player);
					if (call === undefined) {
						// The call exists on the service; its caller left meanwhile (their leave may have reached
						// the service first), or the server is closing: end it, or it stays open for ever.
						this.endIfOrphaned(answer.ticket, player);
						done(false, WORDS.refused);
					} else done(true, WORDS.placed, call.chat);
				},
				(err: unknown) => this.afterCreateFailure(player, err, done),
			);
		this.track(this.creating, create);
		return undefined;
	}

	/** A create failed: look the call up before telling the player anything (it may exist), never create again. */
	private afterCreateFailure(
		player: Player,
		err: unknown,
		done: (ok: boolean, text: string, chat?: CallChat) => void,
	) {
		const meaning = meaningOf(err);
		const soft = StaffOpsError.is(err) && err.kind === "service" && err.status === 200;
		if (meaning === "transient" || (meaning !== "unknown" && meaning !== "acted" && !soft)) {
			this.placing.delete(player.UserId);
			done(false, meaning === "transient" ? WORDS.unreachable : WORDS.unavailable);
			return;
		}
		const lookUp = this.lookUp(player).then(
			(ticket) => {
				this.placing.delete(player.UserId);
				const call = ticket !== undefined ? this.adoptTicket(ticket, player) : undefined;
				if (ticket !== undefined && call === undefined) this.endIfOrphaned(ticket, player);
				if (call !== undefined) {
					this.stats.adopted += 1;
					done(true, WORDS.placed, call.chat);
				} else if (soft) {
					done(false, this.shown(player, (err as StaffOpsError).reason ?? "", WORDS.refused));
				} else {
					done(false, WORDS.unsure);
				}
			},
			() => {
				this.placing.delete(player.UserId);
				done(false, WORDS.unsure);
			},
		);
		this.track(this.creating, lookUp);
	}

	/** The player's live call on this server, from `GET /calls?status=open`, then `claimed`. */
	private lookUp(player: Player): Promise<SupportTicket | undefined> {
		const runningGameId = this.options.runningGameId();
		const mine = (ticket: SupportTicket) =>
			tostring(ticket.callerId) === tostring(player.UserId) &&
			(ticket.runningGameId === undefined || ticket.runningGameId === runningGameId);
		const support = this.options.client.support;
		return support.list("open").andThen((open) => {
			const found = open.calls.find(mine);
			if (found !== undefined) return found;
			return support.list("claimed").andThen((claimed) => claimed.calls.find(mine));
		});
	}

	/** Opens a chat for a ticket; the player is the caller (when in the server). Undefined when no chat can open. */
	private adoptTicket(ticket: SupportTicket, knownPlayer?: Player): DeskCall | undefined {
		const existing = this.calls.get(ticket._id);
		if (existing !== undefined) return existing;
		// Answered while the server closes, after its calls were ended: not opened (the caller ends it).
		if (this.closing) return undefined;
		const callerId = tonumber(ticket.callerId);
		const player = knownPlayer ?? (callerId !== undefined ? this.players().GetPlayerByUserId(callerId) : undefined);
		if (player === undefined || player.Parent === undefined || this.byUser.has(player.UserId)) return undefined;
		const chat = this.options.bridge.attach(player, ticket._id, {
			title: CALL_TITLE,
			fed: this.fedBySync,
			// The player's own words are echoed when they write them; their copies in the transcript are not shown.
			hide: (message: CallMessage) => message.origin === "user",
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
		this.calls.set(ticket._id, call);
		this.byChatId.set(chat.chatId, call);
		this.byUser.set(player.UserId, call);
		this.remote.FireClient(player, "chat", {
			chatId: chat.chatId,
			writable: this.canChat(player),
		} satisfies SupportChatPayload);
		if (ticket.messages.size() > 0 || ticket.status !== undefined) {
			this.options.bridge.feed(chat, ticket.status ?? "open", ticket.messages);
		}
		this.updateFast();
		return call;
	}

	private say(player: Player, chatId: string, raw: string): void {
		const call = this.byChatId.get(chatId);
		const text = cleanText(raw);
		if (call === undefined || call.player !== player || call.ending || text === undefined) {
			this.stats.dropped += 1;
			return;
		}
		if (!this.canChat(player)) {
			this.stats.dropped += 1;
			return;
		}
		if (!this.sayLimiter.allow(player.UserId)) {
			this.stats.dropped += 1;
			this.notSent(call, "faster than one a second", WORDS.tooFast);
			return;
		}
		const queued = this.outbox.add({
			type: "message",
			ticketId: call.callId,
			id: HttpService.GenerateGUID(false).lower(),
			userId: player.UserId,
			username: player.Name,
			message: text,
			created: os.time(),
		});
		if (!queued) {
			this.notSent(call, "more than the outbox holds for one player", WORDS.queueFull);
			return;
		}
		this.stats.said += 1;
		this.echo(call, text);
	}

	/** Echoes the player's words to them, filtered, one at a time so they show in the order they were written. */
	private echo(call: DeskCall, text: string): void {
		call.echoes.push(text);
		if (call.echoing) return;
		call.echoing = true;
		task.spawn(() => {
			while (call.echoes.size() > 0) {
				const written = call.echoes.shift()!;
				// Sent whatever the filter does: the player sees a stand-in when their words cannot be shown in time.
				const shown = filterWithin(this.filter, written, call.player, this.scheduler) ?? MESSAGE_UNAVAILABLE;
				this.options.bridge.echo(call.chat, call.player.DisplayName, shown);
			}
			call.echoing = false;
		});
	}

	/**
	 * A player message that will not reach staff: counted, the player told in their chat (at most once per
	 * {@link NOTICE_SECONDS}), and one warning per kind for the whole server.
	 */
	private notSent(call: DeskCall, kind: string, words: string, count = 1): void {
		this.stats.notSent += count;
		if (this.noticeLimiter.allow(call.player.UserId)) this.options.bridge.echo(call.chat, NOTICE_SENDER, words);
		if (this.warnedDrops.has(kind)) return;
		this.warnedDrops.add(kind);
		logWarn(`support calls: a player message was not sent (${kind}); the player was told. Others alike stay quiet`);
	}

	/** Messages given up after an unknown sync: each player who wrote them is told. */
	private onLost(events: ReadonlyArray<{ readonly ticketId: string }>): void {
		const perCall = new Map<string, number>();
		for (const event of events) perCall.set(event.ticketId, (perCall.get(event.ticketId) ?? 0) + 1);
		for (const [callId, count] of perCall) {
			const call = this.calls.get(callId);
			if (call !== undefined) this.notSent(call, "its sync's outcome stayed unknown", WORDS.lost, count);
			else this.stats.notSent += count;
		}
	}

	private endCall(call: DeskCall, reason: SupportEndReason): Promise<unknown> {
		if (call.ending) return Promise.resolve(undefined);
		call.ending = true;
		this.ended.set(call.callId, true);
		this.stats.ends += 1;
		// Between registrations, the server it was opened under: an end that is never sent leaves it open for ever.
		const runningGameId = this.options.runningGameId() ?? call.runningGameId;
		const request: Promise<unknown> =
			runningGameId !== undefined
				? this.options.client.support.end(runningGameId, call.callId, reason)
				: Promise.resolve(undefined);
		return request
			.catch((err: unknown) => {
				if (meaningOf(err) !== "refused") logWarn(`support calls: could not end a call (${meaningOf(err)})`);
			})
			.finally(() => {
				this.forget(call);
				if (reason !== "userLeft") call.chat.close();
			});
	}

	private onChatClosed(chat: CallChat, reason: string): void {
		const call = this.byChatId.get(chat.chatId);
		if (call === undefined) return;
		// The player closed the window of a live call, game code closed it, or its transcript can no longer be read:
		// nobody in the game takes part in it any more, so it ends. An agent's end (`ended`) or an unknown call
		// (`not-found`) is already over.
		if ((reason === "dismissed" || reason === "closed" || reason === "error") && !call.ending)
			this.endCall(call, "closedByUser");
		else if (
			reason === "left" &&
			!call.ending &&
			(this.options.endOnLeave?.() === true || this.openedElsewhere(call))
		)
			this.endCall(call, "userLeft");
		else if (!call.ending) {
			this.ended.set(call.callId, true);
			this.forget(call);
		}
	}

	/**
	 * The call was opened under a registration the service has since forgotten: the leave names the new server, and
	 * the service ends only that server's calls at a leave (docs/service-contract.md#ending-a-players-session), so
	 * the desk ends it itself.
	 */
	private openedElsewhere(call: DeskCall): boolean {
		const now = this.options.runningGameId();
		return call.runningGameId !== undefined && now !== undefined && call.runningGameId !== now;
	}

	/**
	 * Ends a live call this desk could not open a chat for because nobody here can take part in it: its caller is not
	 * in the server (`userLeft`), or the server is closing (`serverClosed`). A caller present with another call open
	 * keeps it (staff may have started it). Sent once per call.
	 */
	private endIfOrphaned(ticket: SupportTicket, knownPlayer?: Player): void {
		if (this.ended.has(ticket._id) || this.calls.has(ticket._id)) return;
		const callerId = tonumber(ticket.callerId);
		const player = knownPlayer ?? (callerId !== undefined ? this.players().GetPlayerByUserId(callerId) : undefined);
		const gone = player === undefined || player.Parent === undefined;
		if (!gone && !this.closing) return;
		const runningGameId = ticket.runningGameId ?? this.options.runningGameId();
		if (runningGameId === undefined) return;
		this.ended.set(ticket._id, true);
		this.stats.ends += 1;
		const ending = this.options.client.support
			.end(runningGameId, ticket._id, gone ? "userLeft" : "serverClosed")
			.catch((err: unknown) => {
				if (meaningOf(err) !== "refused") logWarn(`support calls: could not end a call (${meaningOf(err)})`);
			});
		this.track(this.orphanEnds, ending);
	}

	/** Keeps `promise` in `set` until it settles. */
	private track(set: Set<Promise<unknown>>, promise: Promise<unknown>): void {
		if (promise.getStatus() !== "Started") return;
		set.add(promise);
		promise.finally(() => set.delete(promise));
	}

	/** Resolves once every orphan end sent so far is answered. */
	private settleOrphanEnds(): Promise<unknown> {
		const ends = new Array<Promise<unknown>>();
		for (const ending of this.orphanEnds) ends.push(ending);
		return Promise.allSettled(ends);
	}

	private forget(call: DeskCall): void {
		if (this.calls.get(call.callId) !== call) return;
		this.calls.delete(call.callId);
		this.byChatId.delete(call.chat.chatId);
		this.byUser.delete(call.player.UserId);
		this.updateFast();
	}

	private onLeave(player: Player): void {
		this.eventLimiter.forget(player.UserId);
		this.sayLimiter.forget(player.UserId);
		this.callLimiter.forget(player.UserId);
		this.noticeLimiter.forget(player.UserId);
		this.canChatCache.delete(player.UserId);
	}

	private updateFast(): void {
		const fast = this.calls.size() > 0;
		if (fast === this.fast) return;
		this.fast = fast;
		this.options.setFast?.(fast);
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
		const state: SupportStatePayload = {
			available:
				this.available &&
				this.options.runningGameId() !== undefined &&
				this.options.mayCall?.(player) !== false,
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
