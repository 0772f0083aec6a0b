import { StaffOpsError } from "../../../src/transport/staffOpsError";
import { fakeClient } from "../../support/fakeClient";
import { settle } from "../../support/waits";

// The transport's memory of earlier attempts (issue 26, point 6): an attempt that may have been acted on stays
// "may have acted" however many attempts follow it, so the final error never says the service did nothing.

const KEY = "staffops-pinned-transport-key-0042";

export = () => {
	describe("transport: attempts after one that may have acted", () => {
		it("after a 500 then two 503s (three attempts), the final error says the service may have acted", () => {
			const { clock, http, client } = fakeClient(KEY, { maxAttempts: 3, baseDelay: 1, maxDelay: 2 });
			http.then({ status: 500 }, { status: 503 }, { status: 503 });
			const [ok, err] = settle(clock, client.request({ method: "GET", path: "/x" }), 0.5, 300);
			expect(ok).to.equal(false);
			expect(http.seen.size()).to.equal(3);
			expect(StaffOpsError.is(err)).to.equal(true);
			expect((err as StaffOpsError).status).to.equal(503);
			expect((err as StaffOpsError).mayHaveActed).to.equal(true);
		});
	});
};
