import { StaffOps } from "../../../src/server";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { cleanUp, freshStart, join, joinAnswered, linesWith, report, startRegistered, warnings } from "./support";

/** Whether `promise` settles rejected with `words`, within a few seconds. */
function rejectsWith(promise: Promise<unknown>, words: string): boolean {
	let said: unknown;
	promise.catch((reason: unknown) => {
		said = reason;
	});
	waitUntil(() => said !== undefined, "the rejection", 5);
	return said === words;
}

// The `StaffOps` entry, built from the integration's own part and every feature's face (src/server/features/*/face.ts):
// what each function answers when nothing runs, signals that outlive a stop, and StaffOpsServer's getters agreeing.
export = () => {
	beforeEach(() => freshStart());
	afterEach(() => cleanUp());

	describe("StaffOps entry", () => {
		it("answers as documented while StaffOps is not running: false, undefined, a rejection, with one warning each where said", () => {
			const player = join(2701, "Nobody");
			expect(StaffOps.getServer()).to.equal(undefined);
			expect(StaffOps.getStatus().state).to.equal("stopped");
			expect(StaffOps.getClient()).to.equal(undefined);
			expect(StaffOps.getProfile()).to.equal(undefined);
			expect(StaffOps.isStaff(player)).to.equal(false);
			expect(StaffOps.isTracked(player)).to.equal(false);
			expect(StaffOps.getSession(player)).to.equal(undefined);
			expect(StaffOps.getCalls()).to.equal(undefined);
			expect(StaffOps.answerConsent(player, true)).to.equal(false);
			expect(linesWith(warnings(), "answerConsent: no consent prompt is open for Nobody").size()).to.equal(1);
			expect(StaffOps.openCall(player, "call-1")).to.equal(undefined);
			expect(linesWith(warnings(), "openCall: StaffOps is not running").size()).to.equal(1);
			expect(
				rejectsWith(
					StaffOps.requestCall(player, { type: "support", reason: "Help" }),
					"Calling staff is not available right now.",
				),
			).to.equal(true);
			// Nothing reached the service.
			expect(serviceControl.requests().requests.size()).to.equal(0);
		});

		it("keeps a signal connected before the start across a stop and a second start", () => {
			const heard = new Array<number>();
			const connection = StaffOps.staffJoined.Connect((player) => heard.push(player.UserId));
			const first = startRegistered({ clientReportTimeoutSeconds: 0 });
			const [early] = joinAnswered(first, [1002]);
			waitUntil(() => heard.size() === 1, "the first staff join");
			StaffOps.stop();
			harness.players.remove(early);
			const second = startRegistered({ clientReportTimeoutSeconds: 0 });
			expect(second.server).never.to.equal(first.server);
			const staff = join(1003);
			report(second, staff, { platform: "Desktop", tzOffset: "+01:00" });
			waitUntil(() => heard.size() === 2, "the second staff join");
			connection.Disconnect();
			expect(heard.join(",")).to.equal("1002,1003");
		});

		it("gives the same answers through StaffOpsServer's getters as through StaffOps, answerConsent's warning included", () => {
			const started = startRegistered({ clientReportTimeoutSeconds: 0 });
			const [staff, regular] = joinAnswered(started, [1002, 2702]);
			const server = started.server;
			for (const player of [staff, regular]) {
				expect(server.isStaff(player)).to.equal(StaffOps.isStaff(player));
				expect(server.isTracked(player)).to.equal(StaffOps.isTracked(player));
				expect(server.getSession(player)?.sessionId).to.equal(StaffOps.getSession(player)?.sessionId);
			}
			expect(server.isStaff(staff)).to.equal(true);
			expect(server.isStaff(regular)).to.equal(false);
			expect(server.getSession(regular)?.sessionId !== undefined).to.equal(true);
			expect(server.getCalls()).to.equal(StaffOps.getCalls());
			expect(server.getCalls() !== undefined).to.equal(true);
			// No consent question is open for either: both say no, each with its warning, and nothing is sent.
			expect(server.answerConsent(regular, true)).to.equal(false);
			expect(StaffOps.answerConsent(regular, true)).to.equal(false);
			waitSeconds(0.1);
			expect(linesWith(warnings(), `no consent prompt is open for ${regular.Name}`).size()).to.equal(2);
			expect(serviceControl.count("consent")).to.equal(0);
		});
	});
};
