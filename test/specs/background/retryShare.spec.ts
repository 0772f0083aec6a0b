import { RetryShare } from "../../../src/background/retryShare";
import { FakeScheduler } from "../../support/fakes";

// The share of the request budget that background retries may take (10 % by default, a burst of 3).
export = () => {
	describe("RetryShare", () => {
		it("lets 3 retries go at once, then one per 1 / (10 % of perMinute) minutes", () => {
			const clock = new FakeScheduler();
			const share = new RetryShare(clock, () => 250);
			expect(share.perMinuteAllowed()).to.equal(25);
			expect(share.take()).to.equal(0);
			expect(share.take()).to.equal(0);
			expect(share.take()).to.equal(0);
			// Empty: the next token comes 60 / 25 = 2.4 s later.
			expect(math.abs(share.take() - 2.4) < 1e-9).to.equal(true);
			clock.advance(1.2);
			expect(math.abs(share.take() - 1.2) < 1e-9).to.equal(true);
			clock.advance(1.2);
			expect(share.take()).to.equal(0);
			expect(share.take() > 0).to.equal(true);
		});

		it("lets a retry go once the wait it gave has passed, whatever the rounding", () => {
			// 7 a minute (0.7 for retries) leaves the bucket a few units in the last place short of a token after
			// waiting exactly the returned time; a wait of 1e-14 s at t = 123 s is a clock that cannot move.
			const clock = new FakeScheduler();
			const share = new RetryShare(clock, () => 7);
			for (let i = 0; i < 3; i++) share.take();
			clock.advance(123.456);
			for (let i = 0; i < 20; i++) {
				const wait = share.take();
				if (wait === 0) continue;
				expect(wait >= 1e-6).to.equal(true);
				clock.advance(wait);
				expect(share.take()).to.equal(0);
			}
		});

		it("allows at least one retry a minute however small the budget", () => {
			const clock = new FakeScheduler();
			const share = new RetryShare(clock, () => 5);
			expect(share.perMinuteAllowed()).to.equal(1);
			for (let i = 0; i < 3; i++) share.take();
			expect(math.abs(share.take() - 60) < 1e-9).to.equal(true);
		});
	});
};
