import type { StaffOpsApiClient } from "../../../src/api/apiClient";
import type { RunningGameAnswer } from "../../../src/api/resources/games";
import { StaffOps } from "../../../src/server";
import { RequestBudget } from "../../../src/transport/budget";
import { FakeScheduler } from "../../support/fakes";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import {
	alterAnswers,
	cleanUp,
	freshStart,
	heartbeatsLanded,
	join,
	joinsOf,
	linesWith,
	report,
	specClient,
	startRegistered,
	startStaffOps,
	waitForFailures,
	warnings,
} from "./support";

// Joins, bans and heartbeats that planted bugs once passed (issue 26, point 6): each spec counts what reached the
// service, the kicks or the signals, so it fails when the behaviour it names breaks.

/** A spec client whose running-game reads answer without any player list (neither `players` nor the game's). */
function listingNothing(): StaffOpsApiClient {
	const client = specClient();
	const games = client.games;
	(client as unknown as { games: typeof games }).games = {
		getRunning(id, options) {
			return games.getRunning(id, options).andThen((answer): RunningGameAnswer => ({
				success: true,
				runningGame: { ...answer.runningGame!, players: undefined },
			}));
		},
	};
	return client;
}

/** Advances `clock` one second at a time (a little real time each) until `done`, at most `steps` times. */
function advanceUntil(clock: FakeScheduler, done: () => boolean, steps: number): void {
	for (let step = 0; step < steps && !done(); step++) {
		clock.advance(1);
		waitSeconds(0.03);
	}
}

export = () => {
	beforeEach(() => freshStart());
	afterEach(() => cleanUp());

	describe("joins whose outcome is unknown or delayed", () => {
		it("reads the player list before sending a join again after a 500, a 502 or a 504 (never re-sent blindly)", () => {
			// No heartbeat in the spec's minutes: every read counted is the join's check.
			const started = startRegistered({ heartbeatSeconds: 600 });
			let userId = 2600;
			let failures = 0;
			for (const status of [500, 502, 504]) {
				userId += 1;
				const readsBefore = serviceControl.count("getRunningGame");
				const joinsBefore = serviceControl.count("playerJoin");
				serviceControl.fault({ operation: "playerJoin", status, times: 1 });
				const player = join(userId);
				report(started, player, { platform: "Phone", tzOffset: "+00:00" });
				failures += 1;
				waitForFailures(started.server, "joins", failures);
				advanceUntil(started.clock, () => joinsOf(userId).size() === 1, 120);
				expect(joinsOf(userId).size()).to.equal(1);
				// Reads of the list told the join had not landed (the first, then two that cannot predate the join,
				// 10 s apart: the unknownJoins specs); only then did it go out again.
				expect(serviceControl.count("getRunningGame") - readsBefore).to.equal(3);
				expect(serviceControl.count("playerJoin") - joinsBefore).to.equal(2);
				const operations = serviceControl.requests().requests.map((request) => request.operation);
				expect(operations[operations.size() - 1]).to.equal("playerJoin");
				expect(operations[operations.size() - 2]).to.equal("getRunningGame");
			}
		});

		it("retries joins that waited too long for the request budget, until every one lands", () => {
			const clock = new FakeScheduler();
			// One request a second, and a request gives up its turn after half a second: joins wait longer.
			const budget = new RequestBudget({ perMinute: 60, burst: 1, maxWait: 0.5 }, clock);
			const started = startStaffOps({ budget }, { scheduler: clock });
			advanceUntil(clock, () => started.server.isRegistered(), 10);
			const players = [join(2611), join(2612), join(2613)];
			for (const player of players) report(started, player, { platform: "Desktop", tzOffset: "+01:00" });
			advanceUntil(clock, () => players.every((player) => joinsOf(player.UserId).size() === 1), 300);
			for (const player of players) expect(joinsOf(player.UserId).size()).to.equal(1);
			expect(serviceControl.count("playerJoin")).to.equal(3);
			expect(linesWith(warnings(), "refused a join").size()).to.equal(0);
		});
	});

	describe("heartbeats and players the service does not list", () => {
		it("does not report a banned player who stays (kicking off) again on any heartbeat", () => {
			const started = startRegistered({ kickBanned: false });
			const banned = join(666, "Exploiter");
			const other = join(2621);
			report(started, banned, { platform: "Desktop", tzOffset: "+00:00" });
			report(started, other, { platform: "Desktop", tzOffset: "+00:00" });
			waitUntil(() => joinsOf(666).size() === 1 && joinsOf(2621).size() === 1, "the joins");
			heartbeatsLanded(started, 3, 60);
			// The service never lists a banned player; he is still here, and still not reported again.
			expect(banned.Parent).to.be.ok();
			expect(serviceControl.count("getRunningGame")).to.equal(3);
			expect(joinsOf(666).size()).to.equal(1);
			expect(serviceControl.count("playerJoin")).to.equal(2);
		});

		it("reports nobody again when the running game's answer has no player list at all (a lone player)", () => {
			const started = startRegistered({}, { client: listingNothing() });
			const player = join(2631);
			report(started, player, { platform: "Phone", tzOffset: "+00:00" });
			waitUntil(() => StaffOps.getSession(player) !== undefined, "the join");
			heartbeatsLanded(started, 3, 60);
			expect(serviceControl.count("getRunningGame")).to.equal(3);
			expect(serviceControl.count("playerJoin")).to.equal(1);
		});

		it("after a 500 on a join, re-sends nothing while the answers carry no player list", () => {
			const started = startRegistered({}, { client: listingNothing() });
			serviceControl.fault({ operation: "playerJoin", status: 500, times: 1 });
			const player = join(2632);
			report(started, player, { platform: "Phone", tzOffset: "+00:00" });
			waitForFailures(started.server, "joins", 1);
			for (let step = 0; step < 30; step++) {
				started.clock.advance(5);
				waitSeconds(0.03);
			}
			// Reads went out to look, but no list says the join is missing: it is not sent again.
			expect(serviceControl.count("getRunningGame") >= 2).to.equal(true);
			expect(serviceControl.count("playerJoin")).to.equal(1);
		});

		it("fires staffJoined and playerBanned once per player, also after the service forgot the server", () => {
			const started = startRegistered({ kickBanned: false });
			const staffSeen = new Array<number>();
			const bannedSeen = new Array<number>();
			const staffListening = StaffOps.staffJoined.Connect((player) => staffSeen.push(player.UserId));
			const bannedListening = StaffOps.playerBanned.Connect((player) => bannedSeen.push(player.UserId));
			const staff = join(1002, "HeadModHana");
			const banned = join(666, "Exploiter");
			report(started, staff, { platform: "Desktop", tzOffset: "+00:00" });
			report(started, banned, { platform: "Desktop", tzOffset: "+00:00" });
			waitUntil(() => joinsOf(1002).size() === 1 && joinsOf(666).size() === 1, "the joins");
			serviceControl.forget(started.server.getInternalGameId()!);
			started.clock.advance(60); // the heartbeat's read answers 404: register again, report again
			waitUntil(() => joinsOf(1002).size() === 2, "the staff member reported again");
			waitSeconds(0.1);
			staffListening.Disconnect();
			bannedListening.Disconnect();
			expect(serviceControl.count("createServer")).to.equal(2);
			// The banned player's answer stands: not reported again, not announced or kicked again.
			expect(joinsOf(666).size()).to.equal(1);
			expect(staffSeen.size()).to.equal(1);
			expect(bannedSeen.size()).to.equal(1);
		});
	});

	describe("kick messages", () => {
		it("kicks with the default text when kickMessage is empty", () => {
			const started = startRegistered({ kickMessage: "" });
			const banned = join(666, "Exploiter");
			report(started, banned, { platform: "Desktop", tzOffset: "+00:00" });
			waitUntil(() => harness.players.kickMessage(banned) !== undefined, "the kick");
			expect(harness.players.kickMessage(banned)).to.equal("You are banned from this experience: Exploiting");
		});

		it("puts a ban reason containing % into the template as written, without a warning", () => {
			const client = alterAnswers(specClient(), {
				reportJoin: (answer) => ({ ...answer, reason: "100% sure: %1 and %% in a reason" }),
			});
			const started = startRegistered({ kickMessage: "Banned: {reason}. Appeal at example.com" }, { client });
			const banned = join(666, "Exploiter");
			report(started, banned, { platform: "Desktop", tzOffset: "+00:00" });
			waitUntil(() => harness.players.kickMessage(banned) !== undefined, "the kick");
			expect(harness.players.kickMessage(banned)).to.equal(
				"Banned: 100% sure: %1 and %% in a reason. Appeal at example.com",
			);
			expect(linesWith(warnings(), "kickMessage failed").size()).to.equal(0);
		});
	});
};
