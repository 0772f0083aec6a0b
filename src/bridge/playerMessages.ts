// What a player writes in their call: checked, rate-limited, queued once for the sync, and echoed back to them filtered.
import { HttpService } from "@rbxts/services";
import { logWarn } from "../background/log";
import { MESSAGE_UNAVAILABLE } from "../shared/chatProtocol";
import { RateLimiter } from "../shared/rateLimiter";
import { cleanText } from "../shared/supportProtocol";
import type { Scheduler } from "../transport/scheduler";
import { filterWithin, TextFilter } from "../roblox/textFilter";
import { PlayerMessageOutbox } from "./chatOutbox";
import type { DeskCalls } from "./deskCalls";
import { DeskCall, DeskStats, SupportDeskOptions, WORDS } from "./supportDeskOptions";

/** Who the player's notices in their chat come from. */
const NOTICE_SENDER = "Notice";
/** Seconds between two notices to one player about messages not sent. */
const NOTICE_SECONDS = 10;

/**
 * The players' messages of a {@link SupportDesk}: each checked (their own chat, chat allowed, 5 at once then 1 a
 * second), queued once in the sync's {@link PlayerMessageOutbox}, and echoed to the player filtered, in the order
 * written; a message that will not reach staff is counted and the player told. @internal
 */
export class PlayerMessages {
	/** The player messages for the sync's `chatEvents`: the `ChatOutbox` hook. */
	readonly outbox: PlayerMessageOutbox;
	private readonly sayLimiter: RateLimiter;
	private readonly noticeLimiter: RateLimiter;
	/** Kinds of dropped player messages already warned about (each is said once). */
	private readonly warnedDrops = new Set<string>();

	constructor(
		private readonly options: SupportDeskOptions,
		private readonly calls: DeskCalls,
		private readonly stats: DeskStats,
		private readonly canChat: (player: Player) => boolean,
		private readonly filter: TextFilter,
		private readonly scheduler: Scheduler,
	) {
		const now = () => scheduler.now();
		this.sayLimiter = new RateLimiter(1, 5, now);
		this.noticeLimiter = new RateLimiter(1 / NOTICE_SECONDS, 1, now);
		this.outbox = new PlayerMessageOutbox({
			scheduler,
			readIds: (ticketId) => options.client.calls.getMessages(ticketId).andThen((answer) => answer.messages),
			lost: (events) => this.onLost(events),
		});
	}

	/** A player writes `raw` in their chat `chatId`. */
	say(player: Player, chatId: string, raw: string): void {
		const call = this.calls.byChatId.get(chatId);
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

	/** Forgets a player who left (their rates). */
	forget(userId: number): void {
		this.sayLimiter.forget(userId);
		this.noticeLimiter.forget(userId);
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
			const call = this.calls.calls.get(callId);
			if (call !== undefined) this.notSent(call, "its sync's outcome stayed unknown", WORDS.lost, count);
			else this.stats.notSent += count;
		}
	}
}
