import { WHOLE_TOKEN } from "../shared/tokens";
import type { Scheduler } from "../transport/scheduler";

/**
 * The share of the request budget that background retries may take, whatever the backoff draws: a token bucket
 * refilled at `share * perMinute` a minute, holding at most `burst`. Joins retried during an outage draw from it, so
 * game code's own calls keep the rest of the budget in any outage.
 * @internal
 */
export class RetryShare {
	private tokens: number;
	private last: number;

	constructor(
		private readonly scheduler: Scheduler,
		private readonly perMinute: () => number,
		/** The fraction of the budget retries may take. */
		readonly share = 0.1,
		private readonly burst = 3,
	) {
		this.tokens = burst;
		this.last = scheduler.now();
	}

	/** Retries per minute this share allows now. */
	perMinuteAllowed(): number {
		return math.max(this.share * this.perMinute(), 1);
	}

	/** Takes one retry: 0 when it may go now, else the seconds until one may. */
	take(): number {
		const now = this.scheduler.now();
		const rate = this.perMinuteAllowed() / 60;
		this.tokens = math.min(this.burst, this.tokens + (now - this.last) * rate);
		this.last = now;
		if (this.tokens >= WHOLE_TOKEN) {
			this.tokens = math.max(this.tokens - 1, 0);
			return 0;
		}
		return (1 - this.tokens) / rate;
	}
}
