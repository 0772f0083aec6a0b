import { StaffOps } from "../../../src/server";
import { statusOf } from "../../../src/server/status";
import type { StaffOpsStatus } from "../../../src/server/status";
import type { FailureMeaning } from "../../../src/api/failurePolicy";
import type { SignalConnection } from "../../../src/shared/signal";
import { serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { cleanUp, freshStart, linesWith, startRegistered, startStaffOps, waitForFailures, warnings } from "./support";

/** The status as one word, with the reason of `degraded`. */
function word(status: StaffOpsStatus): string {
	return status.reason !== undefined ? `${status.state}:${status.reason}` : status.state;
}

// Health for game code: StaffOps.getStatus() and StaffOps.statusChanged, driven by the reference service's faults.
export = () => {
	let seen = new Array<string>();
	let connection: SignalConnection | undefined;
	beforeEach(() => {
		freshStart();
		seen = [];
		connection = StaffOps.statusChanged.Connect((status) => seen.push(word(status)));
	});
	afterEach(() => {
		connection?.Disconnect();
		cleanUp();
	});

	describe("StaffOps status", () => {
		it("is stopped before start, starting until registered, then running; stop says stopped", () => {
			expect(word(StaffOps.getStatus())).to.equal("stopped");
			const started = startStaffOps();
			expect(seen.join(",")).to.equal("starting");
			waitUntil(() => started.server.isRegistered(), "registration");
			waitSeconds(0.05);
			expect(word(StaffOps.getStatus())).to.equal("running");
			StaffOps.stop();
			waitSeconds(0.05);
			expect(seen.join(",")).to.equal("starting,running,stopped");
			expect(word(StaffOps.getStatus())).to.equal("stopped");
		});

		it("turns degraded (unreachable) once while the service answers 503, and running when it recovers", () => {
			serviceControl.fault({ operation: "*", status: 503 });
			const started = startStaffOps();
			for (let failures = 1; failures <= 4; failures++) {
				waitForFailures(started.server, "register", failures);
				started.clock.advance(60);
			}
			waitForFailures(started.server, "register", 5);
			expect(word(StaffOps.getStatus())).to.equal("degraded:unreachable");
			expect(StaffOps.getStatus().area).to.equal("register");
			// Five failures, one transition: the status follows the warn-once record, not every failure.
			expect(seen.join(",")).to.equal("starting,degraded:unreachable");
			serviceControl.clearFaults();
			started.clock.advance(60);
			waitUntil(() => started.server.isRegistered(), "registration after the outage");
			waitSeconds(0.05);
			expect(seen.join(",")).to.equal("starting,degraded:unreachable,running");
		});

		it("turns degraded when heartbeats fail after registration, and running again when they reach the service", () => {
			const started = startRegistered();
			waitSeconds(0.05);
			serviceControl.fault({ operation: "getRunningGame", status: 503 });
			started.clock.advance(60);
			waitForFailures(started.server, "heartbeats", 1);
			expect(word(StaffOps.getStatus())).to.equal("degraded:unreachable");
			expect(StaffOps.getStatus().area).to.equal("heartbeat");
			serviceControl.clearFaults();
			const before = serviceControl.count("getRunningGame");
			started.clock.advance(60);
			waitUntil(() => serviceControl.count("getRunningGame") > before, "the next heartbeat");
			waitUntil(() => StaffOps.getStatus().state === "running", "running again");
			expect(seen.join(",")).to.equal("starting,running,degraded:unreachable,running");
		});

		it("says keyRefused while the service refuses the key (401), and running once it accepts it", () => {
			serviceControl.fault({ operation: "createServer", status: 401 });
			const started = startStaffOps();
			waitForFailures(started.server, "register", 1);
			expect(word(StaffOps.getStatus())).to.equal("keyRefused");
			expect(linesWith(warnings(), "refused the API key").size()).to.equal(1);
			serviceControl.clearFaults();
			started.clock.advance(60);
			waitUntil(() => started.server.isRegistered(), "registration once the key is accepted");
			waitSeconds(0.05);
			expect(seen.join(",")).to.equal("starting,keyRefused,running");
		});

		it("reads one status from many failing areas: a refused key first, then unreachable, a missing route, refusals", () => {
			const of = (failures: Record<string, FailureMeaning>, registered = true) => {
				const map = new Map<string, FailureMeaning>();
				for (const [area, meaning] of pairs(failures)) map.set(area, meaning);
				return word(statusOf({ stopped: false, registered, gaveUp: false, failures: map }));
			};
			expect(of({})).to.equal("running");
			expect(of({}, false)).to.equal("starting");
			expect(of({ sync: "no-route" })).to.equal("degraded:routeMissing");
			expect(of({ sync: "no-route", joins: "transient" })).to.equal("degraded:unreachable");
			expect(of({ joins: "refused", leaves: "unknown" })).to.equal("degraded:unreachable");
			expect(of({ joins: "acted" })).to.equal("degraded:refused");
			expect(of({ sync: "bad-key", joins: "transient" })).to.equal("keyRefused");
			expect(word(statusOf({ stopped: false, registered: false, gaveUp: true, failures: new Map() }))).to.equal(
				"degraded:refused",
			);
			expect(word(statusOf({ stopped: true, registered: true, gaveUp: false, failures: new Map() }))).to.equal(
				"stopped",
			);
		});
	});
};
