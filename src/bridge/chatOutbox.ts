import type { CallMessage } from "../api/resources/calls";
import type { Scheduler } from "../transport/scheduler";

/**
 * The sync's side of player messages (the exact hook the deployed profile's `POST /activity/sendData` sync calls):
 * `take()` gives the `chatEvents` the next sync carries (undefined when there are none), and `settled` says what
 * became of them: `sent` (a 2xx: stored), `failed` (nothing reached the service: send again), `unknown` (they may
 * have been stored: look before sending again).
 * @see README#support-calls
 */
export interface ChatOutbox {
	take(): ReadonlyArray<unknown> | undefined;
	settled(outcome: "sent" | "unknown" | "failed"): void;
}

/** One player message as sendData's `chatEvents` carries it (docs/service-contract.md#the-sync-route); `created` is Unix seconds. @internal */
export interface ChatEvent {
	readonly type: "message";
	readonly ticketId: string;
	readonly id: string;
	readonly userId: number;
	readonly username: string;
	readonly message: string;
	readonly created: number;
}

/** What the outbox needs: a transcript read, to learn which messages of an unknown sync were stored. @internal */
export interface ChatOutboxSeams {
	/** The message ids of a call's transcript; rejects when it cannot be read. */
	readonly readIds: (ticketId: string) => Promise<ReadonlyArray<Pick<CallMessage, "id">>>;
	readonly scheduler: Scheduler;
	/**
	 * Messages the player was shown as sent that will never be sent (their sync's outcome stayed unknown): the desk
	 * tells each player. Default: nobody.
	 */
	readonly lost?: (events: ReadonlyArray<ChatEvent>) => void;
}

/**
 * Events one sync carries at most: the sync route's limit, so 30 players each writing one message a second (the
 * per-player rate) are carried in full at one sync every 3 s.
 * @internal
 */
export const MAX_EVENTS_PER_SYNC = 100;
/**
 * Bytes of chat events one sync carries at most, as estimated by {@link eventBytes}: the service's body limit is not
 * documented (the reference service takes 64 KiB, Express's default is 100 kB), so a sync stays well under both,
 * whatever the messages hold.
 */
const MAX_BATCH_BYTES = 48_000;
/** Events one player may have waiting; past it their next message is refused (they are told), never an older one. */
export const MAX_WAITING_PER_PLAYER = 20;
/** Events waiting at most, every player's together; past it new messages are refused too. @internal */
export const MAX_WAITING = 1000;
/** Transcript reads after an unknown sync before its events are given up rather than risk storing them twice. */
const MAX_CHECKS = 5;
const CHECK_DELAY = 5;

/** An upper bound of one event's JSON size: its fields' names and ids, and a message whose every byte is escaped. */
function eventBytes(event: ChatEvent): number {
	return 250 + (event.username.size() + event.message.size()) * 2;
}

/**
 * Player messages waiting for the sync, each sent once. Each player's messages wait in a queue of their own, bounded
 * on its own: a message past the bound is refused when written (`add` answers false, and the player is told), so
 * nothing already shown as sent is pushed out, and one busy player never pushes out another's. A sync takes the
 * players' queues in turn, one message each per round, oldest first within a queue. The service appends chatEvents
 * without dedup, so after an `unknown` sync the outbox reads each affected call's transcript and sends again only
 * the ids it lacks; while that read is pending, the call's later messages wait, so they are not stored ahead of
 * earlier ones. One batch is in flight at a time.
 * @internal
 */
export class PlayerMessageOutbox implements ChatOutbox {
	/** Counters: events stored (a `sent` sync), sent again after a check, refused (a full queue), lost (checks kept failing). */
	sent = 0;
	resent = 0;
	refused = 0;
	lost = 0;

	/** Each player's waiting messages, oldest first; players in the order they first wrote. */
	private readonly queues = new Map<number, Array<ChatEvent>>();
	private order = new Array<number>();
	/** Where the next sync's round starts, so no player is always first. */
	private turn = 0;
	private waitingCount = 0;
	private inFlight?: Array<ChatEvent>;
	private readonly checking = new Set<string>();

	constructor(private readonly seams: ChatOutboxSeams) {}

	/** Queues one message for the next sync; false (and counted) when the player's queue or the outbox is full. */
	add(event: ChatEvent): boolean {
		const queue = this.queues.get(event.userId);
		if ((queue?.size() ?? 0) >= MAX_WAITING_PER_PLAYER || this.waitingCount >= MAX_WAITING) {
			this.refused += 1;
			return false;
		}
		this.push(event, false);
		return true;
	}

	/** Messages waiting or in flight. */
	size(): number {
		return this.waitingCount + (this.inFlight?.size() ?? 0);
	}

	/** Messages waiting for one player. */
	waitingFor(userId: number): number {
		return this.queues.get(userId)?.size() ?? 0;
	}

	take(): ReadonlyArray<unknown> | undefined {
		if (this.inFlight !== undefined) return undefined;
		const batch = new Array<ChatEvent>();
		const players = this.order.size();
		let bytes = 0;
		let progress = true;
		const room = () => batch.size() < MAX_EVENTS_PER_SYNC && bytes < MAX_BATCH_BYTES;
		while (room() && progress) {
			progress = false;
			for (let i = 0; i < players && room(); i++) {
				const userId = this.order[(this.turn + i) % players];
				const queue = this.queues.get(userId);
				// A player's queue is taken in order: a call being checked holds back what comes after it.
				if (queue === undefined || queue.size() === 0 || this.checking.has(queue[0].ticketId)) continue;
				const size = eventBytes(queue[0]);
				if (batch.size() > 0 && bytes + size > MAX_BATCH_BYTES) {
					bytes = MAX_BATCH_BYTES;
					break;
				}
				bytes += size;
				batch.push(queue.shift()!);
				progress = true;
			}
		}
		if (players > 0) this.turn = (this.turn + 1) % players;
		if (batch.size() === 0) return undefined;
		this.waitingCount -= batch.size();
		this.prune();
		this.inFlight = batch;
		return batch;
	}

	settled(outcome: "sent" | "unknown" | "failed"): void {
		const batch = this.inFlight;
		this.inFlight = undefined;
		if (batch === undefined) return;
		if (outcome === "sent") {
			this.sent += batch.size();
		} else if (outcome === "failed") {
			this.requeue(batch);
		} else {
			const byTicket = new Map<string, Array<ChatEvent>>();
			for (const event of batch) {
				const list = byTicket.get(event.ticketId) ?? [];
				list.push(event);
				byTicket.set(event.ticketId, list);
			}
			for (const [ticketId, events] of byTicket) this.check(ticketId, events, 1);
		}
	}

	/** Puts events back at the front of their players' queues, in order (they were taken from there). */
	private requeue(events: ReadonlyArray<ChatEvent>): void {
		for (let i = events.size() - 1; i >= 0; i--) this.push(events[i], true);
	}

	private push(event: ChatEvent, front: boolean): void {
		let queue = this.queues.get(event.userId);
		if (queue === undefined) {
			queue = [];
			this.queues.set(event.userId, queue);
			this.order.push(event.userId);
		}
		if (front) queue.unshift(event);
		else queue.push(event);
		this.waitingCount += 1;
	}

	/** Drops the queues of players with nothing waiting (they may have left). */
	private prune(): void {
		const kept = this.order.filter((userId) => (this.queues.get(userId)?.size() ?? 0) > 0);
		if (kept.size() === this.order.size()) return;
		for (const userId of this.order) if ((this.queues.get(userId)?.size() ?? 0) === 0) this.queues.delete(userId);
		this.order = kept;
		this.turn = kept.size() > 0 ? this.turn % kept.size() : 0;
	}

	private check(ticketId: string, events: Array<ChatEvent>, attempt: number): void {
		this.checking.add(ticketId);
		const done = (missing: Array<ChatEvent>) => {
			this.checking.delete(ticketId);
			this.resent += missing.size();
			this.sent += events.size() - missing.size();
			this.requeue(missing);
		};
		this.seams.readIds(ticketId).then(
			(messages) => {
				const stored = new Set<string>();
				for (const message of messages) stored.add(message.id);
				done(events.filter((event) => !stored.has(event.id)));
			},
			() => {
				if (attempt >= MAX_CHECKS) {
					// Never store a message twice: after this many failed reads, give up what may already be stored,
					// and tell the players (they were shown these as sent).
					this.checking.delete(ticketId);
					this.lost += events.size();
					this.seams.lost?.(events);
					return;
				}
				this.seams.scheduler.delay(CHECK_DELAY, () => this.check(ticketId, events, attempt + 1));
			},
		);
	}
}
