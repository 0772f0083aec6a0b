import { classifyThrown } from "../../../src/transport/httpDoor";
import { backoffDelay, parseRetryAfter, retrySettings, shouldRetry } from "../../../src/transport/retry";

export = () => {
	describe("classifyThrown", () => {
		it("reads Roblox's thrown texts", () => {
			const timeout = classifyThrown("HttpError: Timedout");
			expect(timeout.kind).to.equal("timeout");
			expect(timeout.sent).to.equal(true);
			const connect = classifyThrown("script:12: HttpError: ConnectFail");
			expect(connect.kind).to.equal("network");
			expect(connect.sent).to.equal(false);
			expect(connect.retryable).to.equal(true);
			expect(classifyThrown("HttpError: DnsResolve").sent).to.equal(false);
			const dropped = classifyThrown("HttpError: NetFail");
			expect(dropped.kind).to.equal("network");
			expect(dropped.sent).to.equal(true);
			const disabled = classifyThrown("Http requests are not enabled. Enable via game settings");
			expect(disabled.kind).to.equal("network");
			expect(disabled.retryable).to.equal(false);
			// The warning names the Studio setting as Roblox's docs name it (docs/roblox.md#where-http-and-secrets-are-turned-on).
			expect(
				disabled.message.find("File > Experience Settings > Security > Allow HTTP Requests", 1, true)[0],
			).to.be.ok();
			const limit = classifyThrown("Number of requests exceeded limit");
			expect(limit.kind).to.equal("limit");
			expect(limit.retryable).to.equal(true);
			expect(limit.sent).to.equal(false);
			expect(classifyThrown("HttpError: InvalidUrl").retryable).to.equal(false);
			expect(classifyThrown({}).kind).to.equal("network");
		});
	});

	describe("backoff", () => {
		const policy = retrySettings({ baseDelay: 0.5, maxDelay: 4 });

		it("draws from [0, base * 2^(n-1)], capped (full jitter)", () => {
			expect(backoffDelay(policy, 1, () => 0)).to.equal(0);
			expect(backoffDelay(policy, 1, () => 1)).to.equal(0.5);
			expect(backoffDelay(policy, 2, () => 1)).to.equal(1);
			expect(backoffDelay(policy, 3, () => 1)).to.equal(2);
			expect(backoffDelay(policy, 10, () => 1)).to.equal(4);
			expect(backoffDelay(policy, 3, () => 0.5)).to.equal(1);
		});

		it("ignores invalid policy numbers", () => {
			const fallback = retrySettings({ maxAttempts: 0 / 0, baseDelay: -1, maxDelay: math.huge });
			expect(fallback.maxAttempts).to.equal(3);
			expect(fallback.baseDelay).to.equal(0.5);
			expect(fallback.maxDelay).to.equal(8);
		});
	});

	describe("parseRetryAfter", () => {
		it("reads seconds and refuses the rest", () => {
			expect(parseRetryAfter({ "retry-after": "2" })).to.equal(2);
			expect(parseRetryAfter({ "retry-after": " 1.5 " })).to.equal(1.5);
			expect(parseRetryAfter({ "Retry-After": "3" })).to.equal(3);
			expect(parseRetryAfter({ "retry-after": "Wed, 21 Oct 2015 07:28:00 GMT" })).never.to.be.ok();
			expect(parseRetryAfter({ "retry-after": "-1" })).never.to.be.ok();
			expect(parseRetryAfter({})).never.to.be.ok();
		});
	});

	describe("shouldRetry", () => {
		const status = (code: number) => ({ type: "status" as const, status: code });
		const thrown = (text: string) => ({ type: "thrown" as const, failure: classifyThrown(text) });

		it("retries 408, 429 and 5xx for operations safe to repeat, never other 4xx", () => {
			for (const code of [408, 429, 500, 502, 503, 504]) expect(shouldRetry(status(code), true)).to.equal(true);
			for (const code of [400, 401, 403, 404, 409, 422]) expect(shouldRetry(status(code), true)).to.equal(false);
		});

		it("does not repeat an unsafe operation whose request may have been acted on", () => {
			expect(shouldRetry(thrown("HttpError: Timedout"), false)).to.equal(false);
			expect(shouldRetry(thrown("HttpError: NetFail"), false)).to.equal(false);
			expect(shouldRetry(status(500), false)).to.equal(false);
			expect(shouldRetry(status(504), false)).to.equal(false);
			// The request certainly did not take effect: safe for every operation.
			expect(shouldRetry(thrown("HttpError: ConnectFail"), false)).to.equal(true);
			expect(shouldRetry(thrown("Number of requests exceeded limit"), false)).to.equal(true);
			expect(shouldRetry(status(429), false)).to.equal(true);
			expect(shouldRetry(status(503), false)).to.equal(true);
			expect(shouldRetry(status(408), false)).to.equal(true);
		});

		it("retries a timeout or dropped connection of an operation safe to repeat", () => {
			expect(shouldRetry(thrown("HttpError: Timedout"), true)).to.equal(true);
			expect(shouldRetry(thrown("HttpError: NetFail"), true)).to.equal(true);
			expect(shouldRetry(thrown("Http requests are not enabled"), true)).to.equal(false);
		});
	});
};
