/** Items between two looks at the clock: reading it per item would cost more than the items. */
const CHECK_EVERY = 32;

/**
 * Cuts a long walk over a large answer into slices that give the frame back: the walk calls `step()` per item, and
 * every few items it yields (one frame, `task.wait()`) once the slice has run past `budget` seconds. It never yields
 * where the running thread cannot (then the walk simply runs on), so a small answer, or a caller that must not
 * yield, is read in one go.
 * @internal
 */
export class FrameSlices {
	/** Frames given back so far. */
	yields = 0;
	private started: number;
	private count = 0;

	/** Slices of at most `budget` seconds (default 2 ms) on `now` (default `os.clock`). */
	constructor(
		private readonly budget = 0.002,
		private readonly now: () => number = os.clock,
		private readonly yieldFrame: () => void = () => task.wait(),
	) {
		this.started = now();
	}

	/** Counts one item; yields when the slice has run long. Returns true when it yielded. */
	step(): boolean {
		this.count += 1;
		if (this.count % CHECK_EVERY !== 0 || this.now() - this.started < this.budget) return false;
		if (!coroutine.isyieldable()) return false;
		this.yieldFrame();
		this.started = this.now();
		this.yields += 1;
		return true;
	}
}
