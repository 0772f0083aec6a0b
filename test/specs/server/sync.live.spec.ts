import { HttpService } from "@rbxts/services";
import { StaffOps } from "../../../src/server";
import { SYNC_IDLE_SECONDS } from "../../../src/server/features/presence/sync";
import { harness } from "../../support/harness";
import { LoggedRequest, serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { deskControl } from "../../support/deskControl";
import { cleanUp, freshStart, nextSync, present, startDeployed, Started, syncAfter, warnings } from "./support";

// The deployed profile's sync (issue 22) against the reference service's deployed profile itself, not the in-process
// fake of sync.spec.ts: the body that reaches it, a dashboard kick through its control API, a lost answer
// (`drop-after`), the roster, and the dedup of session events across an unknown outcome. The sync runs on the spec's
// fake clock; each request and answer is real.

function queueKick(started: Started, player: Player, message: string): void {
	deskControl.queueAction(started.server.getRunningGameId()!, "kick", player.UserId, message);
}

function sendDataRequests(): Array<LoggedRequest> {
	return serviceControl.requests().requests.filter((request) => request.operation === "sendData");
}

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUp());
	afterAll(() => serviceControl.reset());

	describe("the sync against the reference service's deployed profile", () => {
		it("never sends a players field, and every body names this server", () => {
			const started = startDeployed();
			present([2401, 2402]);
			for (let i = 0; i < 3; i++) syncAfter(started, SYNC_IDLE_SECONDS);
			const sent = sendDataRequests();
			expect(sent.size()).to.equal(3);
			for (const request of sent) {
				const body = request.body as { players?: unknown; gameId?: unknown };
				expect(request.status).to.equal(200);
				expect(body.players).to.equal(undefined);
				expect(body.gameId).to.equal(started.server.getRunningGameId());
			}
		});

		it("a kick queued on the dashboard kicks the player within one sync interval, once", () => {
			const started = startDeployed();
			const [target, other] = present([2411, 2412]);
			const kicks = new Array<string>();
			const connection = StaffOps.dashboardKick.Connect((player, message) =>
				kicks.push(`${player.UserId} ${message}`),
			);
			queueKick(started, target, "Rule 3, sorry");
			syncAfter(started, SYNC_IDLE_SECONDS);
			waitUntil(() => harness.players.kickMessage(target) !== undefined, "the kick");
			// Two more syncs: the action is handed over at most once, and never acted on twice.
			syncAfter(started, SYNC_IDLE_SECONDS);
			syncAfter(started, SYNC_IDLE_SECONDS);
			waitSeconds(0.2);
			connection.Disconnect();
			const { queued, delivered } = deskControl.actions(started.server.getRunningGameId()!);
			expect(queued.size()).to.equal(0);
			expect(delivered.size()).to.equal(1);
			expect(delivered[0].fault).to.equal(undefined);
			expect(harness.players.kickMessage(target)).to.equal("Rule 3, sorry");
			expect(harness.players.kickMessage(other)).to.equal(undefined);
			expect(kicks.size()).to.equal(1);
			expect(kicks[0]).to.equal("2411 Rule 3, sorry");
			expect(started.server.diagnostics().dashboardActions.kick).to.equal(1);
		});

		it("a drop-after on sendData loses the handed-over kick; the library counts the failed sync", () => {
			// The library cannot know that the lost answer carried actions (it never saw it): what it counts and
			// prints is the sync with an unknown outcome. The service's own log says the kick went out with it.
			const started = startDeployed();
			const [target] = present([2421]);
			serviceControl.fault({ operation: "sendData", kind: "drop-after", times: 1 });
			queueKick(started, target, "lost with its answer");
			syncAfter(started, SYNC_IDLE_SECONDS);
			expect(started.server.diagnostics().presence.sync.failures).to.equal(1);
			expect(
				warnings()
					.filter((line) => line.find("syncs are failing", 1, true)[0] !== undefined)
					.size(),
			).to.equal(1);
			nextSync(started);
			syncAfter(started, SYNC_IDLE_SECONDS);
			waitSeconds(0.2);
			const { queued, delivered } = deskControl.actions(started.server.getRunningGameId()!);
			expect(queued.size()).to.equal(0);
			expect(delivered.size()).to.equal(1);
			expect(delivered[0].fault).to.equal("drop-after");
			const sent = sendDataRequests();
			expect(sent[0].status).to.equal(0);
			expect(sent[sent.size() - 1].status).to.equal(200);
			expect(harness.players.kickMessage(target)).to.equal(undefined);
			expect(started.server.diagnostics().dashboardActions.kick).to.equal(0);
		});

		it("a join after a sync keeps everyone in the running game (no roster removal)", () => {
			const started = startDeployed();
			present([2431, 2432]);
			syncAfter(started, SYNC_IDLE_SECONDS);
			present([2433]);
			syncAfter(started, SYNC_IDLE_SECONDS);
			syncAfter(started, SYNC_IDLE_SECONDS);
			const records = serviceControl.records();
			const server = records.servers.find(
				(candidate) => candidate.runningGameId === started.server.getRunningGameId(),
			);
			expect(server).never.to.equal(undefined);
			for (const userId of ["2431", "2432", "2433"]) {
				expect(server!.players.includes(userId)).to.equal(true);
				expect(records.openSessionsByUser[userId]).to.equal(1);
			}
		});

		it("session events reach the service once each, also when an answer was lost and they went again", () => {
			const started = startDeployed();
			const [player] = present([2441]);
			const sessionId = StaffOps.getSession(player)?.sessionId;
			expect(sessionId).never.to.equal(undefined);
			const events = started.server.features.presence.events;
			events.add({ type: "idle", userId: 2441, sessionId: sessionId!, datetime: 1_700_000_100_000 });
			events.add({ type: "active", userId: 2441, sessionId: sessionId!, datetime: 1_700_000_160_000 });
			serviceControl.fault({ operation: "sendData", kind: "drop-after", times: 1 });
			syncAfter(started, SYNC_IDLE_SECONDS);
			// The service stored both, but the library never heard: the next sync carries them again.
			expect(deskControl.sessionEvents(sessionId!).size()).to.equal(2);
			nextSync(started);
			const sent = sendDataRequests();
			expect(sent.size()).to.equal(2);
			const carried = sent.map((request) => HttpService.JSONEncode((request.body as { events: unknown }).events));
			expect(carried[1]).to.equal(carried[0]);
			syncAfter(started, SYNC_IDLE_SECONDS);
			const stored = deskControl.sessionEvents(sessionId!);
			expect(stored.size()).to.equal(2);
			expect(stored.filter((event) => event.type === "idle").size()).to.equal(1);
			expect(stored.filter((event) => event.type === "active").size()).to.equal(1);
			const last = sendDataRequests()[2].body as { events: Array<unknown> };
			expect(last.events.size()).to.equal(0);
		});
	});
};
