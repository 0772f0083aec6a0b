import { MAX_SYNC_EVENTS } from "../api/resources/sync";

/**
 * One session event for the deployed service's sync: `active`, `idle`, `typing` or `message`, for the `sessionId`
 * of a player's join answer, at `date` (Unix seconds).
 * @see README#deployed-service-extensions
 */
export interface SessionEvent {
	readonly type: "active" | "idle" | "typing" | "message";
	readonly sessionId: string;
	/** Unix seconds. */
	readonly date: number;
	readonly message?: string;
}

/** Events waiting while the service is unreachable; past this the oldest are dropped (and counted). */
export const MAX_PENDING_EVENTS = 2000;

/**
 * The queue of session events the sync carries. The sync takes a bounded batch from the front; after a 2xx it
 * acknowledges it (never sent again); after an unknown outcome it leaves it, so the next sync sends the very same
 * events (the service deduplicates them by type and timestamp).
 * @internal
 */
export class SessionEvents {
	private readonly queue = new Array<SessionEvent>();
	/** Events dropped because the queue was full. */
	dropped = 0;

	/** Queues one event. */
	add(event: SessionEvent): void {
		this.queue.push(event);
		if (this.queue.size() > MAX_PENDING_EVENTS) {
			this.queue.shift();
			this.dropped += 1;
		}
	}

	/** The oldest events, at most `max`; they stay queued until acknowledged. */
	peek(max = MAX_SYNC_EVENTS): Array<SessionEvent> {
		const batch = new Array<SessionEvent>();
		for (let i = 0; i < math.min(max, this.queue.size()); i++) batch.push(this.queue[i]);
		return batch;
	}

	/** Removes the events of `batch` that are still queued (some may have been dropped meanwhile). */
	ack(batch: ReadonlyArray<SessionEvent>): void {
		const sent = new Set<SessionEvent>(batch);
		for (let i = this.queue.size() - 1; i >= 0; i--) if (sent.has(this.queue[i])) this.queue.remove(i);
	}

	/** Drops every event (the server was registered again: the old sessions are gone). */
	clear(): void {
		this.queue.clear();
	}

	size(): number {
		return this.queue.size();
	}
}
