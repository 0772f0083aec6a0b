import { StaffOps } from "../../../src/server";
import type { StaffOpsConfig } from "../../../src/server/config";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { cleanUp, freshStart, join, joinsOf, linesWith, report, startRegistered, warnings } from "./support";

// Issue 32, point 7: a bad optional setting falls back to its default with one warning; only what StaffOps cannot
// work without (the address, the key) stops it. Counted at the service and at the player.
export = () => {
	beforeEach(() => freshStart());
	afterEach(() => cleanUp());

	describe("a bad optional setting fails safe (issue 32, point 7)", () => {
		it("runs on heartbeatSeconds = 2 with one warning: the heartbeat at 60 s, and banned players are kicked", () => {
			const started = startRegistered({ heartbeatSeconds: 2 });
			const lines = warnings();
			expect(lines.size()).to.equal(1);
			expect(
				linesWith(
					lines,
					"config.heartbeatSeconds must be a number from 5 to 600; StaffOps uses its default (60)",
				).size(),
			).to.equal(1);
			const banned = join(666, "Exploiter");
			report(started, banned, { platform: "Desktop", tzOffset: "+00:00" });
			waitUntil(() => harness.players.kickMessage(banned) !== undefined, "the ban kick");
			expect(harness.players.kickMessage(banned)).to.equal("You are banned from this experience: Exploiting");
			expect(joinsOf(666).size()).to.equal(1);
			// The heartbeat keeps its default: nothing at 2 s, nor at 59 s; one read at 60 s.
			started.clock.advance(59);
			waitSeconds(0.05);
			expect(serviceControl.count("getRunningGame")).to.equal(0);
			started.clock.advance(1);
			waitUntil(() => serviceControl.count("getRunningGame") === 1, "the heartbeat at 60 s");
			expect(warnings().size()).to.equal(1);
		});

		it("names each bad optional setting once and keeps the good ones", () => {
			const started = startRegistered({
				kickMessage: "Gone: {reason}",
				callSyncSeconds: 99,
				sessions: "on" as unknown as StaffOpsConfig["sessions"],
			});
			const lines = warnings();
			expect(lines.size()).to.equal(2);
			expect(linesWith(lines, "config.callSyncSeconds must be a number from 2 to 10").size()).to.equal(1);
			expect(linesWith(lines, "config.sessions must be").size()).to.equal(1);
			const banned = join(666, "Exploiter");
			report(started, banned, { platform: "Desktop", tzOffset: "+00:00" });
			waitUntil(() => harness.players.kickMessage(banned) !== undefined, "the ban kick");
			expect(harness.players.kickMessage(banned)).to.equal("Gone: Exploiting");
		});

		it("stays off, with one warning, only without a usable address or key", () => {
			const base = { baseUrl: harness.serviceUrl, apiKey: harness.serviceKey, heartbeatSeconds: 2 };
			for (const config of [
				{ ...base, baseUrl: "http://staff.example.com" },
				{ ...base, baseUrl: undefined },
				{ ...base, apiKey: "" },
			]) {
				harness.clearOutput();
				expect(StaffOps.start(config as unknown as StaffOpsConfig)).to.equal(undefined);
				const lines = warnings();
				expect(lines.size()).to.equal(1);
				expect(linesWith(lines, "; StaffOps is not running").size()).to.equal(1);
			}
			join(666, "Exploiter");
			waitSeconds(0.05);
			expect(serviceControl.count("createServer") + serviceControl.count("playerJoin")).to.equal(0);
		});
	});
};
