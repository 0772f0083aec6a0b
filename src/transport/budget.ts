import { WHOLE_TOKEN } from "../shared/tokens";
import { robloxScheduler, Scheduler } from "./scheduler";
import { StaffOpsError } from "./staffOpsError";

/**
 * Which requests go first when the budget is short: `urgent` (the joins of players the staff hint marks as likely
 * staff), `high` (server registration, join reports), `normal` (game code's calls), `low` (background reads such as
 * polling a call transcript).
 *
 * @see README#request-budget
 */
export type RequestPriority = "urgent" | "high" | "normal" | "low";

/**
 * Settings of a {@link RequestBudget}.
 *
 * @see README#request-budget
 */
export interface BudgetOptions {
	/** Most requests sent in any 60-second window. Default 250 (Roblox allows 500 per server, shared with the game). */
	readonly perMinute?: number;
	/** Requests that may go out at once after a quiet period. Default 20; at most `perMinute`. */
	readonly burst?: number;
	/** Longest a request waits for its turn before failing with kind `budget`, in seconds. Default 60. */
	readonly maxWait?: number;
	/** How long all sending stops after Roblox answers `Number of requests exceeded limit`, in seconds. Default 30. */
	readonly limitPause?: number;
}

const RANK: Record<RequestPriority, number> = { urgent: -1, high: 0, normal: 1, low: 2 };

interface Waiter {
	readonly rank: number;
	readonly seq: number;
	readonly deadline: number;
	readonly grant: () => void;
	readonly refuse: (reason: string) => void;
	done: boolean;
}

/** The window no `perMinute` may be exceeded in: a minute and a millisecond. */
const WINDOW = 60.001;

/** Why a budget refused a request. @internal */
export const BUDGET_WAIT_EXCEEDED = "waited too long for the request budget";

/**
 * Whether `err` is a request that only waited past `maxWait` for its turn: nothing was sent and nothing is known
 * about the service. A long queue behind a join storm ends so, while the service answers every request; a
 * background caller that sends again by itself puts such work back in line instead of reading the service as
 * failing. (Roblox's own limit is not one: it pauses the budget, and its error has an attempt.)
 * @internal
 */
export function waitedForBudget(err: unknown): boolean {
	return StaffOpsError.is(err) && err.kind === "budget" && err.attempts === 0 && err.message === BUDGET_WAIT_EXCEEDED;
}

/**
 * The one request budget of the library: a token bucket shared by every feature and every retry, serving waiting
 * requests by priority (then first come, first served).
 *
 * It holds `burst` tokens and refills at `perMinute / 60` per second, the full rate, so a long queue drains at
 * `perMinute` a minute; a log of the last minute's grants makes sure no 60-second window ever sees more than
 * `perMinute` requests (the burst on top of a full minute's refill would otherwise allow `perMinute + burst`).
 * When Roblox reports its own limit, {@link RequestBudget.pause} stops all sending for `limitPause` seconds.
 *
 * @example
 * ```ts
 * const budget = new RequestBudget({ perMinute: 200 });
 * const client = new StaffOpsApiClient({ baseUrl, apiKey, budget });
 * ```
 * @see README#request-budget
 */
export class RequestBudget {
	private perMinute = 250;
	private burst = 20;
	private maxWait = 60;
	private limitPause = 30;
	private tokens = 0;
	private lastRefill = 0;
	private pausedUntil = -math.huge;
	private seq = 0;
	private readonly queue = new Array<Waiter>();
	/** When each request in the last 60 s was let out, oldest first: no window may hold more than `perMinute`. */
	private readonly sent = new Array<number>();
	private wakeAt = math.huge;

	/**
	 * Makes a budget; most games use the library-wide {@link sharedBudget} instead.
	 * @param options limits; omitted ones take their defaults
	 * @param scheduler the clock (specs pass a fake one)
	 */
	constructor(
		options: BudgetOptions = {},
		private readonly scheduler: Scheduler = robloxScheduler,
	) {
		this.lastRefill = scheduler.now();
		this.configure(options);
		this.tokens = this.burst;
	}

	/**
	 * Changes the limits in place; waiting requests keep their place. Invalid numbers are ignored.
	 *
	 * @example
	 * ```ts
	 * sharedBudget().configure({ perMinute: 120 });
	 * ```
	 */
	configure(options: BudgetOptions): void {
		this.refill();
		const positive = (value: number | undefined) =>
			value !== undefined && value === value && value > 0 && value < math.huge;
		if (positive(options.perMinute)) this.perMinute = options.perMinute!;
		if (positive(options.burst)) this.burst = math.max(1, math.floor(options.burst!));
		if (positive(options.maxWait)) this.maxWait = options.maxWait!;
		if (positive(options.limitPause)) this.limitPause = options.limitPause!;
		this.burst = math.min(this.burst, math.max(1, math.floor(this.perMinute)));
		this.tokens = math.min(this.tokens, this.burst);
		this.pump();
	}

	/** Requests per 60-second window this budget allows. */
	getPerMinute(): number {
		return this.perMinute;
	}

	/** How many requests are waiting for a token. */
	getQueueLength(): number {
		return this.queue.size();
	}

	/**
	 * Waits for a token. Resolves when the request may be sent; rejects with a text when it waited longer than
	 * `maxWait`. Cancelling the Promise gives up the place in the queue.
	 * @internal
	 */
	acquire(priority: RequestPriority = "normal"): Promise<void> {
		return new Promise<void>((resolve, reject, onCancel) => {
			this.seq += 1;
			const waiter: Waiter = {
				rank: RANK[priority] ?? RANK.normal,
				seq: this.seq,
				deadline: this.scheduler.now() + this.maxWait,
				grant: () => resolve(),
				refuse: (reason) => reject(reason),
				done: false,
			};
			onCancel(() => {
				waiter.done = true;
				this.removeDone();
			});
			this.insert(waiter);
			this.pump();
		});
	}

	/**
	 * Stops all sending for `seconds` (default `limitPause`), as after Roblox's `Number of requests exceeded limit`.
	 * @internal
	 */
	pause(seconds?: number): void {
		const resumeAt = this.scheduler.now() + (seconds ?? this.limitPause);
		if (resumeAt > this.pausedUntil) this.pausedUntil = resumeAt;
		this.tokens = 0;
		this.pump();
	}

	/** Seconds until sending resumes after a pause; 0 when not paused. */
	getPauseRemaining(): number {
		return math.max(0, this.pausedUntil - this.scheduler.now());
	}

	/** `RequestBudget(250/min)`. */
	toString(): string {
		return `RequestBudget(${this.perMinute}/min)`;
	}

	private rate(): number {
		return math.max(this.perMinute, 0.001) / 60;
	}

	/** Grants in the last 60 s, after dropping older ones. */
	private inWindow(now: number): number {
		const sent = this.sent;
		let drop = 0;
		// The same sum as the wake-up time below, so a grant that is due is never missed by a rounding error; the
		// millisecond keeps "a minute later" from rounding to inside the same minute.
		while (drop < sent.size() && sent[drop] + WINDOW <= now) drop += 1;
		if (drop > 0) {
			// Shift the kept ones down in place: the log never holds more than `perMinute` entries.
			const kept = sent.size() - drop;
			for (let i = 0; i < kept; i++) sent[i] = sent[i + drop];
			for (let i = sent.size() - 1; i >= kept; i--) sent.remove(i);
		}
		return sent.size();
	}

	private refill(): void {
		const now = this.scheduler.now();
		// No refill while paused: the pause must not end with a full bucket that bursts into Roblox's limit again.
		const from = math.max(this.lastRefill, this.pausedUntil);
		if (now > from) this.tokens = math.min(this.burst, this.tokens + (now - from) * this.rate());
		this.lastRefill = now;
	}

	private insert(waiter: Waiter): void {
		// Sorted by (rank, seq); new waiters land after every waiter of the same or better rank.
		let index = this.queue.size();
		while (index > 0 && this.queue[index - 1].rank > waiter.rank) index -= 1;
		this.queue.insert(index, waiter);
	}

	private removeDone(): void {
		for (let i = this.queue.size() - 1; i >= 0; i--) {
			if (this.queue[i].done) this.queue.remove(i);
		}
	}

	private pump(): void {
		this.refill();
		const now = this.scheduler.now();
		const expired = new Array<Waiter>();
		for (const waiter of this.queue) {
			if (!waiter.done && waiter.deadline <= now) {
				waiter.done = true;
				expired.push(waiter);
			}
		}
		this.removeDone();
		// Settle outside the loops: a settled Promise runs its handlers at once, and they may queue again.
		for (const waiter of expired) waiter.refuse(BUDGET_WAIT_EXCEEDED);
		while (
			this.queue.size() > 0 &&
			now >= this.pausedUntil &&
			this.tokens >= WHOLE_TOKEN &&
			this.inWindow(now) < this.perMinute
		) {
			const waiter = this.queue.shift()!;
			this.tokens -= 1;
			this.sent.push(now);
			waiter.done = true;
			waiter.grant();
		}
		if (this.queue.size() > 0) this.schedule(now);
	}

	private schedule(now: number): void {
		let wake: number;
		if (now < this.pausedUntil) {
			wake = this.pausedUntil;
		} else if (this.inWindow(now) >= this.perMinute) {
			wake = this.sent[0] + WINDOW;
		} else {
			wake = now + math.max(1 - this.tokens, 0) / this.rate();
		}
		for (const waiter of this.queue) wake = math.min(wake, waiter.deadline);
		// One timer at a time, unless an earlier wake-up is needed; stale timers just pump again.
		if (wake >= this.wakeAt && this.wakeAt > now) return;
		this.wakeAt = wake;
		this.scheduler.delay(math.max(wake - now, 0), () => {
			if (this.wakeAt === wake) this.wakeAt = math.huge;
			this.pump();
		});
	}
}

let shared: RequestBudget | undefined;

/**
 * The library-wide budget: every client made without its own `budget` (and the game integration) draws from it.
 *
 * @example
 * ```ts
 * sharedBudget().configure({ perMinute: 150 });
 * ```
 * @see README#request-budget
 */
export function sharedBudget(): RequestBudget {
	if (shared === undefined) shared = new RequestBudget();
	return shared;
}
