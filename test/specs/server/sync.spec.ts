import { SYNC_FAST_SECONDS, SYNC_IDLE_SECONDS } from "../../../src/server/features/presence/sync";
import { StaffOps } from "../../../src/server";
import { cleanUp, join } from "./support";
import { waitUntil } from "../../support/waits";
import { FakeStarted, ONE_SYNC, run, startAgainstFake } from "./deployedFake";

// The deployed profile's one sync (issue 22): what reaches the service, and what it does under failure. Against an
// in-process fake of the deployed routes; the live-service versions wait for the reference service's sendData.

function syncs(started: FakeStarted) {
	return started.fake.to("/activity/sendData");
}

function joined(started: FakeStarted, userIds: Array<number>): Array<Player> {
	const players = userIds.map((userId) => join(userId));
	waitUntil(() => players.every((player) => StaffOps.getSession(player) !== undefined), "the joins");
	return players;
}

export = () => {
	afterEach(() => cleanUp());

	describe("the sync (deployed profile)", () => {
		it("replaces the heartbeat and never sends a players field", () => {
			const started = startAgainstFake();
			joined(started, [1001, 2001]);
			started.server.features.presence.events.add({
				type: "idle",
				userId: 1001,
				sessionId: "s-1001",
				datetime: 1_700_000_000_000,
			});
			run(started, 120);
			const sent = syncs(started);
			// One every idle interval, or one more (the last may fall just inside the 120 s).
			const intervals = math.floor(120 / SYNC_IDLE_SECONDS);
			expect(sent.size() >= intervals && sent.size() <= intervals + 1).to.equal(true);
			for (const request of sent) {
				expect(request.body.players).to.equal(undefined);
				expect(request.body.gameId).to.equal("running-1");
				expect(typeIs(request.body.events, "table")).to.equal(true);
			}
			const first = (sent[0].body.events as Array<{ sessionIds: { userGameSession: string }; user: string }>)[0];
			expect(first.sessionIds.userGameSession).to.equal("s-1001");
			expect(first.user).to.equal("1001");
			expect((sent[1].body.events as Array<unknown>).size()).to.equal(0);
			expect(started.fake.to("/games/running").size()).to.equal(0);
			expect(started.fake.to("/activity/getServer").size()).to.equal(0);
		});

		it("syncs every idle interval, and every 3 s while a call is open", () => {
			const started = startAgainstFake();
			run(started, 60);
			const idle = syncs(started);
			expect(idle[1].at - idle[0].at).to.equal(SYNC_IDLE_SECONDS);
			started.server.features.presence.sync.setFast(true);
			run(started, 30);
			const all = syncs(started);
			expect(all[all.size() - 1].at - all[all.size() - 2].at).to.equal(SYNC_FAST_SECONDS);
		});

		it("syncs every callSyncSeconds while a call is open when the game sets it", () => {
			const started = startAgainstFake({ callSyncSeconds: 2.5 });
			run(started, 30);
			started.server.features.presence.sync.setFast(true);
			run(started, 30);
			const all = syncs(started);
			// The last 10 syncs (all within the 30 s with the call open) are 2.5 s apart, not 3.
			expect(all.size() >= 12).to.equal(true);
			for (let i = all.size() - 10; i < all.size(); i++) expect(all[i].at - all[i - 1].at).to.equal(2.5);
		});

		it("after an unknown outcome sends the same events again, and no chat events blindly", () => {
			const started = startAgainstFake();
			const outcomes = new Array<string>();
			let chatLeft = 1;
			started.server.features.presence.sync.setChatOutbox({
				take() {
					if (chatLeft === 0) return undefined;
					chatLeft -= 1;
					return [{ type: "message", ticketId: "t", id: "m1", message: "help" }];
				},
				settled(outcome) {
					outcomes.push(outcome);
				},
			});
			started.server.features.presence.events.add({
				type: "typing",
				userId: 9,
				sessionId: "s-9",
				datetime: 1_700_000_001_000,
			});
			started.fake.fail("/activity/sendData", { status: 500 });
			run(started, ONE_SYNC);
			run(started, 5);
			waitUntil(() => syncs(started).size() >= 2, "the second sync");
			const [first, second] = [syncs(started)[0], syncs(started)[1]];
			expect(first.body.chatEvents).never.to.equal(undefined);
			expect(second.body.chatEvents).to.equal(undefined);
			expect(outcomes[0]).to.equal("unknown");
			expect(started.fake.JSONEncode(second.body.events)).to.equal(started.fake.JSONEncode(first.body.events));
			run(started, ONE_SYNC);
			const third = syncs(started)[2];
			expect((third.body.events as Array<unknown>).size()).to.equal(0);
		});

		it("a 404 for the route is probed again at the longest backoff and resumes by itself", () => {
			const started = startAgainstFake();
			const missing = { status: 404, body: { message: "Cannot POST", error: "Not Found", statusCode: 404 } };
			started.fake.fail("/activity/sendData", missing, 2);
			run(started, ONE_SYNC);
			expect(syncs(started).size()).to.equal(1);
			run(started, 59);
			expect(syncs(started).size()).to.equal(1);
			run(started, 2);
			expect(syncs(started).size()).to.equal(2);
			run(started, 61 + ONE_SYNC * 3);
			expect(syncs(started).size() >= 5).to.equal(true);
			expect(started.fake.to("/activity/createServer").size()).to.equal(1);
		});

		it("a 404 because the server is forgotten registers again", () => {
			const started = startAgainstFake();
			started.fake.forgotten = true;
			run(started, ONE_SYNC + 1);
			waitUntil(() => started.fake.to("/activity/createServer").size() === 2, "the new registration");
			run(started, ONE_SYNC + 1);
			expect(syncs(started)[syncs(started).size() - 1].body.gameId).to.equal("running-2");
		});

		it("waits for the service's Retry-After before the next sync", () => {
			const started = startAgainstFake();
			started.fake.fail("/activity/sendData", { status: 503, headers: { ["Retry-After"]: "45" } });
			run(started, ONE_SYNC);
			expect(syncs(started).size()).to.equal(1);
			run(started, 44);
			expect(syncs(started).size()).to.equal(1);
			run(started, 2);
			expect(syncs(started).size()).to.equal(2);
		});

		it("at shutdown, a last sync the service refuses goes once and its events are dropped", () => {
			// src/server/sync.ts: a refused sync is not sent again (it would be refused again), the last one included.
			const started = startAgainstFake();
			started.server.features.presence.events.add({
				type: "typing",
				userId: 9,
				sessionId: "s-9",
				datetime: 1_700_000_001_000,
			});
			started.fake.fail("/activity/sendData", { status: 400 }, 5);
			const before = syncs(started).size();
			started.server.shutdown();
			expect(syncs(started).size() - before).to.equal(1);
			expect((syncs(started)[before].body.events as Array<unknown>).size()).to.equal(1);
			expect(started.server.features.presence.events.size()).to.equal(0);
		});

		it("with sync = false keeps the heartbeat instead", () => {
			const started = startAgainstFake({ sync: false, heartbeatSeconds: 30 });
			run(started, 70);
			expect(syncs(started).size()).to.equal(0);
			expect(started.fake.to("/games/running").size()).to.equal(2);
		});
	});
};
