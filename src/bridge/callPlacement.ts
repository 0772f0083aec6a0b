// A player's (or game code's) request for a call, checked and sent as one `support/create`, adopted after a lost answer.
import { meaningOf } from "../api/failurePolicy";
import type { SupportTicket } from "../api/resources/supportCalls";
import { RateLimiter } from "../shared/rateLimiter";
import { CallRequest, cleanText, PRESET_REASONS } from "../shared/supportProtocol";
import { StaffOpsError } from "../transport/staffOpsError";
import type { Scheduler } from "../transport/scheduler";
import type { DeskCalls } from "./deskCalls";
import { DeskCall, DeskPlayers, DeskStats, SupportDeskOptions, WORDS } from "./supportDeskOptions";
import type { CallChat } from "./types";

/** Seconds between two calls a player starts. @internal */
export const CALL_COOLDOWN = 30;

/** What placing a call needs of its desk. @internal */
export interface PlacementHooks {
	/** Whether calls are taken now (the desk's availability). */
	readonly available: () => boolean;
	readonly canChat: (player: Player) => boolean;
	readonly players: () => DeskPlayers;
	/** Opens a chat for a ticket; undefined when no chat can open. */
	readonly adopt: (ticket: SupportTicket, player: Player) => DeskCall | undefined;
	/** Service words for the player, filtered for them; `fallback` when filtering fails. */
	readonly shown: (player: Player, text: string, fallback: string) => string;
}

/**
 * Places calls: checks each request (availability, one call per player, reason, reported player, cooldown) and sends
 * `support/create` once; after an unknown outcome or a soft refusal, looks the call up and adopts it instead of
 * creating a second (docs/service-contract.md#opening-a-support-call). @internal
 */
export class CallPlacement {
	private readonly placing = new Set<number>();
	private readonly callLimiter: RateLimiter;

	constructor(
		private readonly options: SupportDeskOptions,
		private readonly calls: DeskCalls,
		private readonly stats: DeskStats,
		private readonly hooks: PlacementHooks,
		scheduler: Scheduler,
	) {
		this.callLimiter = new RateLimiter(1 / CALL_COOLDOWN, 1, () => scheduler.now());
	}

	/** Checks a request and sends `support/create`; returns the words of a refusal, or undefined when sent. */
	place(
		player: Player,
		request: CallRequest,
		done: (ok: boolean, text: string, chat?: CallChat) => void,
	): string | undefined {
		const runningGameId = this.options.runningGameId();
		if (!this.hooks.available() || runningGameId === undefined || player.Parent === undefined)
			return WORDS.unavailable;
		if (this.options.mayCall?.(player) === false) return WORDS.unavailable;
		if (this.calls.byUser.has(player.UserId)) return WORDS.alreadyOpen;
		if (this.placing.has(player.UserId)) return WORDS.busy;
		if (request.type !== "support" && request.type !== "report") return WORDS.refused;
		const reason = typeIs(request.reason, "string") ? cleanText(request.reason) : undefined;
		if (reason === undefined) return WORDS.noReason;
		if (!this.hooks.canChat(player) && !(PRESET_REASONS[request.type] as ReadonlyArray<string>).includes(reason)) {
			return WORDS.presetsOnly;
		}
		let reporting: string | undefined;
		if (request.type === "report") {
			if (request.reporting === player.UserId) return WORDS.self;
			const reported = typeIs(request.reporting, "number")
				? this.hooks.players().GetPlayerByUserId(request.reporting)
				: undefined;
			if (reported === undefined) return WORDS.notHere;
			reporting = reported.Name;
		}
		if (!this.callLimiter.allow(player.UserId)) return WORDS.cooldown;
		const roster = this.hooks
			.players()
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
					const call = this.hooks.adopt(answer.ticket, player);
					if (call === undefined) {
						// The call exists on the service; its caller left meanwhile (their leave may have reached
						// the service first), or the server is closing: end it, or it stays open for ever.
						this.calls.endIfOrphaned(answer.ticket, player);
						done(false, WORDS.refused);
					} else done(true, WORDS.placed, call.chat);
				},
				(err: unknown) => this.afterCreateFailure(player, err, done),
			);
		this.calls.trackCreate(create);
		return undefined;
	}

	/** Forgets a player who left (their cooldown). */
	forget(userId: number): void {
		this.callLimiter.forget(userId);
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
				const call = ticket !== undefined ? this.hooks.adopt(ticket, player) : undefined;
				if (ticket !== undefined && call === undefined) this.calls.endIfOrphaned(ticket, player);
				if (call !== undefined) {
					this.stats.adopted += 1;
					done(true, WORDS.placed, call.chat);
				} else if (soft) {
					done(false, this.hooks.shown(player, (err as StaffOpsError).reason ?? "", WORDS.refused));
				} else {
					done(false, WORDS.unsure);
				}
			},
			() => {
				this.placing.delete(player.UserId);
				done(false, WORDS.unsure);
			},
		);
		this.calls.trackCreate(lookUp);
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
}
