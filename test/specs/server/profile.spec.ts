import { checkConfig } from "../../../src/server/configCheck";
import { StaffOps } from "../../../src/server";
import { harness } from "../../support/harness";
import { cleanUp, join } from "./support";
import { waitUntil } from "../../support/waits";
import { ONE_SYNC, run, startAgainstFake } from "./deployedFake";

// The service profile (issue 22): auto-detected from the registration answer; what the deployed profile turns on.

export = () => {
	afterEach(() => cleanUp());

	describe("service profile", () => {
		it("auto recognises the deployed service and turns leaves and the sync on", () => {
			const started = startAgainstFake();
			expect(StaffOps.getProfile()).to.equal("deployed");
			expect(started.server.getRegistrationFacts().privacy).never.to.equal(undefined);
			const player = join(1001);
			waitUntil(() => StaffOps.getSession(player) !== undefined, "the join");
			harness.players.remove(player);
			waitUntil(() => started.fake.to("/activity/playerLeave/v2").size() === 1, "the leave");
			run(started, ONE_SYNC);
			expect(started.fake.to("/activity/sendData").size()).to.equal(1);
		});

		it("auto keeps the interface profile when the answer lacks the deployed fields", () => {
			const started = startAgainstFake({ heartbeatSeconds: 30 }, false);
			expect(StaffOps.getProfile()).to.equal("interface");
			const player = join(1001);
			waitUntil(() => StaffOps.getSession(player) !== undefined, "the join");
			expect(started.fake.to("/activity/playerJoin")[0].body.datetime).to.equal(undefined);
			harness.players.remove(player);
			run(started, 31);
			expect(started.fake.to("/activity/playerLeave/v2").size()).to.equal(0);
			expect(started.fake.to("/activity/sendData").size()).to.equal(0);
			expect(started.fake.to("/games/running").size()).to.equal(1);
		});

		it("a setting the developer made false stays false with the deployed profile", () => {
			const started = startAgainstFake({ sessions: { reportLeaves: false } });
			const player = join(1001);
			waitUntil(() => StaffOps.getSession(player) !== undefined, "the join");
			harness.players.remove(player);
			run(started, 2);
			expect(started.fake.to("/activity/playerLeave/v2").size()).to.equal(0);
		});

		it("joins carry datetime (Unix ms), userKey and displayName, never groupRank", () => {
			const started = startAgainstFake();
			const before = DateTime.now().UnixTimestampMillis;
			const player = join(1001);
			waitUntil(() => StaffOps.getSession(player) !== undefined, "the join");
			const body = started.fake.to("/activity/playerJoin")[0].body;
			expect(body.userKey).to.equal("1001");
			expect(body.displayName).to.equal(player.DisplayName);
			expect(body.groupRank).to.equal(undefined);
			const datetime = body.datetime as number;
			expect(datetime >= before - 1000 && datetime <= DateTime.now().UnixTimestampMillis).to.equal(true);
		});

		it("a banned player kicked at join gets one leave", () => {
			const started = startAgainstFake();
			started.fake.banned.add(6666);
			const player = join(6666);
			waitUntil(() => harness.players.kickMessage(player) !== undefined, "the ban kick");
			waitUntil(() => started.fake.to("/activity/playerLeave/v2").size() === 1, "the leave");
			run(started, 30);
			const leaves = started.fake.to("/activity/playerLeave/v2");
			expect(leaves.size()).to.equal(1);
			expect(leaves[0].body.playerId).to.equal("6666");
		});

		it("checks the setting", () => {
			expect(
				checkConfig({ baseUrl: "https://x.example", apiKey: "k-123456789", serviceProfile: "bogus" }),
			).to.equal('config.serviceProfile must be "auto", "deployed" or "interface"');
			expect(checkConfig({ baseUrl: "https://x.example", apiKey: "k-123456789", sync: "yes" })).to.equal(
				"config.sync must be true or false",
			);
		});
	});
};
