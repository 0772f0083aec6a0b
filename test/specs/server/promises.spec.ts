import type { PlayerJoinAnswer } from "../../../src/api/resources/activity";
import { StaffOps } from "../../../src/server";
import type { StaffOpsConfig } from "../../../src/server/config";
import { ensureRemote } from "../../../src/shared/remotes";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { FakeStarted, ONE_SYNC, run, startAgainstFake } from "./deployedFake";
import {
	alterAnswers,
	cleanUp,
	join,
	linesWith,
	specClient,
	startDeployed,
	startRegistered,
	startStaffOps,
	warnings,
} from "./support";

// Issue 33, point 2: promises of README.md and docs/ that no spec checked (test/promises.md lists every promise and
// the specs that check it). Each spec counts what reached the service (the reference service's log, or the
// in-process fake of the deployed routes) and what the player saw, and was shown to fail with the promise broken.

/** Joins `userId` and waits until the fake answered the join. */
function present(userId: number): Player {
	const player = join(userId);
	waitUntil(() => StaffOps.getSession(player) !== undefined, "the join");
	return player;
}

/** Moves the clock `seconds` at once (a timer due on the way fires once), then settles for 2 s in small steps. */
function jump(started: FakeStarted, seconds: number): void {
	started.clock.advance(seconds);
	run(started, 2);
}

/** The join answers of the reference service, each rewritten by `alter` (the service's privacy modes). */
function joinAnswers(alter: (answer: PlayerJoinAnswer) => Record<string, unknown>) {
	return alterAnswers(specClient(), { reportJoin: (answer) => alter(answer) as unknown as PlayerJoinAnswer });
}

/** Game code asks for a support call for `player`: whether it was placed, and the words meant for the player. */
function requestSupport(player: Player) {
	return StaffOps.requestCall(player, { type: "support", reason: "I need help" }).await();
}

function requestsTo(path: string): number {
	return serviceControl
		.requests()
		.requests.filter((request) => request.path === path)
		.size();
}

export = () => {
	beforeEach(() => harness.clearOutput());
	afterEach(() => cleanUp());

	describe("documented promises", () => {
		describe("what game code gets (README.md#game-integration)", () => {
			it("fires playerReported for every join answer, a ban included", () => {
				const started = startAgainstFake();
				started.fake.banned.add(1002);
				const reported = new Array<string>();
				const connection = StaffOps.playerReported.Connect((player, result) =>
					reported.push(`${player.UserId} banned=${result.banned}`),
				);
				const regular = join(1001);
				const banned = join(1002);
				waitUntil(() => harness.players.kickMessage(banned) !== undefined, "the banned player's kick");
				waitUntil(() => StaffOps.getSession(regular) !== undefined, "the regular join");
				waitSeconds(0.1);
				connection.Disconnect();
				expect(started.fake.to("/activity/playerJoin").size()).to.equal(2);
				table.sort(reported);
				expect(reported.size()).to.equal(2);
				expect(reported[0]).to.equal("1001 banned=false");
				expect(reported[1]).to.equal("1002 banned=true");
			});

			it("gives getSession's ids when the service sent them, and leaves them absent when it did not", () => {
				// docs/game-integration.md "The answer": no invented or empty id stands in for one the service left out.
				// The first join's answer is as sent; the second's lost both ids.
				let answered = 0;
				startRegistered(
					{ clientReportTimeoutSeconds: 0 },
					{
						client: joinAnswers((answer): Record<string, unknown> => {
							answered += 1;
							return answered === 1
								? { ...answer }
								: { ...answer, sessionId: undefined, runningPlayerId: undefined };
						}),
					},
				);
				const withIds = join(2391, "WithIds");
				waitUntil(() => StaffOps.getSession(withIds) !== undefined, "the first join");
				const withoutIds = join(2392, "WithoutIds");
				waitUntil(() => StaffOps.getSession(withoutIds) !== undefined, "the second join");
				const first = StaffOps.getSession(withIds)!;
				expect(typeIs(first.sessionId, "string") && first.sessionId !== "").to.equal(true);
				expect(typeIs(first.runningPlayerId, "string") && first.runningPlayerId !== "").to.equal(true);
				const second = StaffOps.getSession(withoutIds)!;
				expect(second.sessionId).to.equal(undefined);
				expect(second.runningPlayerId).to.equal(undefined);
				expect(second.isStaff).to.equal(false);
			});

			it("gives no server before the start, after a refused configuration and after stop; no profile before registration", () => {
				expect(StaffOps.getServer()).to.equal(undefined);
				const refused = StaffOps.start({ baseUrl: "http://staff.example.com", apiKey: "k" } as StaffOpsConfig);
				expect(refused).to.equal(undefined);
				expect(StaffOps.getServer()).to.equal(undefined);
				serviceControl.fault({ operation: "createServer", status: 503 });
				const started = startStaffOps();
				waitSeconds(0.2);
				expect(started.server.isRegistered()).to.equal(false);
				expect(StaffOps.getServer()).to.equal(started.server);
				expect(StaffOps.getProfile()).to.equal(undefined);
				StaffOps.stop();
				expect(StaffOps.getServer()).to.equal(undefined);
				expect(StaffOps.getProfile()).to.equal(undefined);
				// (No count of the service's requests here: with no player in this spec, a join in its log could only be
				// an earlier spec's request still in flight, which failed 1 of 2 whole-suite runs on a busy machine.
				// That a refused configuration sends nothing is config.spec's.)
			});
		});

		describe("dashboard actions (docs/deployed-service.md#dashboard-actions)", () => {
			it("fires dashboardKick before the kick, with the message filtered for the player", () => {
				harness.text.block(["darn"]);
				const started = startAgainstFake();
				const target = present(1001);
				const seen = new Array<string>();
				const connection = StaffOps.dashboardKick.Connect((player, message) =>
					seen.push(`${message}; kicked yet: ${harness.players.kickMessage(player) !== undefined}`),
				);
				started.fake.queued.push({ type: "kick", userId: 1001, message: "darn cheater" });
				run(started, ONE_SYNC);
				waitUntil(() => harness.players.kickMessage(target) !== undefined, "the kick");
				connection.Disconnect();
				expect(started.fake.to("/activity/sendData").size()).to.equal(1);
				expect(seen.size()).to.equal(1);
				expect(seen[0]).to.equal("#### cheater; kicked yet: false");
				expect(harness.players.kickMessage(target)).to.equal("#### cheater");
			});

			it("with builtInNotifications off, fires notified and shows nothing on the player's screen", () => {
				const started = startAgainstFake({ builtInNotifications: false });
				const target = present(1001);
				const texts = new Array<string>();
				const connection = StaffOps.notified.Connect((player, text) => texts.push(`${player.UserId} ${text}`));
				started.fake.queued.push({ type: "notify", userId: 1001, message: "Server restarts soon" });
				run(started, ONE_SYNC);
				waitUntil(() => texts.size() === 1, "the notification");
				waitSeconds(0.1);
				connection.Disconnect();
				expect(texts[0]).to.equal("1001 Server restarts soon");
				expect(harness.players.client(target).received(ensureRemote("Notifications")).size()).to.equal(0);
			});
		});

		describe("consent and tracking modes (docs/deployed-service.md#consent)", () => {
			beforeEach(() => serviceControl.reset("deployed"));
			afterAll(() => serviceControl.reset());

			it("sends a decision once after a 500, with one warning that the visit counts as not granted", () => {
				const started = startRegistered(
					{ clientReportTimeoutSeconds: 0, consentPrompt: false },
					{ client: joinAnswers((answer) => ({ ...answer, needsConsent: true })) },
				);
				const asked = new Array<Player>();
				const connection = StaffOps.consentRequested.Connect((player) => asked.push(player));
				const player = harness.players.add(2351, "Asked");
				waitUntil(() => asked.size() === 1, "consentRequested");
				connection.Disconnect();
				serviceControl.fault({ operation: "consent", status: 500 });
				expect(StaffOps.answerConsent(player, true)).to.equal(true);
				waitUntil(() => linesWith(warnings(), "counts as not granted").size() === 1, "the warning");
				started.clock.advance(600);
				waitSeconds(0.3);
				expect(requestsTo("/activity/consent")).to.equal(1);
				expect(linesWith(warnings(), "counts as not granted").size()).to.equal(1);
				expect(StaffOps.answerConsent(player, true)).to.equal(false);
				waitSeconds(0.1);
				expect(requestsTo("/activity/consent")).to.equal(1);
			});

			it("ends at leave the session of a tracked:false answer that still carries a sessionId", () => {
				startRegistered(
					{ clientReportTimeoutSeconds: 0, sessions: { reportLeaves: true } },
					{ client: joinAnswers((answer) => ({ ...answer, tracked: false })) },
				);
				const player = harness.players.add(2361, "HalfTracked");
				waitUntil(() => serviceControl.count("playerJoin") === 1, "the join");
				waitSeconds(0.2);
				expect(StaffOps.isTracked(player)).to.equal(true);
				harness.players.remove(player);
				waitSeconds(0.5);
				expect(serviceControl.count("playerLeave")).to.equal(1);
			});

			it("refuses a call for a player the service does not track: no support/create reaches the service", () => {
				startRegistered(
					{ clientReportTimeoutSeconds: 0 },
					{ client: joinAnswers((answer) => ({ ...answer, tracked: false, sessionId: undefined })) },
				);
				waitUntil(() => StaffOps.getProfile() === "deployed", "the deployed profile");
				const player = harness.players.add(2371, "Untracked");
				waitUntil(() => serviceControl.count("playerJoin") === 1, "the join");
				waitSeconds(0.2);
				expect(StaffOps.isTracked(player)).to.equal(false);
				const [placed, words] = requestSupport(player);
				expect(placed).to.equal(false);
				expect(typeIs(words, "string")).to.equal(true);
				expect(StaffOps.openCall(player, "call-closed")).to.equal(undefined);
				waitSeconds(0.2);
				expect(serviceControl.count("supportCreate")).to.equal(0);
			});

			it("with callStaff off, refuses a call from game code: no support/create reaches the service", () => {
				startDeployed({ callStaff: false });
				const caller = join(2381, "Caller");
				waitUntil(() => StaffOps.getSession(caller) !== undefined, "the join");
				const [placed, words] = requestSupport(caller);
				expect(placed).to.equal(false);
				expect(typeIs(words, "string")).to.equal(true);
				waitSeconds(0.2);
				expect(serviceControl.count("supportCreate")).to.equal(0);
			});
		});

		describe("bounds (docs/deployed-service.md, docs/failure-policy.md, docs/game-integration.md)", () => {
			it("keeps at most 200 leaves waiting through an outage and drops the oldest, with one warning", () => {
				const started = startAgainstFake();
				const players = new Array<Player>();
				for (let userId = 3001; userId <= 3206; userId++) players.push(join(userId));
				waitUntil(() => players.every((player) => StaffOps.getSession(player) !== undefined), "206 joins", 20);
				const leaves = "/activity/playerLeave/v2";
				started.fake.fail(leaves, { status: 503 }, 100_000);
				// The first leave fails: the service is failing, so the other 205 wait in the queue.
				harness.players.remove(players[0]);
				waitUntil(() => started.fake.to(leaves).size() === 1, "the first, failing leave");
				waitSeconds(0.1);
				for (let i = 1; i < players.size(); i++) harness.players.remove(players[i]);
				waitSeconds(0.2);
				expect(started.server.diagnostics().sessions.leaves <= 200).to.equal(true);
				expect(linesWith(warnings(), "dropping the oldest").size()).to.equal(1);
				// The service answers again: the leaves go out from the oldest kept one; the 6 oldest never do (3001,
				// the failed first one, was put back at the head of the queue and dropped first).
				const before = started.fake.to(leaves).size();
				started.fake.heal(leaves);
				run(started, 70);
				const after = started.fake.to(leaves).filter((_, index) => index >= before);
				const sent = new Set<string>();
				for (const request of after) sent.add(tostring(request.body.playerId));
				expect(sent.size() > 0).to.equal(true);
				expect(sent.has("3007")).to.equal(true);
				for (let userId = 3001; userId <= 3006; userId++) expect(sent.has(tostring(userId))).to.equal(false);
			});

			/**
			 * The heartbeat's second read answers 503 with `retryAfter`: the reads made by then, `quiet` seconds later, and
			 * 20 s after that.
			 */
			function heartbeatAfter(retryAfter: string, quiet: number): [number, number, number] {
				const started = startAgainstFake({ heartbeatSeconds: 60 }, false);
				jump(started, 61);
				const reads = started.fake.seen.filter((request) => request.path.sub(1, 15) === "/games/running/");
				const path = reads[0].path;
				started.fake.fail(path, { status: 503, headers: { ["Retry-After"]: retryAfter } });
				jump(started, 60);
				const failed = started.fake.to(path).size();
				jump(started, quiet);
				const quietAfter = started.fake.to(path).size();
				jump(started, 20);
				return [failed, quietAfter, started.fake.to(path).size()];
			}

			it("waits the heartbeat's Retry-After of 300 s before reading the running game again", () => {
				const [failed, quiet, after] = heartbeatAfter("300", 285);
				expect(failed).to.equal(2);
				expect(quiet).to.equal(2);
				expect(after).to.equal(3);
			});

			it("waits a heartbeat's Retry-After of an hour only 10 minutes (the cap), then reads again", () => {
				// docs/failure-policy.md "Retry-After" (FP7): honoured up to 10 minutes, like every background task.
				const [failed, quiet, after] = heartbeatAfter("3600", 585);
				expect(failed).to.equal(2);
				expect(quiet).to.equal(2);
				expect(after).to.equal(3);
			});

			it("waits a leave's Retry-After of 300 s before sending it again", () => {
				const started = startAgainstFake();
				const player = present(1001);
				const leaves = "/activity/playerLeave/v2";
				started.fake.fail(leaves, { status: 503, headers: { ["Retry-After"]: "300" } });
				harness.players.remove(player);
				waitUntil(() => started.fake.to(leaves).size() === 1, "the failing leave");
				jump(started, 290);
				expect(started.fake.to(leaves).size()).to.equal(1);
				jump(started, 20);
				expect(started.fake.to(leaves).size()).to.equal(2);
				expect(tostring(started.fake.to(leaves)[1].body.playerId)).to.equal("1001");
			});

			it("waits the join check's Retry-After of 300 s before reading the player list again", () => {
				// docs/failure-policy.md "Retry-After" (FP8): a join whose outcome is unknown (a 500) is settled by a read
				// of the player list; that read answered 503 with Retry-After: 300 is not repeated before 300 s.
				const started = startAgainstFake();
				const listReads = () => started.fake.to("/games/running/").size();
				started.fake.fail("/activity/playerJoin", { status: 500 });
				started.fake.fail("/games/running/internal-1", { status: 503, headers: { ["Retry-After"]: "300" } });
				const player = join(1001);
				for (let step = 0; step < 120 && listReads() === 0; step++) run(started, 1);
				expect(listReads()).to.equal(1);
				expect(started.fake.to("/activity/playerJoin").size()).to.equal(1);
				jump(started, 290);
				expect(listReads()).to.equal(1);
				expect(started.fake.to("/activity/playerJoin").size()).to.equal(1);
				jump(started, 20);
				waitUntil(() => listReads() >= 2, "the list read after the Retry-After");
				expect(player).to.be.ok();
			});

			it("ends the shutdown of a Studio playtest within 3 s while the service is down", () => {
				harness.server.setStudio(true);
				serviceControl.fault({ operation: "*", status: 503 });
				const started = startStaffOps({ shutdownDeadlineSeconds: 25 });
				const player = join(2391);
				started.clock.advance(30);
				waitSeconds(0.1);
				const [seconds, finished] = harness.server.close();
				expect(finished).to.equal(true);
				expect(seconds < 3.5).to.equal(true);
				expect(started.server.isStopped()).to.equal(true);
				expect(serviceControl.count("playerJoin")).to.equal(0);
				expect(player).to.be.ok();
			});
		});
	});
};
