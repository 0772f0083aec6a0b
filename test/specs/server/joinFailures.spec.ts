import { StaffOps } from "../../../src/server";
import { serviceControl } from "../../support/serviceControl";
import {
	cleanUp,
	freshStart,
	join,
	joinsOf,
	linesWith,
	report,
	startRegistered,
	startStaffOps,
	waitForFailures,
	warnings,
} from "./support";
import { waitSeconds, waitUntil } from "../../support/waits";

// What the integration does when a join is refused with 401, 408 or 429 (api/failurePolicy.ts: 401 reads as a
// refused key, 408 and 429 as transient), and that its background backoff really draws at random.
export = () => {
	beforeEach(() => freshStart());
	afterEach(() => cleanUp());

	describe("join failures by status", () => {
		for (const [status, meaning] of [
			[401, "a refused key"],
			[408, "transient"],
			[429, "transient"],
		] as const) {
			it(`keeps a join refused with ${status} (${meaning}) and sends it again after the backoff, without a player-list check`, () => {
				serviceControl.fault({ operation: "playerJoin", status, times: 1 });
				const started = startRegistered();
				const player = join(2301, "RetriedRae");
				report(started, player, { platform: "Phone", tzOffset: "+00:00" });
				waitForFailures(started.server, "joins", 1);
				expect(serviceControl.count("playerJoin")).to.equal(1);
				expect(joinsOf(2301).size()).to.equal(0);
				expect(linesWith(warnings(), `[${status}]`).size()).to.equal(1);
				expect(linesWith(warnings(), "they will be retried").size()).to.equal(1);
				// First failure: a 2 s ceiling, the draw 0.5: due 1 s later, not before.
				started.clock.advance(0.9);
				waitSeconds(0.1);
				expect(serviceControl.count("playerJoin")).to.equal(1);
				started.clock.advance(0.2);
				waitUntil(() => StaffOps.getSession(player) !== undefined, "the join sent again");
				expect(serviceControl.count("playerJoin")).to.equal(2);
				expect(joinsOf(2301).size()).to.equal(1);
				// The service did nothing with the refused request: nothing to look up before sending again.
				expect(serviceControl.count("getRunningGame")).to.equal(0);
			});
		}
	});

	describe("registration with a refused key (401)", () => {
		it("tries the key again after the longest backoff, a minute, and not before", () => {
			const started = startStaffOps({ apiKey: "staffops-wrong-key-9999" });
			waitForFailures(started.server, "register", 1);
			expect(linesWith(warnings(), "refused the API key").size()).to.equal(1);
			started.clock.advance(59);
			waitSeconds(0.1);
			expect(serviceControl.count("createServer")).to.equal(1);
			started.clock.advance(1.5);
			waitUntil(() => serviceControl.count("createServer") === 2, "the second attempt after a minute");
			expect(started.server.isRegistered()).to.equal(false);
		});
	});

	describe("the background backoff's random draw", () => {
		it("retries registration after ceiling * draw: 0.2 s for a draw of 0.1, 1.8 s for 0.9", () => {
			for (const [draw, due] of [
				[0.1, 0.2],
				[0.9, 1.8],
			]) {
				serviceControl.reset();
				serviceControl.fault({ operation: "createServer", status: 503, times: 1 });
				const started = startStaffOps({}, { random: () => draw });
				waitForFailures(started.server, "register", 1);
				started.clock.advance(due - 0.1);
				waitSeconds(0.1);
				expect(started.server.isRegistered()).to.equal(false);
				expect(serviceControl.count("createServer")).to.equal(1);
				started.clock.advance(0.15);
				waitUntil(() => started.server.isRegistered(), `registration after ${due} s`);
				cleanUp();
			}
		});

		it("retries a failed join after ceiling * draw: 0.2 s for a draw of 0.1, 1.8 s for 0.9", () => {
			let userId = 2310;
			for (const [draw, due] of [
				[0.1, 0.2],
				[0.9, 1.8],
			]) {
				serviceControl.reset();
				serviceControl.fault({ operation: "playerJoin", status: 503, times: 1 });
				const started = startRegistered({}, { random: () => draw });
				userId += 1;
				const player = join(userId);
				report(started, player, { platform: "Phone", tzOffset: "+00:00" });
				waitForFailures(started.server, "joins", 1);
				started.clock.advance(due - 0.1);
				waitSeconds(0.1);
				expect(serviceControl.count("playerJoin")).to.equal(1);
				started.clock.advance(0.15);
				waitUntil(() => joinsOf(userId).size() === 1, `the join after ${due} s`);
				cleanUp();
			}
		});
	});
};
