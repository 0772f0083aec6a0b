// The calls a support desk knows (by call, chat and player) and how each one ends: once, with the right reason.
import { meaningOf } from "../api/failurePolicy";
import type { SupportEndReason, SupportTicket } from "../api/resources/supportCalls";
import { logWarn } from "../background/log";
import { BoundedMap } from "./boundedMap";
import type { DeskCall, DeskPlayers, DeskStats, SupportDeskOptions } from "./supportDeskOptions";
import type { CallChat } from "./types";

/** Ended calls remembered, so a sync that still lists one does not open it again. */
const ENDED_MEMORY = 200;

/**
 * The calls a {@link SupportDesk} knows and their ends: `support/end` is sent once per call, whether the player ends
 * it, leaves, closes its window, or the server closes; a call nobody here can take part in any more is ended too.
 * @internal
 */
export class DeskCalls {
	readonly calls = new Map<string, DeskCall>();
	readonly byChatId = new Map<string, DeskCall>();
	readonly byUser = new Map<number, DeskCall>();
	/** Calls ended (or over) here: never opened again. */
	readonly ended = new BoundedMap<string, true>(ENDED_MEMORY);
	/** Set by {@link endAllCalls}: every call that opens from now on is ended at once (`serverClosed`). */
	closing = false;
	/** Creates whose answer has not come yet: the shutdown waits for them, to end what they open. */
	private readonly creating = new Set<Promise<unknown>>();
	/** Ends of calls nobody in the server can take part in any more (their caller left, or the server closes). */
	private readonly orphanEnds = new Set<Promise<unknown>>();
	private fast = false;

	constructor(
		private readonly options: SupportDeskOptions,
		private readonly stats: DeskStats,
		private readonly players: () => DeskPlayers,
	) {}

	/** Remembers a call that just opened (then {@link updateFast}, once its chat is fed). */
	add(call: DeskCall): void {
		this.calls.set(call.callId, call);
		this.byChatId.set(call.chat.chatId, call);
		this.byUser.set(call.player.UserId, call);
	}

	/** Keeps a create (or its lookup) until it is answered: the shutdown waits for it. */
	trackCreate(create: Promise<unknown>): void {
		this.track(this.creating, create);
	}

	/**
	 * Ends every open call (`serverClosed`); a call whose create is still in flight is ended as soon as its answer
	 * comes. Resolves when all are answered.
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

	/** Whether the shutdown has calls to end: open ones, ones being created, or ends still on the way. */
	hasCallsToEnd(): boolean {
		return this.calls.size() > 0 || this.creating.size() > 0 || this.orphanEnds.size() > 0;
	}

	/** Sends `support/end` for a call once; its chat closes when answered (a leaving player's is closed already). */
	endCall(call: DeskCall, reason: SupportEndReason): Promise<unknown> {
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

	/** The bridge closed a chat: ends its call when nobody here takes part in it any more. */
	onChatClosed(chat: CallChat, reason: string): void {
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
	 * Ends a live call this desk could not open a chat for because nobody here can take part in it: its caller is not
	 * in the server (`userLeft`), or the server is closing (`serverClosed`). A caller present with another call open
	 * keeps it (staff may have started it). Sent once per call.
	 */
	endIfOrphaned(ticket: SupportTicket, knownPlayer?: Player): void {
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

	/**
	 * The call was opened under a registration the service has since forgotten: the leave names the new server, and
	 * the service ends only that server's calls at a leave (docs/service-contract.md#ending-a-players-session), so
	 * the desk ends it itself.
	 */
	private openedElsewhere(call: DeskCall): boolean {
		const now = this.options.runningGameId();
		return call.runningGameId !== undefined && now !== undefined && call.runningGameId !== now;
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

	/** The sync runs fast while a call is open. */
	updateFast(): void {
		const fast = this.calls.size() > 0;
		if (fast === this.fast) return;
		this.fast = fast;
		this.options.setFast?.(fast);
	}
}
