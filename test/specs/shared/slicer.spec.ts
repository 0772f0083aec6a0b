import { SLICE_SECONDS, Slicer } from "../../../src/shared/slicer";

// Issue 33: the slicer, where a one-expression bug made long walks yield where the thread cannot (a read from a
// non-yieldable context then throws) or yield every 32 steps once the first slice ran long.

/** A clock the spec moves by hand. */
function handClock(): { now: () => number; advance: (seconds: number) => void } {
	let time = 0;
	return { now: () => time, advance: (seconds) => (time += seconds) };
}

export = () => {
	describe("the slicer (issue 33)", () => {
		it("never yields where the running thread cannot: a long walk there runs on without throwing", () => {
			const clock = handClock();
			// The real frame yield: yielding inside a C call (gsub's callback) would throw.
			const slicer = new Slicer(undefined, clock.now);
			const [ok] = pcall(() =>
				"abc".gsub(".", () => {
					clock.advance(SLICE_SECONDS * 2);
					slicer.check();
					return "x";
				}),
			);
			expect(ok).to.equal(true);
			expect(slicer.yields).to.equal(0);
		});

		it("starts a new slice after each yield: one yield per slice of work, not one per check after the first", () => {
			const clock = handClock();
			let frames = 0;
			const slicer = new Slicer(() => (frames += 1), clock.now);
			clock.advance(SLICE_SECONDS * 1.5);
			expect(slicer.check()).to.equal(true);
			// Less than a slice of work since that yield: no yield, however many items are counted.
			clock.advance(SLICE_SECONDS / 2);
			for (let i = 0; i < 64; i++) slicer.step();
			expect(slicer.check()).to.equal(false);
			expect(frames).to.equal(1);
			clock.advance(SLICE_SECONDS);
			expect(slicer.check()).to.equal(true);
			expect(frames).to.equal(2);
			expect(slicer.yields).to.equal(2);
		});
	});
};
