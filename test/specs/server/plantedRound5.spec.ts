import { StaffOpsApiClient } from "../../../src/api/apiClient";
import type { RunningGameAnswer } from "../../../src/api/resources/games";
import { HealthLog } from "../../../src/background/log";
import { StaffOps } from "../../../src/server";
import { ConsentPrompts } from "../../../src/server/features/consent/consent";
import { Signal } from "../../../src/shared/signal";
import { FakeScheduler } from "../../support/fakes";
import { deskControl } from "../../support/deskControl";
import { harness } from "../../support/harness";
import { registerSpecServer } from "../../support/referenceClient";
import { serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { cleanUp, freshStart, join, joinsOf, report, specClient, startRegistered, waitForFailures } from "./support";

// Issue 33: server behaviours a one-expression bug could break with every older spec green (the consent record, the
// heartbeat's list with one player, the shutdown's open call, the join probe). Each counts what reached the
// reference service.

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

	describe("consent (issue 33)", () => {
		it("records a decision once for a running game, though the visit's join is answered again under it", () => {
			serviceControl.reset("deployed");
			const client = specClient();
			const runningGameId = registerSpecServer(client, "job-consent");
			const clock = new FakeScheduler();
			const prompts = new ConsentPrompts({
				client,
				scheduler: clock,
				health: new HealthLog(clock),
				remote: new Instance("RemoteEvent"),
				builtInPrompt: false,
				requested: new Signal<[player: Player]>(),
				guard: (_, fn) => fn(),
			});
			const player = harness.players.add(4401, "Deciding");
			prompts.answered(player, true, runningGameId);
			expect(prompts.answer(player, true)).to.equal(true);
			waitUntil(() => serviceControl.count("consent") === 1, "the decision");
			// The same visit's join answered again under the same server (a re-report after a list left it out).
			prompts.answered(player, true, runningGameId);
			waitSeconds(0.3);
			expect(serviceControl.count("consent")).to.equal(1);
			const recordedFor4401 = deskControl.consents().filter((consent) => consent.userId === "4401");
			expect(recordedFor4401.size()).to.equal(1);
		});
	});

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

	describe("shutdown (issue 33)", () => {
		it("ends the one open support call before the server's end", () => {
			serviceControl.reset("deployed");
			// Roblox may remove the players only after the BindToClose callbacks returned: the spec runs the
			// shutdown itself, with the caller still in the server.
			let close: (() => void) | undefined;
			const started = startRegistered({ clientReportTimeoutSeconds: 0 }, { bindToClose: (fn) => (close = fn) });
			waitUntil(() => started.server.getProfile() === "deployed", "the deployed profile");
			const caller = join(2801, "Caller");
			waitUntil(() => StaffOps.getSession(caller) !== undefined, "the join");
			const [placed] = StaffOps.requestCall(caller, { type: "support", reason: "I need help" }).await();
			expect(placed).to.equal(true);
			close!();
			// The service's log records a request as it answers: wait for it, with a bound (failed 1 of 3 whole-suite
			// runs when read at once).
			waitUntil(() => serviceControl.count("supportEnd") >= 1, "the support/end in the service's log");
			waitUntil(() => serviceControl.count("endServer") >= 1, "the endServer in the service's log");
			expect(serviceControl.count("supportEnd")).to.equal(1);
			const operations = serviceControl.requests().requests.map((request) => request.operation);
			expect(operations.indexOf("supportEnd") < operations.indexOf("endServer")).to.equal(true);
			const mine = deskControl.tickets().filter((ticket) => tostring(ticket.callerId) === "2801");
			expect(mine[0].status).to.equal("closed");
		});
	});

	describe("joins while the service fails (issue 33)", () => {
		it("sends one probe at a time, not one per waiting player", () => {
			const started = startRegistered({ clientReportTimeoutSeconds: 0 });
			// Each refusal takes a second to come back, so the four are all sent before the first fails, however busy the
			// machine (a refusal that came back first would hold the others back as waiting for a probe already).
			serviceControl.fault({ operation: "playerJoin", status: 503, latencyMs: 1000 });
			for (let userId = 2901; userId <= 2904; userId++) harness.players.add(userId);
			// The four go out together and fail: the queue is failing, and every join waits for a probe.
			waitForFailures(started.server, "joins", 4);
			waitUntil(() => serviceControl.count("playerJoin") === 4, "the four failed joins in the service's log");
			serviceControl.clearRequests();
			// Past every backoff at once: the waiting joins may go out, but only as one probe.
			started.clock.advance(61);
			// The service logs a request when it answers (a second later here): wait for the first, then for long
			// enough that any sent beside it would be logged too.
			waitUntil(() => serviceControl.count("playerJoin") >= 1, "the probe in the service's log");
			waitSeconds(1.5);
			expect(serviceControl.count("playerJoin")).to.equal(1);
		});
	});
};
