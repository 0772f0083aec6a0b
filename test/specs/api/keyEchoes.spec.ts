import { fakeClient } from "../../support/fakeClient";
import { settle } from "../../support/waits";

// client.request answers that echo the key where the service does not normally put it (issue 26, points 6 and 8):
// every field is checked, not only loaderId.

const KEY = "staffops-pinned-api-key-0042";

export = () => {
	describe("client.request: the key echoed in any field", () => {
		it("redacts the key from every field of an answer: loaderId, other names, list items and partial texts", () => {
			const { clock, http, client } = fakeClient(KEY, { maxAttempts: 1 });
			http.then({
				status: 200,
				body: {
					success: true,
					workspace: { loaderId: KEY, apiKey: KEY, groupId: "7" },
					token: KEY,
					echoes: [KEY, `Bearer ${KEY}`],
				},
			});
			const [ok, answer] = settle(clock, client.request({ method: "GET", path: "/x" }), 0.5, 300);
			expect(ok).to.equal(true);
			const decoded = answer as {
				workspace: { loaderId: string; apiKey: string; groupId: string };
				token: string;
				echoes: Array<string>;
			};
			expect(decoded.workspace.loaderId).to.equal("<redacted>");
			expect(decoded.workspace.apiKey).to.equal("<redacted>");
			expect(decoded.workspace.groupId).to.equal("7");
			expect(decoded.token).to.equal("<redacted>");
			expect(decoded.echoes[0]).to.equal("<redacted>");
			expect(decoded.echoes[1]).to.equal("Bearer <redacted>");
		});
	});
};
