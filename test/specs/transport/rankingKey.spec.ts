import { HttpService } from "@rbxts/services";
import { StaffOpsApiClient } from "../../../src/api/apiClient";
import type { ApiClientConfig } from "../../../src/api/apiClient";
import { RequestBudget } from "../../../src/transport/budget";
import { StaffOpsError } from "../../../src/transport/staffOpsError";
import { FakeHttp, FakeScheduler, SAMPLE } from "../../support/fakes";
import { harness } from "../../support/harness";
import { settle } from "../../support/waits";

// The ranking key (client.commands.setRank): sent only to the ranking route, in `api-key`, never with the API key;
// both keys redacted from every text that route's failures can carry; the answer read by its status only.

const KEY = "sk-very-secret-key-0001";
const RANKING_KEY = "rk-very-secret-ranking-0001";

function setup(config: Partial<ApiClientConfig> = { rankingKey: RANKING_KEY }, maxAttempts = 1) {
	const clock = new FakeScheduler();
	const http = new FakeHttp(clock);
	const budget = new RequestBudget({ perMinute: 400, burst: 100, maxWait: 600 }, clock);
	const client = new StaffOpsApiClient(
		{
			baseUrl: "https://staff.example.com",
			apiKey: KEY,
			budget,
			retry: { maxAttempts, baseDelay: 0.1 },
			...config,
		},
		{ http, scheduler: clock, random: () => 1 },
	);
	return { clock, http, client };
}

const headersOf = (http: FakeHttp, index: number) => http.seen[index].options.Headers as Map<string, unknown>;
const shows = (value: unknown, key: string) => tostring(value).find(key, 1, true)[0] !== undefined;

export = () => {
	describe("the ranking key", () => {
		it("goes to the ranking route alone, in api-key and without loader-id; every other route gets loader-id", () => {
			const { clock, http, client } = setup();
			http.then({ status: 200, body: { success: true } }, { status: 200, body: SAMPLE.timeOff });
			const [ok, answer] = settle(clock, client.commands.setRank(4801, "200"));
			expect(ok).to.equal(true);
			expect((answer as { success: boolean }).success).to.equal(true);
			const sent = http.seen[0].options;
			expect(sent.Method).to.equal("PUT");
			expect(sent.Url).to.equal("https://staff.example.com/ranking/users/4801/role/200");
			expect(sent.Body).never.to.be.ok();
			expect(headersOf(http, 0).get("api-key")).to.equal(RANKING_KEY);
			expect(headersOf(http, 0).get("loader-id")).never.to.be.ok();
			settle(clock, client.timeOff.get("t1"));
			expect(headersOf(http, 1).get("loader-id")).to.equal(KEY);
			expect(headersOf(http, 1).get("api-key")).never.to.be.ok();
		});

		it("redacts both keys from a failing rank request's error, whatever the service echoes", () => {
			const { clock, http, client } = setup();
			http.then(
				{ status: 401, body: { success: false, reason: `bad ${RANKING_KEY} (loader ${KEY})` } },
				{ status: 403, body: { message: `forbidden for ${RANKING_KEY}`, statusCode: 403 } },
				{ throws: `HttpError: ConnectFail ${RANKING_KEY} ${KEY}` },
			);
			for (let i = 0; i < 3; i++) {
				const [ok, err] = settle(clock, client.commands.setRank(4801, "150"));
				expect(ok).to.equal(false);
				expect(StaffOpsError.is(err)).to.equal(true);
				const typed = err as StaffOpsError;
				for (const key of [RANKING_KEY, KEY]) {
					expect(shows(typed, key)).to.equal(false);
					expect(shows(typed.reason, key)).to.equal(false);
				}
			}
		});

		it("masks what could be a Secret ranking key in the ranking route's texts", () => {
			const secretKey = "rk_live_5a4b3c2d1e0f9988xyz";
			harness.http.defineSecret("staffops_spec_ranking_echo", secretKey);
			const { clock, http, client } = setup({ rankingKey: HttpService.GetSecret("staffops_spec_ranking_echo") });
			http.then({ status: 401, body: { success: false, reason: `Key ${secretKey} is not a ranking key` } });
			const [, err] = settle(clock, client.commands.setRank(4801, "150"));
			const typed = err as StaffOpsError;
			expect(typed.status).to.equal(401);
			expect(typed.reason).to.equal("Key <redacted> is not a ranking key");
		});

		it("without a ranking key, or with a rank that is not a positive whole number in digits, refuses before sending anything", () => {
			const bare = setup({});
			const [ok, err] = settle(bare.clock, bare.client.commands.setRank(4801, "150"));
			expect(ok).to.equal(false);
			expect((err as StaffOpsError).kind).to.equal("invalid");
			expect(bare.http.seen.size()).to.equal(0);
			const { clock, http, client } = setup();
			// The service reads `{rank}` with parseInt: a name is never found, `1e3` is rank 1, `..` is no segment at all.
			const wrong = [
				"",
				"Moderator",
				"..",
				".",
				"-1",
				"1e3",
				"0",
				" 150",
				"150 ",
				"12abc",
				string.rep("1", 16),
				"a\nb",
			];
			for (const rank of wrong) {
				const [sent, refusal] = settle(clock, client.commands.setRank(4801, rank));
				expect(sent).to.equal(false);
				expect((refusal as StaffOpsError).kind).to.equal("invalid");
			}
			expect(http.seen.size()).to.equal(0);
		});

		it("reads only the status: any 2xx, JSON or not, is done; success: false is the service's refusal", () => {
			const { clock, http, client } = setup();
			http.then(
				{ status: 204 },
				{ status: 200, body: "OK" },
				{ status: 200, body: { success: false, reason: "Role not found" } },
			);
			expect(settle(clock, client.commands.setRank(4801, "150"))[0]).to.equal(true);
			expect(settle(clock, client.commands.setRank(4801, "150"))[0]).to.equal(true);
			const [ok, err] = settle(clock, client.commands.setRank(4801, "77"));
			expect(ok).to.equal(false);
			expect((err as StaffOpsError).kind).to.equal("service");
			expect((err as StaffOpsError).reason).to.equal("Role not found");
		});

		it("never repeats a rank request after an unknown outcome: the service queued its rank action before answering", () => {
			const { clock, http, client } = setup({ rankingKey: RANKING_KEY }, 4);
			http.then({ status: 502 }, { status: 200, body: { success: true } });
			const [ok, err] = settle(clock, client.commands.setRank(4801, "150"));
			expect(ok).to.equal(false);
			expect((err as StaffOpsError).mayHaveActed).to.equal(true);
			expect(http.seen.size()).to.equal(1);
		});
	});
};
