import { StaffOps } from "../../../src/server";
import { SYNC_IDLE_SECONDS } from "../../../src/server/features/presence/sync";
import { harness } from "../../support/harness";
import { LoggedRequest, serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { deskControl } from "../../support/deskControl";
import { cleanUp, freshStart, join, startDeployed } from "./support";

// The deployed profile's last sync at shutdown, against the reference service's deployed profile. Between two syncs
// a session event waits and a dashboard action is queued; the server closes. Without a last sync the event was never
// sent and the action stayed queued for a server that then ended (the soak's deployed mode counted such actions as
// lost). The last sync goes before the server's end, once, and is not retried.

/** The operations the service received, in order. */
function operations(): Array<string> {
	return serviceControl.requests().requests.map((request: LoggedRequest) => request.operation);
}

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUp());
	afterAll(() => serviceControl.reset());

	describe("the deployed profile's last sync at shutdown", () => {
		it("carries the waiting session event and takes the queued action, once, before the server's end", () => {
			const started = startDeployed();
			const player = join(2601, "Closing");
			waitUntil(() => StaffOps.getSession(player) !== undefined, "the join");
			const runningGameId = started.server.getRunningGameId()!;
			const sessionId = StaffOps.getSession(player)!.sessionId!;
			started.clock.advance(SYNC_IDLE_SECONDS);
			waitUntil(() => serviceControl.count("sendData") === 1, "the first sync");
			waitSeconds(0.2);
			const notified = new Array<string>();
			const connection = StaffOps.notified.Connect((target, message) =>
				notified.push(`${target.UserId} ${message}`),
			);
			// Between two syncs: an event waits and the dashboard queues a notification.
			started.server.features.presence.events.add({
				type: "idle",
				userId: 2601,
				sessionId,
				datetime: 1_700_000_100_000,
			});
			deskControl.queueAction(runningGameId, "notify", 2601, "Server restarting");
			const [, finished] = harness.server.close();
			expect(finished).to.equal(true);
			connection.Disconnect();
			const sent = operations();
			const syncs = sent.filter((operation) => operation === "sendData");
			expect(syncs.size()).to.equal(2);
			const lastSync = sent.indexOf("sendData", sent.indexOf("sendData") + 1);
			const serverEnd = sent.indexOf("endServer");
			expect(serverEnd).never.to.equal(-1);
			expect(lastSync < serverEnd).to.equal(true);
			expect(deskControl.sessionEvents(sessionId).size()).to.equal(1);
			const { queued, delivered } = deskControl.actions(runningGameId);
			expect(queued.size()).to.equal(0);
			expect(delivered.size()).to.equal(1);
			// Acted on once: shown, or, because the player had left as the server closed (the harness removes the
			// players after the BindToClose callbacks start, so the answer usually finds them gone), passed on to the
			// game's other servers (cross-server delivery, issue 34) or dropped.
			const counts = started.server.diagnostics().dashboardActions;
			expect(counts.notify + counts.passedOn + counts.dropped).to.equal(1);
			expect(notified.size()).to.equal(counts.notify);
		});

		it("is not retried when it fails, and the server still ends", () => {
			startDeployed();
			const player = join(2611, "Failing");
			waitUntil(() => StaffOps.getSession(player) !== undefined, "the join");
			serviceControl.fault({ operation: "sendData", status: 503, times: 5 });
			const [, finished] = harness.server.close();
			expect(finished).to.equal(true);
			const sent = operations();
			expect(sent.filter((operation) => operation === "sendData").size()).to.equal(1);
			expect(sent.filter((operation) => operation === "endServer").size()).to.equal(1);
		});

		it("is not sent when the sync is turned off", () => {
			startDeployed({ sync: false });
			const player = join(2621, "NoSync");
			waitUntil(() => StaffOps.getSession(player) !== undefined, "the join");
			const [, finished] = harness.server.close();
			expect(finished).to.equal(true);
			expect(serviceControl.count("sendData")).to.equal(0);
		});
	});
};
