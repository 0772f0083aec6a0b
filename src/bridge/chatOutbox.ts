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
}

/** Events one sync carries at most. @internal */
export const MAX_EVENTS_PER_SYNC = 50;
/** Events waiting at most (every player's together); past it the oldest are dropped. @internal */
export const MAX_WAITING = 1000;
/** Transcript reads after an unknown sync before its events are dropped rather than risk storing them twice. */
const MAX_CHECKS = 5;
const CHECK_DELAY = 5;

/**
 * Player messages waiting for the sync, each sent once. The service appends chatEvents without dedup, so after an
 * `unknown` sync the outbox reads each affected call's transcript and sends again only the ids it lacks; while that
 * read is pending, the call's later messages wait, so they are not stored ahead of earlier ones. One batch is in
 * flight at a time.
 * @internal
 */
export class PlayerMessageOutbox implements ChatOutbox {
	/** Counters: events stored (a `sent` sync), sent again after a check, dropped (cap, or checks kept failing). */
	sent = 0;
	resent = 0;
	dropped = 0;

	private waiting = new Array<ChatEvent>();
	private inFlight?: Array<ChatEvent>;
	private readonly checking = new Set<string>();

	constructor(private readonly seams: ChatOutboxSeams) {}

	/** Queues one message for the next sync. */
	add(event: ChatEvent): void {
		this.waiting.push(event);
		while (this.waiting.size() > MAX_WAITING) {
			this.waiting.shift();
			this.dropped += 1;
		}
	}

	/** Forgets the waiting messages of a call (it ended). */
	forgetCall(ticketId: string): void {
		this.waiting = this.waiting.filter((event) => event.ticketId !== ticketId);
	}

	/** Messages waiting or in flight. */
	size(): number {
		return this.waiting.size() + (this.inFlight?.size() ?? 0);
	}

	take(): ReadonlyArray<unknown> | undefined {
		if (this.inFlight !== undefined) return undefined;
		const batch = new Array<ChatEvent>();
		const rest = new Array<ChatEvent>();
		for (const event of this.waiting) {
			if (batch.size() < MAX_EVENTS_PER_SYNC && !this.checking.has(event.ticketId)) batch.push(event);
			else rest.push(event);
		}
		if (batch.size() === 0) return undefined;
		this.waiting = rest;
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
			this.waiting = [...batch, ...this.waiting];
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

	private check(ticketId: string, events: Array<ChatEvent>, attempt: number): void {
		this.checking.add(ticketId);
		const done = (missing: Array<ChatEvent>) => {
			this.checking.delete(ticketId);
			this.resent += missing.size();
			this.sent += events.size() - missing.size();
			this.waiting = [...missing, ...this.waiting];
		};
		this.seams.readIds(ticketId).then(
			(messages) => {
				const stored = new Set<string>();
				for (const message of messages) stored.add(message.id);
				done(events.filter((event) => !stored.has(event.id)));
			},
			() => {
				if (attempt >= MAX_CHECKS) {
					// Never store a message twice: after this many failed reads, drop what may already be stored.
					this.checking.delete(ticketId);
					this.dropped += events.size();
					return;
				}
				this.seams.scheduler.delay(CHECK_DELAY, () => this.check(ticketId, events, attempt + 1));
			},
		);
	}
}
