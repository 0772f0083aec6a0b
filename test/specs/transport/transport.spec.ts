import { StaffOpsApiClient } from "../../../src/api/apiClient";
import type { PlayerJoinArgs } from "../../../src/api/resources/activity";
import { RequestBudget } from "../../../src/transport/budget";
import { StaffOpsError } from "../../../src/transport/staffOpsError";
import { checkBaseUrl } from "../../../src/transport/settingsChecks";
import { HttpService } from "@rbxts/services";
import { ANY_SERVER } from "../../support/fakeClient";
import { FakeHttp, FakeScheduler, SAMPLE } from "../../support/fakes";
import { harness } from "../../support/harness";
import { settle } from "../../support/waits";

const KEY = "sk-very-secret-key-0001";

function setup(retry = {}, timeout = 5) {
	const clock = new FakeScheduler();
	const http = new FakeHttp(clock);
	const budget = new RequestBudget({ perMinute: 400, burst: 100, maxWait: 600 }, clock);
	const client = new StaffOpsApiClient(
		{ baseUrl: "https://staff.example.com/", apiKey: KEY, budget, timeout, retry },
		{ http, scheduler: clock, random: () => 1 },
	);
	return { clock, http, client, budget };
}

/** A join whose values do not matter to the spec. */
const A_JOIN: PlayerJoinArgs = {
	playerId: 1,
	safechat: true,
	username: "a",
	tzOffset: "-05:00",
	platform: "Phone",
	gameId: "r1",
};

function expectError(value: unknown, kind: string, status: number): StaffOpsError {
	// Module-level helpers do not see TestEZ's `expect` (it is injected into the spec function only).
	if (!StaffOpsError.is(value)) error(`expected a StaffOpsError, got ${tostring(value)}`, 2);
	if (value.kind !== kind || value.status !== status) {
		error(`expected ${kind}/${status}, got ${tostring(value)}`, 2);
	}
	if (tostring(value).find(KEY, 1, true)[0] !== undefined) error("the error text shows the key", 2);
	return value;
}

export = () => {
	describe("transport: requests", () => {
		it("sends the key in loader-id, JSON headers and the body to baseUrl + path", () => {
			const { clock, http, client } = setup();
			http.then({ status: 200, body: SAMPLE.released });
			const [ok] = settle(clock, client.orders.release("a b/c", { actorId: "1004" }));
			expect(ok).to.equal(true);
			const sent = http.seen[0].options;
			expect(sent.Url).to.equal("https://staff.example.com/orders/a%20b%2Fc/release");
			expect(sent.Method).to.equal("PUT");
			const headers = sent.Headers as Map<string, string>;
			expect(headers.get("loader-id")).to.equal(KEY);
			expect(headers.get("Content-Type")).to.equal("application/json");
			expect((http.JSONDecode(sent.Body!) as { actorId: string }).actorId).to.equal("1004");
		});

		it("sends no body and no Content-Type for a GET", () => {
			const { clock, http, client } = setup();
			http.then({ status: 200, body: SAMPLE.timeOff });
			settle(clock, client.timeOff.get("t1"));
			const sent = http.seen[0].options;
			expect(sent.Method).to.equal("GET");
			expect(sent.Body).never.to.be.ok();
			expect((sent.Headers as Map<string, string>).get("Content-Type")).never.to.be.ok();
		});
	});

	describe("transport: retries", () => {
		it("retries a 503 with capped, jittered backoff and then succeeds", () => {
			const { clock, http, client } = setup({ maxAttempts: 3, baseDelay: 1, maxDelay: 10 });
			http.then(
				{ status: 503, body: { success: false, reason: "busy" } },
				{ status: 503 },
				{
					status: 200,
					body: SAMPLE.timeOff,
				},
			);
			const [ok] = settle(clock, client.timeOff.get("t1"));
			expect(ok).to.equal(true);
			expect(http.seen.size()).to.equal(3);
			// random() = 1: the full backoff, 1 s then 2 s.
			expect(http.seen[1].at - http.seen[0].at >= 1).to.equal(true);
			expect(http.seen[2].at - http.seen[1].at >= 2).to.equal(true);
		});

		it("honours Retry-After", () => {
			const { clock, http, client } = setup({ maxAttempts: 2, baseDelay: 0.1 });
			http.then({ status: 429, headers: { "retry-after": "7" } }, { status: 200, body: SAMPLE.timeOffList });
			const [ok] = settle(clock, client.timeOff.list());
			expect(ok).to.equal(true);
			expect(http.seen[1].at - http.seen[0].at >= 7).to.equal(true);
		});

		it("gives up at once when Retry-After is longer than maxRetryAfter, keeping it on the error", () => {
			const { clock, http, client } = setup({ maxAttempts: 3, maxRetryAfter: 5 });
			http.then({
				status: 429,
				headers: { "retry-after": "120" },
				body: { success: false, reason: "slow down" },
			});
			const [ok, err] = settle(clock, client.timeOff.list());
			expect(ok).to.equal(false);
			const typed = expectError(err, "service", 429);
			expect(typed.retryAfter).to.equal(120);
			expect(typed.reason).to.equal("slow down");
			expect(http.seen.size()).to.equal(1);
		});

		it("never retries other 4xx", () => {
			const { clock, http, client } = setup();
			http.then({ status: 404, body: { success: false, reason: "Unknown time off request x" } });
			const [, err] = settle(clock, client.timeOff.get("x"));
			const typed = expectError(err, "service", 404);
			expect(typed.attempts).to.equal(1);
			expect(http.seen.size()).to.equal(1);
		});

		it("ends with the last answer's typed error when every attempt fails", () => {
			const { clock, http, client } = setup({ maxAttempts: 3, baseDelay: 0.1 });
			http.always({ status: 502, body: "<html>bad gateway</html>" });
			const [, err] = settle(clock, client.teams.forUser("1005"));
			const typed = expectError(err, "http", 502);
			expect(typed.attempts).to.equal(3);
			expect(http.seen.size()).to.equal(3);
		});

		it("ends an attempt that gets no answer when its timeout passes, not later", () => {
			const { clock, http, client } = setup({ maxAttempts: 1 }, 2);
			http.then({ hang: true });
			let endedAt: number | undefined;
			let failure: unknown;
			client.timeOff.list().catch((err: unknown) => {
				endedAt = clock.now();
				failure = err;
			});
			while (endedAt === undefined && clock.now() < 10) clock.advance(0.05);
			expect(endedAt).to.be.ok();
			expect(endedAt! >= 2 - 1e-6 && endedAt! <= 2.05 + 1e-6).to.equal(true);
			expectError(failure, "timeout", 0);
			// Roblox's own timeout on the request is the same (capped at its 30 s).
			expect((http.seen[0].options as unknown as { Timeout: number }).Timeout).to.equal(2);
		});

		it("does not repeat createOrder after a timeout (its outcome is unknown)", () => {
			const { clock, http, client } = setup({ maxAttempts: 3 }, 2);
			http.then({ hang: true });
			const [, err] = settle(
				clock,
				client.orders.create({
					customerId: "1",
					cashierId: "2",
					items: [{ item: "Latte", quantity: 1 }],
					placeId: "10",
					gameId: "20",
				}),
			);
			const typed = expectError(err, "timeout", 0);
			expect(typed.operation).to.equal("createOrder");
			expect(http.seen.size()).to.equal(1);
		});

		it("does not repeat recordHistory after a 500 or a dropped connection", () => {
			const { clock, http, client } = setup({ maxAttempts: 3 });
			const args = {
				actioningUser: "1002",
				userId: "1005",
				reason: "late",
				type: "writeup" as const,
				approval_required: false,
			};
			http.then({ status: 500, body: { success: false, reason: "oops" } });
			expectError(settle(clock, client.history.record(args))[1], "service", 500);
			http.then({ throws: "HttpError: NetFail" });
			expectError(settle(clock, client.history.record(args))[1], "network", 0);
			expect(http.seen.size()).to.equal(2);
		});

		it("retries createServer when the request certainly never left (ConnectFail, 503)", () => {
			const { clock, http, client } = setup({ maxAttempts: 3, baseDelay: 0.1 });
			http.then({ throws: "HttpError: ConnectFail" }, { status: 503 }, { status: 200, body: SAMPLE.server });
			const [ok] = settle(clock, client.activity.registerServer(ANY_SERVER));
			expect(ok).to.equal(true);
			expect(http.seen.size()).to.equal(3);
		});

		it("does not repeat playerJoin after a timeout: the deployed service opens a session per join", () => {
			const { clock, http, client } = setup({ maxAttempts: 3, baseDelay: 0.1 }, 2);
			http.then({ hang: true }, { status: 200, body: SAMPLE.join });
			const [ok, err] = settle(clock, client.activity.reportJoin(A_JOIN));
			expect(ok).to.equal(false);
			const typed = expectError(err, "timeout", 0);
			expect(typed.mayHaveActed).to.equal(true);
			expect(typed.acted).to.equal(false);
			expect(http.seen.size()).to.equal(1);
		});

		it("repeats a join refused with 503 (the service did nothing)", () => {
			const { clock, http, client } = setup({ maxAttempts: 2, baseDelay: 0.1 }, 2);
			http.then({ status: 503, body: { success: false, reason: "busy" } }, { status: 200, body: SAMPLE.join });
			const [ok] = settle(clock, client.activity.reportJoin(A_JOIN));
			expect(ok).to.equal(true);
			expect(http.seen.size()).to.equal(2);
		});

		it("repeats a release after a timeout and explains a 409 that follows", () => {
			const { clock, http, client } = setup({ maxAttempts: 2, baseDelay: 0.1 }, 2);
			http.then(
				{ hang: true },
				{ status: 409, body: { success: false, reason: "Order o1 was already released" } },
			);
			const [, err] = settle(clock, client.orders.release("o1", { actorId: "1004" }));
			const typed = expectError(err, "service", 409);
			expect(typed.reason).to.equal("Order o1 was already released");
			expect(typed.message.find("earlier attempt", 1, true)[0]).to.be.ok();
			expect(typed.attempts).to.equal(2);
		});

		it("pauses all sending for about 30 s on Roblox's request limit, then retries", () => {
			const { clock, http, client, budget } = setup({ maxAttempts: 2, baseDelay: 0.1 });
			http.then({ throws: "Number of requests exceeded limit" }, { status: 200, body: SAMPLE.timeOffList });
			const [ok] = settle(clock, client.timeOff.list());
			expect(ok).to.equal(true);
			expect(http.seen[1].at - http.seen[0].at >= 30).to.equal(true);
			expect(budget.getPauseRemaining()).to.equal(0);
		});

		it("does not retry when HTTP requests are disabled", () => {
			const { clock, http, client } = setup({ maxAttempts: 3 });
			http.always({ throws: "Http requests are not enabled. Enable via game settings" });
			const [, err] = settle(clock, client.timeOff.list());
			expectError(err, "network", 0);
			expect(http.seen.size()).to.equal(1);
		});
	});

	describe("transport: the key", () => {
		it("never shows the key in an error text, even when the failure echoes it", () => {
			const { clock, http, client } = setup({ maxAttempts: 1 });
			http.then({ throws: `weird failure for key ${KEY}` });
			const [, err] = settle(clock, client.timeOff.list());
			const typed = expectError(err, "network", 0);
			expect(typed.message.find(KEY, 1, true)[0]).never.to.be.ok();
			http.then({ status: 401, body: { success: false, reason: `Invalid key ${KEY}` } });
			const [, err2] = settle(clock, client.timeOff.list());
			const typed2 = expectError(err2, "service", 401);
			expect(typed2.reason.find(KEY, 1, true)[0]).never.to.be.ok();
		});

		it("masks what could be a Secret's key when a service echoes it, since a Secret's text cannot be read", () => {
			const secretKey = "sk_live_9f8e7d6c5b4a3210xyz";
			harness.http.defineSecret("staffops_spec_echo", secretKey);
			const clock = new FakeScheduler();
			const http = new FakeHttp(clock);
			const client = new StaffOpsApiClient(
				{
					baseUrl: "https://staff.example.com",
					apiKey: HttpService.GetSecret("staffops_spec_echo"),
					budget: new RequestBudget({ perMinute: 400, burst: 100 }, clock),
					retry: { maxAttempts: 1 },
				},
				{ http, scheduler: clock, random: () => 1 },
			);
			http.then({
				status: 401,
				body: { success: false, reason: `Key ${secretKey} is not valid, twice: ${secretKey}` },
			});
			const [, err] = settle(clock, client.timeOff.list());
			const typed = expectError(err, "service", 401);
			expect(tostring(typed).find(secretKey, 1, true)[0]).never.to.be.ok();
			expect(typed.reason).to.equal("Key <redacted> is not valid, twice: <redacted>");
		});

		it("redacts every copy of the key in one text, copies side by side included", () => {
			const { clock, http, client } = setup({ maxAttempts: 1 });
			http.then({ throws: `echo ${KEY}${KEY} and once more ${KEY}.` });
			const [, err] = settle(clock, client.timeOff.list());
			const typed = expectError(err, "network", 0);
			expect(typed.message).to.equal("request failed: echo <redacted><redacted> and once more <redacted>.");
			http.then({ status: 403, body: { success: false, reason: `${KEY} is not ${KEY}, nor ${KEY}` } });
			const [, err2] = settle(clock, client.timeOff.list());
			const typed2 = expectError(err2, "service", 403);
			expect(typed2.reason).to.equal("<redacted> is not <redacted>, nor <redacted>");
		});

		it("redacts a key that straddles the cut of a long transport error before cutting it", () => {
			const { clock, http, client } = setup({ maxAttempts: 1 });
			// The cut keeps 120 characters of the engine's text: the key starts at the 113th, so a cut made before
			// redacting would keep its first 8 characters, and a whole key no longer matches to be redacted.
			http.then({ throws: `${string.rep("x", 112)}${KEY} trailing words` });
			const [, err] = settle(clock, client.timeOff.list());
			const typed = expectError(err, "network", 0);
			expect(typed.message).to.equal(`request failed: ${string.rep("x", 112)}<redacte`);
			expect(typed.message.find(KEY.sub(1, 6), 1, true)[0]).never.to.be.ok();
		});

		it("never shows the key in tostring of the client", () => {
			const { client } = setup();
			expect(tostring(client).find(KEY, 1, true)[0]).never.to.be.ok();
			expect(tostring(client).find("staff.example.com", 1, true)[0]).to.be.ok();
		});
	});

	describe("transport: configuration", () => {
		it("requires https, except for loopback", () => {
			expect(checkBaseUrl("https://staff.example.com")[0]).to.equal(true);
			expect(checkBaseUrl("https://staff.example.com/api/")[1]).to.equal("https://staff.example.com/api");
			expect(checkBaseUrl("http://127.0.0.1:8080")[0]).to.equal(true);
			expect(checkBaseUrl("http://localhost:3000/")[0]).to.equal(true);
			expect(checkBaseUrl("http://[::1]:3000")[0]).to.equal(true);
			expect(checkBaseUrl("http://staff.example.com")[0]).to.equal(false);
			expect(checkBaseUrl("http://127.0.0.1.evil.com")[0]).to.equal(false);
			expect(checkBaseUrl("http://localhost.evil.com")[0]).to.equal(false);
			expect(checkBaseUrl("ftp://staff.example.com")[0]).to.equal(false);
			expect(checkBaseUrl("staff.example.com")[0]).to.equal(false);
			expect(checkBaseUrl("https://staff.example.com?x=1")[0]).to.equal(false);
			expect(checkBaseUrl("https://user:pw@staff.example.com")[0]).to.equal(false);
			expect(checkBaseUrl(42)[0]).to.equal(false);
		});

		it("never throws on a bad configuration: every call rejects with kind invalid and sends nothing", () => {
			const clock = new FakeScheduler();
			const http = new FakeHttp(clock);
			const client = new StaffOpsApiClient(
				{ baseUrl: "http://staff.example.com", apiKey: KEY },
				{ http, scheduler: clock },
			);
			expect(client.configError).to.be.ok();
			expect(client.configError!.kind).to.equal("invalid");
			const [, err] = settle(clock, client.timeOff.list());
			const typed = expectError(err, "invalid", 0);
			expect(typed.operation).to.equal("listTimeOff");
			const noKey = new StaffOpsApiClient(
				{ baseUrl: "https://x.example", apiKey: "" },
				{ http, scheduler: clock },
			);
			expectError(settle(clock, noKey.calls.getMessages("c"))[1], "invalid", 0);
			const wrongType = new StaffOpsApiClient(
				{ baseUrl: "https://x.example", apiKey: 5 as unknown as string },
				{ http, scheduler: clock },
			);
			expect(wrongType.configError).to.be.ok();
			expect(http.seen.size()).to.equal(0);
		});
	});
};
