import { StaffOpsApiClient } from "../../../src/api/apiClient";
import { RequestBudget } from "../../../src/transport/budget";
import { StaffOpsError } from "../../../src/transport/staffOpsError";
import { FakeHttp, FakeScheduler } from "../../support/fakes";
import { settle } from "../../support/waits";

// client.request: routes the interface does not list, through the same budget, retries, failure handling and key
// handling as the typed methods (issue 14). A scripted HttpService and a fake clock make every count exact.

const KEY = "staffops-request-spec-key-0042";

function rig(perMinute = 400) {
	const clock = new FakeScheduler();
	const http = new FakeHttp(clock);
	const budget = new RequestBudget({ perMinute, burst: 1, maxWait: 600 }, clock);
	const client = new StaffOpsApiClient(
		{
			baseUrl: "https://staff.example.com",
			apiKey: KEY,
			budget,
			retry: { maxAttempts: 3, baseDelay: 1, maxDelay: 2 },
		},
		{ http, scheduler: clock, random: () => 0.5 },
	);
	return { clock, http, client };
}

// Requests settle in half-second steps, 600 at most (300 s of the fake clock).
const STEP = 0.5;
const LIMIT = 300;

export = () => {
	describe("client.request", () => {
		it("sends the method, path and JSON body with the key header, and hands back the decoded answer", () => {
			const { clock, http, client } = rig();
			http.then({ status: 200, body: { success: true, workspace: { loaderId: KEY, groupId: "7" } } });
			const [ok, answer] = settle(
				clock,
				client.request({ method: "POST", path: "/activity/getServer", body: { gameId: "g1" } }),
				STEP,
				LIMIT,
			);
			expect(ok).to.equal(true);
			const seen = http.seen[0].options;
			expect(seen.Url).to.equal("https://staff.example.com/activity/getServer");
			expect(seen.Method).to.equal("POST");
			expect(seen.Body).to.equal('{"gameId":"g1"}');
			expect((seen.Headers as Record<string, unknown>)["loader-id"]).to.equal(KEY);
			const workspace = (answer as { workspace: { loaderId: string; groupId: string } }).workspace;
			expect(workspace.loaderId).to.equal("<redacted>");
			expect(workspace.groupId).to.equal("7");
		});

		it("retries what the service did not act on, and never repeats an unsafe request after an unknown outcome", () => {
			const { clock, http, client } = rig();
			http.then({ status: 503 }, { status: 503 }, { status: 200, body: { success: true } });
			const [ok] = settle(clock, client.request({ method: "POST", path: "/x", body: {} }), STEP, LIMIT);
			expect(ok).to.equal(true);
			expect(http.seen.size()).to.equal(3);

			http.then({ status: 500, body: { success: false, reason: "boom" } });
			const [failed, err] = settle(clock, client.request({ method: "POST", path: "/x", body: {} }), STEP, LIMIT);
			expect(failed).to.equal(false);
			expect((err as StaffOpsError).mayHaveActed).to.equal(true);
			expect(http.seen.size()).to.equal(4);

			http.then({ status: 500 }, { status: 200, body: { success: true } });
			const [safe] = settle(
				clock,
				client.request({ method: "POST", path: "/x", body: {}, safeToRepeat: true }),
				STEP,
				LIMIT,
			);
			expect(safe).to.equal(true);
			expect(http.seen.size()).to.equal(6);
		});

		it("draws every attempt from the budget, by priority", () => {
			const { clock, http, client } = rig(60);
			http.always({ status: 200, body: { success: true } });
			// The first request takes the one burst token; the next two wait, and the high one goes first.
			const first = client.request({ method: "GET", path: "/first" });
			const low = client.request({ method: "GET", path: "/low", priority: "low" });
			const high = client.request({ method: "GET", path: "/high", priority: "high" });
			settle(clock, Promise.all([first, low, high]), STEP, LIMIT);
			const paths = http.seen.map((request) => (request.options.Url as string).gsub("^https://[^/]+", "")[0]);
			expect(paths.join(" ")).to.equal("/first /high /low");
			// One a second at 60 a minute.
			expect(http.seen[1].at >= 0.9 && http.seen[2].at >= 1.9).to.equal(true);
		});

		it("refuses bad requests before sending anything, and keeps the key out of every error text", () => {
			const { clock, http, client } = rig();
			for (const bad of [
				{ method: "GET", path: "no-slash" },
				{ method: "GET", path: "/a/../b" },
				{ method: "GET", path: "/a b" },
				{ method: "GET", path: "/ok", body: {} },
				{ method: "TRACE", path: "/ok" },
				{ method: "POST", path: "/ok", priority: "asap" },
			]) {
				const [ok, err] = settle(clock, client.request(bad as never), STEP, LIMIT);
				expect(ok).to.equal(false);
				expect((err as StaffOpsError).kind).to.equal("invalid");
			}
			expect(http.seen.size()).to.equal(0);

			http.then({ throws: `HttpError: ConnectFail for ${KEY} ${KEY}` });
			http.then({ status: 400, body: { success: false, reason: `bad key ${KEY}` } });
			const [, transport] = settle(
				clock,
				client.request({ method: "GET", path: "/x", maxAttempts: 1 }),
				STEP,
				LIMIT,
			);
			const [, refusal] = settle(
				clock,
				client.request({ method: "GET", path: "/x", maxAttempts: 1 }),
				STEP,
				LIMIT,
			);
			for (const err of [transport, refusal]) {
				expect(StaffOpsError.is(err)).to.equal(true);
				expect(tostring(err).find(KEY, 1, true)[0]).never.to.be.ok();
				expect((err as StaffOpsError).operation).to.equal("request");
			}
		});

		it("redacts the key from an answer at depth 40 and from table keys (issue 24, point 7)", () => {
			const { clock, http, client } = rig();
			const deep: Record<string, unknown> = { echo: `key ${KEY}` };
			let answer: Record<string, unknown> = deep;
			for (let depth = 0; depth < 40; depth++) answer = { inner: answer };
			http.then({ status: 200, body: { success: true, nested: answer, byKey: { [KEY]: 1 } } });
			const [ok, decoded] = settle(clock, client.request({ method: "GET", path: "/x", maxAttempts: 1 }));
			expect(ok).to.equal(true);
			let leaks = 0;
			const stack = new Array<defined>();
			stack.push(decoded as defined);
			while (stack.size() > 0) {
				const item = stack.pop();
				if (typeIs(item, "string") && item.find(KEY, 1, true)[0] !== undefined) leaks += 1;
				if (!typeIs(item, "table")) continue;
				for (const [key, inner] of pairs(item as Record<string, unknown>)) {
					if (typeIs(key, "string") && key.find(KEY, 1, true)[0] !== undefined) leaks += 1;
					stack.push(inner as defined);
				}
			}
			expect(leaks).to.equal(0);
			expect((decoded as { byKey: Record<string, number> }).byKey["<redacted>"]).to.equal(1);
		});

		it("redacts the key from an answer that is only a string echoing it (issue 33)", () => {
			const { clock, http, client } = rig();
			http.then({ status: 200, body: `"loader ${KEY}"` });
			const [ok, decoded] = settle(clock, client.request({ method: "GET", path: "/x", maxAttempts: 1 }));
			expect(ok).to.equal(true);
			expect(decoded).to.equal("loader <redacted>");
		});

		it("refuses dot segments in any encoding, control and non-ASCII spaces, and bodies over 1 MB (issue 24, point 10)", () => {
			const { clock, http, client } = rig();
			const nbsp = `${string.char(0xc2)}${string.char(0xa0)}`;
			const ideographic = `${string.char(0xe3)}${string.char(0x80)}${string.char(0x80)}`;
			const paths = [
				"/a/%2e%2e/b",
				"/a/%2E%2E",
				"/a/.%2e/b",
				"/a/%2e/b",
				"/a/..;/b",
				"/a/..;jsessionid=1/b",
				"/a/.;x",
				`/a${nbsp}b`,
				`/a/${ideographic}`,
				"/a/%00b",
				"/a/%7f",
				"/a/..%2fb",
				"/a/%5c..",
			];
			let refused = 0;
			for (const path of paths) {
				const [ok, err] = settle(clock, client.request({ method: "GET", path, maxAttempts: 1 }));
				if (!ok && (err as StaffOpsError).kind === "invalid") refused += 1;
			}
			expect(refused).to.equal(paths.size());
			const [ok, err] = settle(
				clock,
				client.request({ method: "POST", path: "/big", body: { data: string.rep("x", 4_000_000) } }),
			);
			expect(ok).to.equal(false);
			expect((err as StaffOpsError).kind).to.equal("invalid");
			expect(tostring(err).find("largest body sent is 1000 kB", 1, true)[0]).to.be.ok();
			expect(http.seen.size()).to.equal(0);
			// Names with dots and encoded text are fine.
			const [fine] = settle(
				clock,
				client.request({ method: "GET", path: "/a/v1.2/..x/%2e%2ex", maxAttempts: 1 }),
			);
			expect(fine).to.equal(true);
			expect(http.seen.size()).to.equal(1);
		});

		it("refuses a baseUrl on a port Roblox refuses, at start", () => {
			for (const [url, usable] of [
				["https://staff.example.com:22", false],
				["https://staff.example.com:1194", false],
				["https://staff.example.com:1023", false],
				["https://staff.example.com:0", false],
				["https://staff.example.com:x", false],
				["https://[::1]:25/api", false],
				["https://staff.example.com:443", true],
				["https://staff.example.com:8443/api", true],
				["http://127.0.0.1:8080", true],
			] as const) {
				const clock = new FakeScheduler();
				const http = new FakeHttp(clock);
				const client = new StaffOpsApiClient({ baseUrl: url, apiKey: KEY }, { http, scheduler: clock });
				const [ok, err] = settle(clock, client.request({ method: "GET", path: "/x", maxAttempts: 1 }));
				expect(ok).to.equal(usable);
				if (!usable) expect(tostring(err).find("port", 1, true)[0]).to.be.ok();
				expect(http.seen.size()).to.equal(usable ? 1 : 0);
			}
		});
	});
};
