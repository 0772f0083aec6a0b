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

		it("throws for an unknown secret", () => {
			expect(pcall(() => HttpService.GetSecret("missing"))[0]).to.equal(false);
		});
	});

	describe("HttpService JSON and GUIDs (fake)", () => {
		it("encodes an empty table as an array and refuses non-finite numbers", () => {
			expect(HttpService.JSONEncode({})).to.equal("[]");
			expect(pcall(() => HttpService.JSONEncode({ n: 0 / 0 }))[0]).to.equal(false);
			expect(pcall(() => HttpService.JSONEncode({ n: math.huge }))[0]).to.equal(false);
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
