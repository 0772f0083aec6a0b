import { HttpService } from "@rbxts/services";
import { StaffOpsApiClient } from "../../../src/api/apiClient";
import { parseIsoTime } from "../../../src/bridge/messageTime";
import { shutdownDeadlineSeconds, STUDIO_SHUTDOWN_DEADLINE_SECONDS } from "../../../src/server/shutdownDeadline";
import { classifyThrown } from "../../../src/transport/httpDoor";
import { harness } from "../../support/harness";
import { referenceClient } from "../../support/referenceClient";
import { serviceControl } from "../../support/serviceControl";
import { cleanUp, join, report, startStaffOps, waitForFailures } from "../server/support";

// The library against the differences issue 12 found between the old fakes and Roblox's reference (2026), each
// with the sentence it follows (docs/roblox.md).
function client(options: { timeout?: number; apiKey?: unknown; baseUrl?: string } = {}): StaffOpsApiClient {
	return referenceClient({
		baseUrl: options.baseUrl,
		apiKey: options.apiKey as string | undefined,
		timeout: options.timeout ?? 5,
		retry: { maxAttempts: 1 },
	});
}

/**
 * Lists the history with the service's key held as a Secret for *.example.com (not the service's host), the request
 * log cleared first: what `await` gave.
 */
function listWithForeignSecret() {
	harness.http.defineSecret("staffops_api_key", harness.serviceKey, "*.example.com");
	serviceControl.clearRequests();
	return client({ apiKey: HttpService.GetSecret("staffops_api_key") })
		.history.list()
		.await();
}

export = () => {
	beforeEach(() => serviceControl.reset());
	afterEach(() => harness.reset());

	describe("RequestAsync Timeout", () => {
		// "Timeout: Integer" (HttpService:RequestAsync reference page; no upper bound documented).
		it("passes each attempt's timeout to RequestAsync as whole seconds, rounded up, at least 1", () => {
			for (const [timeout, sent] of [
				[2, 2],
				[2.5, 3],
				[0.1, 1],
				[45, 45],
			]) {
				const [ok] = client({ timeout }).history.list().await();
				expect(ok).to.equal(true);
				expect(harness.http.lastTimeout()).to.equal(sent);
			}
		});
	});

	describe("Enum.HttpError names beyond the first four", () => {
		// "TooManyOutstandingRequests (too many concurrent or pending requests; nothing was sent)".
		it("reads TooManyOutstandingRequests as not sent and worth another try", () => {
			const failure = classifyThrown("HttpError: TooManyOutstandingRequests");
			expect(failure.sent).to.equal(false);
			expect(failure.retryable).to.equal(true);
		});

		it("reads CreatorEnvironmentsNotSupportedByService as not sent and final", () => {
			const failure = classifyThrown("HttpError: CreatorEnvironmentsNotSupportedByService");
			expect(failure.sent).to.equal(false);
			expect(failure.retryable).to.equal(false);
		});

		it("reads InactivityTimeout, ConnectionClosed and ServerProtocolError as possibly sent, worth another try", () => {
			for (const name of ["InactivityTimeout", "ConnectionClosed", "ServerProtocolError"]) {
				const failure = classifyThrown(`HttpError: ${name}`);
				expect(failure.sent).to.equal(true);
				expect(failure.retryable).to.equal(true);
				expect(failure.message).to.equal(`HttpError: ${name}`);
			}
			expect(classifyThrown("HttpError: InactivityTimeout").kind).to.equal("timeout");
		});
	});

	describe("Secrets and their domain", () => {
		// "A Secret works only for the domain set on it in the Secrets store (* or *.example.com)."
		it("refuses, without retrying or showing the key, a Secret whose domain is not the service's host", () => {
			const [ok, problem] = listWithForeignSecret();
			expect(ok).to.equal(false);
			const text = tostring(problem);
			expect(text.find("Secret's domain", 1, true)[0]).to.be.ok();
			expect(text.find(harness.serviceKey, 1, true)[0]).to.equal(undefined);
			expect(serviceControl.requests().requests.size()).to.equal(0);

			harness.http.defineSecret("staffops_api_key", harness.serviceKey, "127.0.0.1");
			expect(
				client({ apiKey: HttpService.GetSecret("staffops_api_key") })
					.history.list()
					.await()[0],
			).to.equal(true);
		});
	});

	describe("refusals Roblox documents no wording for", () => {
		// Roblox documents neither the wrong-domain Secret refusal's text nor the request limit's. StaffOps reads the
		// harness's wording for a clearer message; under any other wording it must stay safe: nothing sent, the key
		// never shown, and the failure read as a network one that may be tried again.
		it("stays safe with a Secret for another domain whatever Roblox's words", () => {
			harness.http.setErrorWording("other");
			const [ok, problem] = listWithForeignSecret();
			expect(ok).to.equal(false);
			const text = tostring(problem);
			expect((problem as { kind: string }).kind).to.equal("network");
			expect(text.find("HttpService refused the request", 1, true)[0]).to.be.ok();
			expect(text.find(harness.serviceKey, 1, true)[0]).to.equal(undefined);
			expect(serviceControl.requests().requests.size()).to.equal(0);
		});

		it("reads the request limit under either wording as a failure worth another try", () => {
			for (const wording of ["harness", "other"] as const) {
				harness.http.setErrorWording(wording);
				harness.http.setRequestsPerMinuteCap(0);
				const [ok, thrown] = pcall(() => HttpService.RequestAsync({ Url: harness.serviceUrl, Method: "GET" }));
				harness.http.setRequestsPerMinuteCap(undefined);
				expect(ok).to.equal(false);
				const failure = classifyThrown(thrown);
				expect(failure.retryable).to.equal(true);
				// Recognised, it is known not to have been sent; unrecognised, it may have been (a join is then
				// looked up in the player list before it is sent again, never re-sent blindly).
				expect(failure.kind).to.equal(wording === "harness" ? "limit" : "network");
				expect(failure.sent).to.equal(wording !== "harness");
			}
		});
	});

	describe("message times", () => {
		// DateTime.fromIsoDate is documented without milliseconds; the bridge reads ISO 8601 itself.
		it("parses ISO 8601 with or without a fraction and with Z or an offset, and refuses the rest", () => {
			expect(parseIsoTime("1970-01-01T00:00:00Z")).to.equal(0);
			expect(parseIsoTime("2024-06-01T12:00:00.250Z")).to.equal(1717243200.25);
			expect(parseIsoTime("2024-06-01T14:00:00+02:00")).to.equal(1717243200);
			expect(parseIsoTime("2024-06-01T07:00:00.5-0500")).to.equal(1717243200.5);
			expect(parseIsoTime("2024-06-01 12:00:00")).to.equal(1717243200);
			for (const bad of [
				"",
				"yesterday",
				"2024-02-30T00:00:00Z",
				"2024-06-01T24:00:00Z",
				"2024-06-01T12:00:00+15:00",
				5,
			]) {
				expect(parseIsoTime(bad)).to.equal(undefined);
			}
		});
	});

	describe("BindToClose in a Studio playtest", () => {
		// "BindToClose also runs when a Studio playtest stops": with the service unreachable, stopping must not hang.
		it("waits at most a few seconds in Studio, the configured deadline on a live server", () => {
			expect(shutdownDeadlineSeconds(25, () => true)).to.equal(STUDIO_SHUTDOWN_DEADLINE_SECONDS);
			expect(shutdownDeadlineSeconds(2, () => true)).to.equal(2);
			expect(shutdownDeadlineSeconds(25, () => false)).to.equal(25);
			expect(shutdownDeadlineSeconds(25, () => error("no RunService"))).to.equal(25);
		});

		it("stops a Studio playtest within that time when the service is down", () => {
			serviceControl.fault({ operation: "*", status: 503 });
			const started = startStaffOps({ shutdownDeadlineSeconds: 25 }, { isStudio: () => true });
			const player = join(2301);
			report(started, player, { platform: "Phone", tzOffset: "+00:00" });
			waitForFailures(started.server, "register", 1);
			const [seconds, finished] = harness.server.close();
			cleanUp();
			expect(finished).to.equal(true);
			expect(seconds < STUDIO_SHUTDOWN_DEADLINE_SECONDS + 1).to.equal(true);
			expect(seconds >= STUDIO_SHUTDOWN_DEADLINE_SECONDS - 0.1).to.equal(true);
		});
	});
};
