import { StaffOps } from "../../../src/server";
import { ensureRemote } from "../../../src/shared/remotes";
import { SYNC_IDLE_SECONDS } from "../../../src/server/features/presence/sync";
import { harness } from "../../support/harness";
import { waitUntil } from "../../support/waits";
import { cleanUp, join, linesWith, warnings } from "./support";
import { FakeStarted, ONE_SYNC, run, startAgainstFake } from "./deployedFake";

// Issue 33: the sync and the dashboard actions it hands over, where a one-expression bug changed what reached the
// service or the player with every older spec green. Counted at the in-process fake of the deployed routes (what
// it received, on the spec's clock) and at the player's client.

function syncs(started: FakeStarted) {
	return started.fake.to("/activity/sendData");
}

/** Moves the clock `seconds` at once (no timer falls due on the way), then `settle` seconds in small steps. */
function jump(started: FakeStarted, seconds: number, settle = 2): void {
	started.clock.advance(seconds);
	run(started, settle);
}

export = () => {
	beforeEach(() => harness.clearOutput());
	afterEach(() => cleanUp());

	describe("the sync after failures (issue 33)", () => {
		it("goes on syncing after the service refuses one sync with a 400", () => {
			const started = startAgainstFake();
			started.fake.fail("/activity/sendData", { status: 400, body: { success: false, reason: "Bad events" } });
			run(started, ONE_SYNC);
			expect(syncs(started).size()).to.equal(1);
			waitUntil(() => linesWith(warnings(), "the service refused a sync").size() === 1, "the refusal's warning");
			// Two more intervals (and a step of slack for when the refusal was handled): two more syncs.
			run(started, SYNC_IDLE_SECONDS * 2 + 1);
			expect(syncs(started).size()).to.equal(3);
		});

		it("caps the service's Retry-After at 600 s: an hour's Retry-After still syncs again within 10 minutes", () => {
			const started = startAgainstFake();
			started.fake.fail("/activity/sendData", { status: 503, headers: { ["Retry-After"]: "3600" } });
			run(started, ONE_SYNC);
			expect(syncs(started).size()).to.equal(1);
			// Handled (its wait on the clock) before the clock jumps, however slow the machine.
			waitUntil(() => linesWith(warnings(), "syncs are failing").size() === 1, "the failure's warning");
			const failedAt = syncs(started)[0].at;
			jump(started, 590);
			expect(syncs(started).size()).to.equal(1);
			jump(started, 10);
			expect(syncs(started).size()).to.equal(2);
			expect(syncs(started)[1].at - failedAt <= 601).to.equal(true);
		});

		it("times each sync from the start of the last one, so a slow answer does not push the next one later", () => {
			const started = startAgainstFake();
			run(started, ONE_SYNC);
			expect(syncs(started).size()).to.equal(1);
			// Every sync from now on takes 2 s of the clock to answer.
			started.fake.slow.set("/activity/sendData", 2);
			run(started, SYNC_IDLE_SECONDS * 3);
			const sent = syncs(started);
			expect(sent.size() >= 4).to.equal(true);
			for (let i = 2; i < sent.size(); i++) {
				const gap = sent[i].at - sent[i - 1].at;
				// The run's half-second steps: one interval apart, never one interval + 2 s.
				expect(gap >= SYNC_IDLE_SECONDS - 0.01 && gap <= SYNC_IDLE_SECONDS + 0.51).to.equal(true);
			}
		});

		it("after a 404 on the sync, reads the running game back by its internal id", () => {
			const started = startAgainstFake();
			const missing = { status: 404, body: { message: "Cannot POST", error: "Not Found", statusCode: 404 } };
			started.fake.fail("/activity/sendData", missing);
			run(started, ONE_SYNC);
			waitUntil(() => started.fake.to("/games/running/").size() === 1, "the check read");
			expect(started.fake.to("/games/running/")[0].path).to.equal("/games/running/internal-1");
		});
	});

	describe("dashboard actions (issue 33)", () => {
		it("a second shutdown action fires shutdownRequested once and kicks nobody again", () => {
			const started = startAgainstFake();
			const players = [join(1001), join(2001)];
			waitUntil(() => players.every((player) => StaffOps.getSession(player) !== undefined), "the joins");
			let requested = 0;
			let kicks = 0;
			const requests = StaffOps.shutdownRequested.Connect(() => (requested += 1));
			const kicked = StaffOps.dashboardKick.Connect(() => (kicks += 1));
			started.fake.queued.push({ type: "shutdown", message: "Update" });
			run(started, ONE_SYNC);
			waitUntil(() => kicks === 2, "the two kicks");
			started.fake.queued.push({ type: "shutdown", message: "Update again" });
			run(started, ONE_SYNC);
			expect(syncs(started).size()).to.equal(2);
			requests.Disconnect();
			kicked.Disconnect();
			expect(requested).to.equal(1);
			expect(kicks).to.equal(2);
		});

		it("a notification reaches the player's screen filtered for them", () => {
			harness.text.block(["darn"]);
			const started = startAgainstFake();
			const target = join(1001);
			waitUntil(() => StaffOps.getSession(target) !== undefined, "the join");
			const texts = new Array<string>();
			const connection = StaffOps.notified.Connect((_, text) => texts.push(text));
			started.fake.queued.push({ type: "notify", userId: 1001, message: "darn restart soon" });
			run(started, ONE_SYNC);
			waitUntil(() => texts.size() === 1, "the notification");
			connection.Disconnect();
			const shown = harness.players.client(target).received(ensureRemote("Notifications"));
			expect(shown.size()).to.equal(1);
			expect(shown[0][0]).to.equal("#### restart soon");
			expect(texts[0]).to.equal("#### restart soon");
		});
	});
};
