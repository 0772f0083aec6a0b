import { StaffOpsApiClient } from "../../../src/api/apiClient";
import type { RunningGameAnswer } from "../../../src/api/resources/games";
import { StaffOps } from "../../../src/server";
import { serviceControl } from "../../support/serviceControl";
import { waitUntil } from "../../support/waits";
import { cleanUp, freshStart, join, joinsOf, report, specClient, startRegistered } from "./support";

// The heartbeat's player list with one player here, where a one-expression bug (issue 33) left the lone player
// unreported when the service listed nobody. Counts the joins that reached the reference service.

/** A client whose heartbeat reads list no player at all (the reference service never loses one by itself). */
function listingNobody(): StaffOpsApiClient {
	const client = specClient();
	return {
		activity: client.activity,
		games: {
			getRunning(id: string, options?: { priority?: "high" | "normal" | "low" }) {
				return client.games.getRunning(id, options).andThen((answer): RunningGameAnswer => ({
					success: true,
					runningGame: { ...answer.runningGame!, players: [] },
					players: [],
				}));
			},
		},
	} as unknown as StaffOpsApiClient;
}

export = () => {
	beforeEach(() => freshStart());
	afterEach(() => cleanUp());
	afterAll(() => serviceControl.reset());

	describe("the heartbeat's player list (issue 33)", () => {
		it("with one player here, reports him again when the service lists nobody", () => {
			const started = startRegistered({}, { client: listingNobody() });
			const lone = join(2001);
			report(started, lone, { platform: "Phone", tzOffset: "+00:00" });
			// Answered before the heartbeat's read goes out: only then can a list show the player missing.
			waitUntil(() => StaffOps.getSession(lone) !== undefined, "the join's answer");
			started.clock.advance(60);
			waitUntil(() => joinsOf(2001).size() === 2, "the second report of the unlisted player", 5);
			expect(serviceControl.count("createServer")).to.equal(1);
		});
	});
};
