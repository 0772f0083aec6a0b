/** Seconds of work in one slice before the frame is given back. */
export const SLICE_SECONDS = 0.002;

/** Items between two looks at the clock: reading it per item would cost more than the items. */
const CHECK_EVERY = 32;

/** Gives the frame back (Roblox: `task.wait()`, i.e. until the next Heartbeat). @internal */
export type YieldSlice = () => void;

/** The default {@link YieldSlice}: one frame. @internal */
export const frameYield: YieldSlice = () => {
	task.wait();
};

/**
 * Cuts a long walk into slices of at most {@link SLICE_SECONDS} of work that give the frame back: the walk calls
 * `step()` per cheap item (every few items it looks at the clock) or `check()` after a costly one, and the slicer
 * yields once the slice has run long. Short walks never yield, and it never yields where the running thread cannot
 * (the walk then simply runs on). The one slicing of the library: the bridge's transcript work and the api client's
 * reading of large answers.
 * @internal
 */
export class Slicer {
	/** Frames given back so far. */
	yields = 0;
	private started: number;
	private count = 0;

	/** `now` is the clock slices are measured on: `os.clock` in a game, a clock of the spec's or bench's own there. */
	constructor(
		private readonly yieldSlice: YieldSlice = frameYield,
		private readonly now: () => number = os.clock,
	) {
		this.started = now();
	}

	/** Counts one cheap item; returns true when it yielded (the caller then checks that its work still matters). */
	step(): boolean {
		this.count += 1;
		return this.count % CHECK_EVERY === 0 && this.check();
	}

	/** After a costly item (a message delivered): yields when the slice has run long. */
	check(): boolean {
		if (this.now() - this.started < SLICE_SECONDS || !coroutine.isyieldable()) return false;
		this.yieldSlice();
		this.yields += 1;
		this.restart();
		return true;
	}

	/** Starts a new slice (after something else yielded, e.g. the text filter). */
	restart(): void {
		this.started = this.now();
	}
}
