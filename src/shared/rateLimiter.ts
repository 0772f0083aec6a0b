/**
 * Per-key token buckets for remote traffic: each key (a player's UserId) may send `burst` events at
 * once and `perSecond` events per second after that. Exploiters fire remotes at any rate; this answers
 * "allowed?" in O(1) and keeps memory bounded by forgetting a key when its player leaves.
 * @internal
 */
export class RateLimiter {
	private readonly buckets = new Map<number, { tokens: number; at: number }>();

	constructor(
		private readonly perSecond: number,
		private readonly burst: number,
		private readonly now: () => number = os.clock,
	) {}

	/** Takes one token for `key`; false when the key is over its rate (drop the event). */
	allow(key: number): boolean {
		const now = this.now();
		const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
		bucket.tokens = math.min(this.burst, bucket.tokens + (now - bucket.at) * this.perSecond);
		bucket.at = now;
		const allowed = bucket.tokens >= 1;
		if (allowed) bucket.tokens -= 1;
		this.buckets.set(key, bucket);
		return allowed;
	}

	/** Forgets a key (its player left). */
	forget(key: number): void {
		this.buckets.delete(key);
	}

	/** How many keys are tracked (for memory checks). */
	size(): number {
		return this.buckets.size();
	}
}
