import { Signal } from "../../../src/shared/signal";
import { RateLimiter } from "../../../src/shared/rateLimiter";

export = () => {
	describe("Signal", () => {
		it("calls every connected handler with the fired values", () => {
			const signal = new Signal<[string, number]>();
			const seen = new Array<string>();
			signal.Connect((name, n) => seen.push(`${name}${n}`));
			signal.Connect((name) => seen.push(name));
			signal.Fire("a", 1);
			expect(seen.join(",")).to.equal("a1,a");
		});

		it("stops calling a disconnected handler, and Once calls once", () => {
			const signal = new Signal<[]>();
			let calls = 0;
			let once = 0;
			const connection = signal.Connect(() => calls++);
			signal.Once(() => once++);
			signal.Fire();
			connection.Disconnect();
			signal.Fire();
			expect(calls).to.equal(1);
			expect(once).to.equal(1);
			expect(connection.Connected).to.equal(false);
		});

		it("keeps calling the other handlers when one errors", () => {
			const signal = new Signal<[]>();
			let reached = false;
			signal.Connect(() => error("handler failure"));
			signal.Connect(() => {
				reached = true;
			});
			signal.Fire();
			expect(reached).to.equal(true);
		});

		it("Wait yields until the next fire and returns its values", () => {
			const signal = new Signal<[number]>();
			task.delay(0.05, () => signal.Fire(7));
			const [value] = signal.Wait();
			expect(value).to.equal(7);
		});

		it("Wait returns the fired values themselves, not a table of them, as RBXScriptSignal:Wait does", () => {
			const signal = new Signal<[string, number]>();
			// Called the way Luau code calls it: the first value must be the first fired value.
			const luauView = signal as unknown as { Wait(this: unknown): unknown };
			task.delay(0.05, () => signal.Fire("a", 2));
			const first = luauView.Wait();
			expect(first).to.equal("a");
			task.delay(0.05, () => signal.Fire("b", 3));
			const [name, count] = signal.Wait();
			expect(`${name}${count}`).to.equal("b3");
		});
	});

	describe("RateLimiter", () => {
		it("allows a burst, then the rate, per key", () => {
			let now = 0;
			const limiter = new RateLimiter(2, 3, () => now);
			expect(limiter.allow(1) && limiter.allow(1) && limiter.allow(1)).to.equal(true);
			expect(limiter.allow(1)).to.equal(false);
			expect(limiter.allow(2)).to.equal(true);
			now = 0.5;
			expect(limiter.allow(1)).to.equal(true);
			expect(limiter.allow(1)).to.equal(false);
		});

		it("forgets keys so memory stays bounded", () => {
			const limiter = new RateLimiter(1, 1, () => 0);
			for (let key = 1; key <= 100; key++) limiter.allow(key);
			expect(limiter.size()).to.equal(100);
			for (let key = 1; key <= 100; key++) limiter.forget(key);
			expect(limiter.size()).to.equal(0);
		});
	});
};
