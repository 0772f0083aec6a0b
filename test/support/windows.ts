/**
 * The largest number of times (seconds) in any window [t, t + 60) that starts at one of the times: how close
 * a run came to a per-minute budget.
 */
export function busiestMinute(times: Array<number>): number {
	const sorted = [...times];
	sorted.sort((a, b) => a < b);
	let best = 0;
	let tail = 0;
	for (let head = 0; head < sorted.size(); head++) {
		while (sorted[head] - sorted[tail] >= 60) tail += 1;
		best = math.max(best, head - tail + 1);
	}
	return best;
}
