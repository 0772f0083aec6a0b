import { HttpService } from "@rbxts/services";
import { harness } from "../../support/harness";

// The HttpService fake must behave like Roblox's for everything the library relies on.
export = () => {
	afterEach(() => harness.reset());

	const url = (path: string) => `${harness.probeUrl}${path}`;

	describe("HttpService:RequestAsync (fake)", () => {
		it("answers Roblox's shape with lower-case header names for a success", () => {
			const response = HttpService.RequestAsync({ Url: url("/status/200"), Method: "GET" });
			expect(response.Success).to.equal(true);
			expect(response.StatusCode).to.equal(200);
			expect(typeIs(response.StatusMessage, "string")).to.equal(true);
			expect(response.Headers["content-type"]).to.be.ok();
			expect(response.Headers["x-probe"]).to.equal("yes");
			for (const [name] of pairs(response.Headers)) {
				expect(name).to.equal(name.lower());
			}
			const body = HttpService.JSONDecode(response.Body) as { success: boolean };
			expect(body.success).to.equal(true);
		});

		it("sends the method, headers and body it is given", () => {
			const response = HttpService.RequestAsync({
				Url: url("/echo"),
				Method: "POST",
				Headers: { "Content-Type": "application/json", "x-extra": "1" },
				Body: HttpService.JSONEncode({ a: 1 }),
			});
			const echoed = HttpService.JSONDecode(response.Body) as {
				method: string;
				headers: Record<string, string>;
				body: string;
			};
			expect(echoed.method).to.equal("POST");
			expect(echoed.headers["x-extra"]).to.equal("1");
			expect((HttpService.JSONDecode(echoed.body) as { a: number }).a).to.equal(1);
		});

		it("answers, not throws, for an HTTP error status", () => {
			const response = HttpService.RequestAsync({ Url: url("/status/503"), Method: "GET" });
			expect(response.Success).to.equal(false);
			expect(response.StatusCode).to.equal(503);
		});

		it("throws HttpError: ConnectFail when nothing listens", () => {
			const [ok, message] = pcall(() => HttpService.RequestAsync({ Url: "http://127.0.0.1:9/", Method: "GET" }));
			expect(ok).to.equal(false);
			expect(tostring(message).find("HttpError: ConnectFail")[0]).to.be.ok();
		});

		it("throws HttpError: Timedout when the answer is slower than the timeout", () => {
			harness.http.setTimeout(0.2);
			const [ok, message] = pcall(() => HttpService.RequestAsync({ Url: url("/slow/1000"), Method: "GET" }));
			expect(ok).to.equal(false);
			expect(tostring(message).find("HttpError: Timedout")[0]).to.be.ok();
		});

		it("refuses when HTTP requests are disabled", () => {
			harness.http.setEnabled(false);
			const [ok, message] = pcall(() => HttpService.RequestAsync({ Url: url("/status/200"), Method: "GET" }));
			expect(ok).to.equal(false);
			expect(tostring(message).find("Http requests are not enabled")[0]).to.be.ok();
		});

		// "Timeout: Integer" (HttpService:RequestAsync reference page, which documents no upper bound): a whole
		// number of seconds is honoured as given, a missing one is the harness's default, anything else refused.
		it("honours the request's Timeout in whole seconds above 0 and refuses any other", () => {
			const slow = (timeout: number | undefined) =>
				pcall(() =>
					HttpService.RequestAsync({ Url: url("/slow/2500"), Method: "GET", Timeout: timeout } as never),
				);
			const started = os.clock();
			const [ok, message] = slow(1);
			expect(ok).to.equal(false);
			expect(tostring(message).find("HttpError: Timedout")[0]).to.be.ok();
			expect(os.clock() - started < 2).to.equal(true);
			expect(harness.http.lastTimeout()).to.equal(1);
			// No Timeout: the harness's default (here 0.3 s).
			harness.http.setTimeout(0.3);
			const unset = os.clock();
			expect(slow(undefined)[0]).to.equal(false);
			expect(os.clock() - unset < 0.9).to.equal(true);
			for (const bad of [0, -1, 0 / 0, 0.5, 2.5, math.huge]) {
				const [refused, problem] = slow(bad);
				expect(refused).to.equal(false);
				expect(tostring(problem).find("Timeout must be a whole number", 1, true)[0]).to.be.ok();
			}
		});

		it("throws Number of requests exceeded limit past the per-minute cap", () => {
			harness.http.setRequestsPerMinuteCap(2);
			const send = () => HttpService.RequestAsync({ Url: url("/status/200"), Method: "GET" });
			expect(pcall(send)[0]).to.equal(true);
			expect(pcall(send)[0]).to.equal(true);
			const [ok, message] = pcall(send);
			expect(ok).to.equal(false);
			expect(tostring(message).find("Number of requests exceeded limit")[0]).to.be.ok();
		});
	});

	describe("HttpService:GetSecret (fake)", () => {
		it("returns an opaque Secret that works as a header value", () => {
			harness.http.defineSecret("staffops", "sk-test-123");
			const secret = HttpService.GetSecret("staffops");
			expect(typeOf(secret)).to.equal("Secret");
			expect(tostring(secret).find("sk-test-123", 1, true)[0]).never.to.be.ok();
			const response = HttpService.RequestAsync({
				Url: url("/echo"),
				Method: "GET",
				Headers: { "loader-id": secret as unknown as string },
			});
			const echoed = HttpService.JSONDecode(response.Body) as { headers: Record<string, string> };
			expect(echoed.headers["loader-id"]).to.equal("sk-test-123");
		});

		it("cannot be sent as a body", () => {
			harness.http.defineSecret("staffops", "sk-test-123");
			const secret = HttpService.GetSecret("staffops");
			const [ok] = pcall(() =>
				HttpService.RequestAsync({ Url: url("/echo"), Method: "POST", Body: secret as unknown as string }),
			);
			expect(ok).to.equal(false);
		});

		// "A Secret works only for the domain set on it in the Secrets store (* or *.example.com)" (docs/roblox.md#a-secret-works-only-for-its-domain).
		it("works only for its domain: *, *.parent or the host itself", () => {
			const send = (name: string) =>
				pcall(() =>
					HttpService.RequestAsync({
						Url: url("/echo"),
						Method: "GET",
						Headers: { "loader-id": HttpService.GetSecret(name) as unknown as string },
					}),
				);
			harness.http.defineSecret("any", "sk-1", "*");
			harness.http.defineSecret("exact", "sk-2", "127.0.0.1");
			harness.http.defineSecret("elsewhere", "sk-3", "staff.example.com");
			harness.http.defineSecret("wildcard", "sk-4", "*.example.com");
			expect(send("any")[0]).to.equal(true);
			expect(send("exact")[0]).to.equal(true);
			const sentBefore = harness.http.requestsSent();
			for (const name of ["elsewhere", "wildcard"]) {
				const [ok, problem] = send(name);
				expect(ok).to.equal(false);
				expect(tostring(problem).find("Secret cannot be used with this domain", 1, true)[0]).to.be.ok();
				expect(tostring(problem).find("sk-", 1, true)[0]).never.to.be.ok();
			}
			// Refused before anything was sent.
			expect(harness.http.requestsSent()).to.equal(sentBefore);
			// A prefixed copy keeps the domain.
			const prefixed = HttpService.GetSecret("elsewhere").AddPrefix("Bearer ");
			const [ok] = pcall(() =>
				HttpService.RequestAsync({
					Url: url("/echo"),
					Method: "GET",
					Headers: { authorization: prefixed as unknown as string },
				}),
			);
			expect(ok).to.equal(false);
		});

		it("throws for an unknown secret", () => {
			expect(pcall(() => HttpService.GetSecret("missing"))[0]).to.equal(false);
		});
	});

	describe("HttpService JSON and GUIDs (fake)", () => {
		// "JSONEncode accepts NaN and infinities, for a table with both parts the array part wins, and every empty
		// table, nested ones too, is written []" (docs/roblox.md#jsonencode).
		it("writes every empty table as [], nested ones too", () => {
			expect(HttpService.JSONEncode({})).to.equal("[]");
			expect(HttpService.JSONEncode({ a: {} })).to.equal('{"a":[]}');
			expect(HttpService.JSONEncode([{}, [{}]])).to.equal("[[],[[]]]");
		});

		it("accepts NaN and infinities", () => {
			const [ok, text] = pcall(() => HttpService.JSONEncode({ n: 0 / 0, p: math.huge, m: -math.huge }));
			expect(ok).to.equal(true);
			expect((text as string).find('"p":inf', 1, true)[0]).to.be.ok();
			expect((text as string).find('"m":-inf', 1, true)[0]).to.be.ok();
			expect((text as string).find('"n":nan', 1, true)[0]).to.be.ok();
		});

		it("writes only the array part of a table with both parts", () => {
			const mixed = [1, 2] as unknown as Record<string, unknown>;
			mixed.extra = "dropped";
			expect(HttpService.JSONEncode(mixed)).to.equal("[1,2]");
		});

		it("refuses a dictionary with keys that are not strings, and cycles", () => {
			const oddKeys = new Map<unknown, number>([[true, 1]]);
			expect(pcall(() => HttpService.JSONEncode(oddKeys))[0]).to.equal(false);
			const cyclic: Record<string, unknown> = {};
			cyclic.self = cyclic;
			expect(pcall(() => HttpService.JSONEncode(cyclic))[0]).to.equal(false);
		});

		it("round-trips objects and arrays", () => {
			const value = HttpService.JSONDecode(HttpService.JSONEncode({ a: [1, 2, 3], b: "x", c: true })) as {
				a: Array<number>;
				b: string;
				c: boolean;
			};
			expect(value.a.size()).to.equal(3);
			expect(value.b).to.equal("x");
			expect(value.c).to.equal(true);
		});

		it("throws Can't parse JSON on malformed text", () => {
			const [ok, message] = pcall(() => HttpService.JSONDecode("{not json"));
			expect(ok).to.equal(false);
			expect(tostring(message).find("Can't parse JSON")[0]).to.be.ok();
		});

		it("generates version 4 GUIDs, with braces unless asked not to", () => {
			const wrapped = HttpService.GenerateGUID();
			const bare = HttpService.GenerateGUID(false);
			expect(wrapped.match("^{%x+%-%x+%-4%x+%-[89AB]%x+%-%x+}$")[0]).to.be.ok();
			expect(
				bare.match("^%x%x%x%x%x%x%x%x%-%x%x%x%x%-4%x%x%x%-%x%x%x%x%-%x%x%x%x%x%x%x%x%x%x%x%x$")[0],
			).to.be.ok();
			expect(HttpService.GenerateGUID()).never.to.equal(wrapped);
		});
	});
};
