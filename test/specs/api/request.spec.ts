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
	});
};
