import { StaffOps } from "../../../src/server";
import { serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { cleanUp, freshStart, join, linesWith, startDeployed, warnings } from "./support";

// The close (src/server/closing.ts, docs/game-integration.md): open calls end before the server's end, inside the
// end's share of the deadline, and the close's last line says what was left undone. Deployed profile: the server's
// end is on there.

const DEADLINE = 4;

/**
 * Starts with a player's call open, then closes with `support/end` answered after 8 s: whether the call was placed,
 * and the seconds the close took. (A helper has no `expect`: the spec checks.)
 */
function closeWithHangingCallEnd(): [placed: boolean, seconds: number] {
	let close: (() => void) | undefined;
	startDeployed({ shutdownDeadlineSeconds: DEADLINE }, { bindToClose: (fn) => (close = fn) });
	const caller = join(2891, "Caller");
	waitUntil(() => StaffOps.getSession(caller) !== undefined, "the join");
	const [placed] = StaffOps.requestCall(caller, { type: "support", reason: "I need help" }).await();
	serviceControl.fault({ operation: "supportEnd", latencyMs: 8000, times: 1 });
	const startedAt = os.clock();
	close!();
	return [placed === true, os.clock() - startedAt];
}

/** The hanging support/end is logged when answered: waits for it, so it cannot land in the next spec's log. */
function letTheCallEndLand(): void {
	waitUntil(() => serviceControl.count("supportEnd") >= 1, "the held support/end to be answered", 12);
}

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUp());

	describe("the close with a support/end that hangs", () => {
		it("ends the server inside its share of the deadline all the same", () => {
			const [placed, seconds] = closeWithHangingCallEnd();
			expect(placed).to.equal(true);
			waitUntil(() => serviceControl.count("endServer") >= 1, "the server's end in the service's log", 3);
			waitSeconds(0.2);
			expect(seconds < DEADLINE + 0.5).to.equal(true);
			expect(serviceControl.count("endServer")).to.equal(1);
			expect(
				serviceControl
					.records()
					.servers.filter((server) => server.removal === "endServer")
					.size(),
			).to.equal(1);
			expect(linesWith(warnings(), "the server's end").size()).to.equal(0);
			letTheCallEndLand();
		});

		it("says in its last line that the open calls were left unended", () => {
			const [placed] = closeWithHangingCallEnd();
			expect(placed).to.equal(true);
			const lines = linesWith(warnings(), "shutting down with");
			expect(lines.size()).to.equal(1);
			expect(lines[0].find("the open support calls' end", 1, true)[0]).to.be.ok();
			letTheCallEndLand();
		});
	});
};
