import { SLICE_SECONDS } from "./settings";

/** Gives the frame back (Roblox: `task.wait()`, i.e. until the next Heartbeat). @internal */
export type YieldSlice = () => void;

/** The default {@link YieldSlice}: one frame. @internal */
export const frameYield: YieldSlice = () => {
	task.wait();
};

/** Items between two looks at the clock: reading it per item would cost more than the items. */
const CHECK_EVERY = 32;

/**
 * Cuts a long loop into slices of at most {@link SLICE_SECONDS} of the bridge's own work: a loop calls `step()` per
 * item, and every few items it yields when the slice has run long. Short loops never yield, so a small transcript is
 * handled in one go.
 * @internal
 */
export class Slicer {
	private started: number;
	private count = 0;

	/** `now` is the clock slices are measured on: `os.clock` in a game, a clock of the spec's own in specs. */
	constructor(
		private readonly yieldSlice: YieldSlice,
		private readonly now: () => number = os.clock,
	) {
		this.started = now();
	}

	/** Counts one cheap item; returns true when it yielded (the caller then checks that its chat is still open). */
	step(): boolean {
		this.count += 1;
		return this.count % CHECK_EVERY === 0 && this.check();
	}

	/** After a costly item (a message delivered): yields when the slice has run long. */
	check(): boolean {
		if (this.now() - this.started < SLICE_SECONDS) return false;
		this.yieldSlice();
		this.restart();
		return true;
	}

	/** Starts a new slice (after something else yielded, e.g. the text filter). */
	restart(): void {
		this.started = this.now();
	}
}
