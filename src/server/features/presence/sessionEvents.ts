import { MAX_SYNC_EVENTS } from "../../../api/resources/sync";
import { logWarn } from "../../../background/log";

/**
 * One session event for the deployed service's sync: `active`, `idle`, `typing` or `message`, of the player
 * `userId`, for the `sessionId` of their join answer, at `datetime` (Unix milliseconds). The sync writes it in the
 * deployed service's shape (docs/service-contract.md#session-events).
 * @see README#staff-activity
 */
export interface SessionEvent {
	readonly type: "active" | "idle" | "typing" | "message";
	/** The player's UserId: the event's `user` and `userKey`. */
	readonly userId: number;
	/** The join answer's `sessionId`: the event's `sessionIds.userGameSession`. */
	readonly sessionId: string;
	/** Unix milliseconds; `date` is its whole seconds. */
	readonly datetime: number;
	/** The chat line of a `message` event, as typed (the sync encodes it). */
	readonly message?: string;
	/** A whispered `message`: the UserId it went to. */
	readonly to?: number;
	/** Staff events are kept before anyone else's when the queue is full, and go out first. */
	readonly staff?: boolean;
}

/** Events waiting while the sync cannot keep up or the service is unreachable; past this some are dropped (counted). */
export const MAX_PENDING_EVENTS = 2000;
/** Events one player may have waiting; past this that player's oldest is dropped, nobody else's. */
export const MAX_PENDING_PER_PLAYER = 100;

/**
 * The queue of session events the sync carries. The sync takes a bounded batch, staff events first (each player's in
 * order); after a 2xx it acknowledges it (never sent again); after an unknown outcome it leaves it, so the next sync
 * sends the very same events (the service deduplicates them by session, type and `datetime`).
 *
 * Bounded so no one crowds out anyone else: a player past {@link MAX_PENDING_PER_PLAYER} loses their own oldest event;
 * past {@link MAX_PENDING_EVENTS} in all, the non-staff player with the most waiting loses their oldest (a staff
 * event goes only when nothing but staff events wait). A player's newest event is never the one dropped: the newest
 * state of each player is what the service must end up showing. During an outage every waiting event may be in the
 * failing sync's batch; then the oldest of that batch goes (not sent again), and counts as dropped unless that sync
 * is acknowledged after all. What is dropped is counted and warned about once.
 * @internal
 */
export class SessionEvents {
	/** In arrival order. */
	private readonly queue = new Array<SessionEvent>();
	/** Events waiting per player. */
	private readonly perPlayer = new Map<number, number>();
	/** Players whose waiting events are staff events. */
	private readonly staff = new Set<number>();
	/** The batch of the sync in flight (or the failed one, until the next batch): dropped from only as a last resort. */
	private inFlight = new Set<SessionEvent>();
	/** Events of the batch in flight dropped from the queue: not dropped after all if that batch is acknowledged. */
	private readonly droppedInFlight = new Set<SessionEvent>();
	private warned = false;
	/** Events dropped because a bound was reached. */
	dropped = 0;

	/** Queues one event. */
	add(event: SessionEvent): void {
		this.queue.push(event);
		const count = (this.perPlayer.get(event.userId) ?? 0) + 1;
		this.perPlayer.set(event.userId, count);
		if (event.staff === true) this.staff.add(event.userId);
		if (count > MAX_PENDING_PER_PLAYER) this.dropOldestOf(event.userId);
		else if (this.queue.size() > MAX_PENDING_EVENTS) this.dropOldestOf(this.busiest());
	}

	/**
	 * The next batch, at most `max`: waiting staff events first, then the others, each in arrival order. It counts as
	 * in flight (never dropped) until the next `peek` or its `ack`.
	 */
	peek(max = MAX_SYNC_EVENTS): Array<SessionEvent> {
		const batch = new Array<SessionEvent>();
		for (const staffPass of [true, false]) {
			for (const event of this.queue) {
				if (batch.size() >= max) break;
				if ((event.staff === true) === staffPass) batch.push(event);
			}
		}
		this.inFlight = new Set(batch);
		// Whatever the last batch lost while it was out is lost for good: it is not in this one.
		this.droppedInFlight.clear();
		return batch;
	}

	/** Removes the events of `batch` that are still queued (some may have been dropped meanwhile). */
	ack(batch: ReadonlyArray<SessionEvent>): void {
		const sent = new Set<SessionEvent>(batch);
		for (let i = this.queue.size() - 1; i >= 0; i--) if (sent.has(this.queue[i])) this.removeAt(i);
		for (const event of batch) if (this.droppedInFlight.has(event)) this.dropped -= 1;
		this.droppedInFlight.clear();
		this.inFlight.clear();
	}

	/** Drops every event (the server was registered again: the old sessions are gone). */
	clear(): void {
		this.queue.clear();
		this.perPlayer.clear();
		this.staff.clear();
		this.inFlight.clear();
		this.droppedInFlight.clear();
	}

	size(): number {
		return this.queue.size();
	}

	/** The player whose oldest event goes when the whole queue is full: the non-staff one with the most waiting. */
	private busiest(): number {
		let chosen = -1;
		let most = 0;
		for (const staffPass of [false, true]) {
			for (const [userId, count] of this.perPlayer) {
				if (this.staff.has(userId) === staffPass && count > most) [chosen, most] = [userId, count];
			}
			if (most > 0) break;
		}
		return chosen;
	}

	/**
	 * Drops `userId`'s oldest waiting event, never their newest (the state the service must end up showing); one of the
	 * batch in flight if nothing else is left.
	 */
	private dropOldestOf(userId: number): void {
		let newest: SessionEvent | undefined;
		for (const event of this.queue) if (event.userId === userId) newest = event;
		const mine = (event: SessionEvent) => event.userId === userId && event !== newest;
		let index = this.queue.findIndex((event) => mine(event) && !this.inFlight.has(event));
		if (index < 0) index = this.queue.findIndex(mine);
		if (index < 0) return;
		if (this.inFlight.has(this.queue[index])) this.droppedInFlight.add(this.queue[index]);
		this.removeAt(index);
		this.dropped += 1;
		if (this.warned) return;
		this.warned = true;
		logWarn(
			"session events arrive faster than the sync carries them (or the service is unreachable): the oldest " +
				"events of the busiest players are dropped, staff events last. This warning is not repeated; the count " +
				"is in the diagnostics",
		);
	}

	private removeAt(index: number): void {
		const event = this.queue.remove(index);
		if (event === undefined) return;
		const left = (this.perPlayer.get(event.userId) ?? 1) - 1;
		if (left > 0) this.perPlayer.set(event.userId, left);
		else {
			this.perPlayer.delete(event.userId);
			this.staff.delete(event.userId);
		}
	}
}
