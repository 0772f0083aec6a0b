import type { StaffOpsApiClient } from "../../../api/apiClient";
import { backgroundWait, reactionTo } from "../../../api/failurePolicy";
import type { RunningGameAnswer, RunningPlayer } from "../../../api/resources/games";
import type { RequestPriority } from "../../../transport/budget";
import type { Scheduler } from "../../../transport/scheduler";
import type { Registered } from "../../records";

/** One user a running game's answer lists, with their running-player entry when the list has one. @internal */
export interface Listed {
	readonly listed: true;
	readonly entry?: RunningPlayer;
}

/**
 * The users a running game's answer lists, by user id: those of `players` (the first entry of a user wins) and
 * those of `runningGame.players`, a user in both with their entry. Undefined when the answer lists nobody at all:
 * a missing list says nothing about who is there.
 * @internal
 */
export function listedUsers(answer: RunningGameAnswer): ReadonlyMap<string, Listed> | undefined {
	const players = answer.players;
	const ids = answer.runningGame?.players;
	if (players === undefined && ids === undefined) return undefined;
	const listed = new Map<string, Listed>();
	for (const entry of players ?? []) {
		const userId = entry.userId;
		if (userId !== undefined && !listed.has(userId)) listed.set(userId, { listed: true, entry });
	}
	for (const id of ids ?? []) if (!listed.has(id)) listed.set(id, { listed: true });
	return listed;
}

/**
 * How long after the service answered a later request a read may settle an unknown outcome the risky way. A request
 * the service still works on when it answers a later one gets as long as the library gives any request (the default
 * timeout). @internal
 */
export const SETTLE_GRACE_SECONDS = 10;

/** How many reads, each a grace period after the last answer, must agree before a request is sent again. @internal */
export const CONFIRMING_READS = 2;

/** What a read of the list says about one user. @internal */
export type Listing = Listed | { readonly listed: false };

/** What the lookup needs from the integration. @internal */
export interface JoinLookupSeams {
	readonly scheduler: Scheduler;
	readonly random: () => number;
	/** Reads the running game; undefined when the server is not registered now. */
	readonly read: () => Promise<RunningGameAnswer> | undefined;
	/** The users whose outcome is unknown now. */
	readonly pending: () => ReadonlyArray<number>;
	/**
	 * What the list shows when the request did not land, so that it is sent again: `absent` for a join, `listed` for
	 * a leave. That answer settles only when confirmed; the other one proves the request landed and settles at once.
	 */
	readonly resendWhen: "absent" | "listed";
	/** Settles one user's outcome from the list. */
	readonly settle: (userId: number, listing: Listing) => void;
	/** The service no longer knows the server (404). */
	readonly forgotten: () => void;
	/** The read failed for another reason (logged once by the caller). */
	readonly failed: (err: unknown) => void;
}

/**
 * A lookup's `read` (the join queue's and the leaves'): the registered server's running game, in one attempt at
 * `priority`; undefined while the server is not registered, or once `stopped()`.
 * @internal
 */
export function runningGameRead(
	client: StaffOpsApiClient,
	registration: () => Registered | undefined,
	priority: RequestPriority,
	stopped: () => boolean,
): () => Promise<RunningGameAnswer> | undefined {
	return () => {
		const registered = registration();
		if (registered === undefined || stopped()) return undefined;
		return client.games.getRunning(registered.internalGameId, { priority, maxAttempts: 1 });
	};
}

/** One unknown outcome being checked. */
interface Watch {
	/** When the failure was handled: only reads sent later tell anything. */
	readonly since: number;
	/** The lookup's count of handled failures at this one (a clock that stands still at the close still orders them). */
	readonly seq: number;
	/** When the service answered a read sent after `since`: it works again, and had this long for the request. */
	answeredAt?: number;
	/** Reads that said "send again", each sent a grace period after the answer before it. */
	confirmations: number;
}

/**
 * Requests whose outcome is unknown (a timeout or a dropped connection after sending, a 500/502/504) are not sent
 * again blindly: on the deployed service every join opens a new session, and a late leave can end the session of a
 * player who came back. One read of the running game's player list answers for every such request at once, but it
 * can be answered before a request the service still holds
 * (docs/service-contract.md#a-read-can-be-answered-before-a-held-request): a frozen service works through its queue
 * after the client gave up, and a read is quicker than a join. The list then says a request did not land when it is
 * only late. So the answer that proves the request landed (a join listed, a leave no longer listed) settles it at
 * once, and the answer that would send it again counts only from a read sent {@link SETTLE_GRACE_SECONDS} after the
 * service answered a read sent after the failure, and only when {@link CONFIRMING_READS} such reads, each a grace
 * period after the answer before it, agree. A request that truly never landed goes out again after 3 reads and 20 s.
 * @internal
 */
export class JoinLookup {
	private scheduled = false;
	/** Failures handled so far: each watch's place in line. */
	private seq = 0;
	/** The server is closing: one read answered after a failure settles it ({@link checkAtClose}). */
	private closing = false;
	/** At the close, after a failed read, the next one waits until this moment (`os.clock`). */
	private closeNotBefore = 0;
	private inFlight = false;
	private failures = 0;
	private lastError: unknown;
	private stopped = false;
	private readonly watches = new Map<number, Watch>();

	constructor(private readonly host: JoinLookupSeams) {}

	/** The outcome of `userId`'s request is unknown from now: asks for a read soon (one for every request waiting). */
	request(userId: number): void {
		if (this.stopped) return;
		this.seq += 1;
		this.watches.set(userId, { since: this.host.scheduler.now(), seq: this.seq, confirmations: 0 });
		this.schedule(backgroundWait(this.failures + 1, this.host.random, this.lastError));
	}

	/**
	 * The server is closing: there is no time left for grace periods, and a request not settled now is never recorded.
	 * Reads the list at once (one read for every unknown outcome, none while one is out, one a second after a
	 * failure), and from now on a read sent after a failure was handled settles it either way: listed, it landed; not
	 * listed, it is sent again. Called by the close's loop, which does not wait for timers.
	 */
	checkAtClose(): void {
		this.closing = true;
		if (this.stopped || this.inFlight || os.clock() < this.closeNotBefore) return;
		this.run();
	}

	/** Stops: no more reads. */
	stop(): void {
		this.stopped = true;
		this.watches.clear();
	}

	private schedule(wait: number): void {
		if (this.stopped || this.scheduled || this.inFlight) return;
		this.scheduled = true;
		this.host.scheduler.delay(wait, () => {
			this.scheduled = false;
			this.run();
		});
	}

	private run(): void {
		if (this.stopped || this.host.pending().size() === 0) return;
		const read = this.host.read();
		if (read === undefined) return;
		const sentAt = this.host.scheduler.now();
		const seqAtSend = this.seq;
		this.inFlight = true;
		read.then(
			(answer) => {
				this.inFlight = false;
				if (this.stopped) return;
				this.answered(answer, sentAt, seqAtSend);
			},
			(err: unknown) => {
				this.inFlight = false;
				if (this.stopped) return;
				if (reactionTo("getRunningGame", err) === "forgotten") {
					this.watches.clear();
					this.host.forgotten();
					return;
				}
				this.failures += 1;
				this.lastError = err;
				this.closeNotBefore = os.clock() + 1;
				this.host.failed(err);
				this.schedule(backgroundWait(this.failures + 1, this.host.random, err));
			},
		);
	}

	private answered(answer: RunningGameAnswer, sentAt: number, seqAtSend: number): void {
		const answeredAt = this.host.scheduler.now();
		const listed = listedUsers(answer);
		if (listed === undefined) {
			// No list at all says nothing about anyone: read again after the backoff.
			this.failures += 1;
			this.closeNotBefore = os.clock() + 1;
			this.schedule(backgroundWait(this.failures + 1, this.host.random, this.lastError));
			return;
		}
		this.failures = 0;
		this.lastError = undefined;
		const pending = new Set(this.host.pending());
		for (const [userId] of this.watches) if (!pending.has(userId)) this.watches.delete(userId);
		for (const userId of pending) {
			const watch = this.watches.get(userId) ?? { since: answeredAt, seq: this.seq, confirmations: 0 };
			this.watches.set(userId, watch);
			const listing: Listing = listed.get(tostring(userId)) ?? { listed: false };
			const atClose = this.closing && seqAtSend >= watch.seq;
			if (atClose || this.confirmed(watch, listing, sentAt, answeredAt)) {
				this.watches.delete(userId);
				this.host.settle(userId, listing);
			}
		}
		if (this.watches.size() > 0) this.schedule(SETTLE_GRACE_SECONDS);
	}

	/** Whether this read settles the watch: at once when it proves the request landed, else when confirmed. */
	private confirmed(watch: Watch, listing: Listing, sentAt: number, answeredAt: number): boolean {
		const resend = this.host.resendWhen === "absent" ? !listing.listed : listing.listed;
		if (!resend) return true;
		// Sent before the failure was handled: it tells nothing about this request.
		if (sentAt < watch.since) return false;
		if (watch.answeredAt === undefined || sentAt < watch.answeredAt + SETTLE_GRACE_SECONDS) {
			// The service answers again, but may still hold the request: a read a grace period from now will tell.
			if (watch.answeredAt === undefined) watch.answeredAt = answeredAt;
			return false;
		}
		watch.confirmations += 1;
		watch.answeredAt = answeredAt;
		return watch.confirmations >= CONFIRMING_READS;
	}
}
