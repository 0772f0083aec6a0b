import { StaffOps } from "../../../src/server";
import { ensureRemote } from "../../../src/shared/remotes";
import { deskControl } from "../../support/deskControl";
import { harness } from "../../support/harness";
import { cleanUp, freshStart, join, linesWith, Started, startDeployed, warnings } from "./support";
import { waitSeconds, waitUntil } from "../../support/waits";
import { FAKE_KEY, FakeStarted, ONE_SYNC, run, startAgainstFake } from "./deployedFake";

// Dashboard actions handed over by the sync (issue 22): each acts, and a bad one never loses another.

function present(started: FakeStarted, userIds: Array<number>): Array<Player> {
	const players = userIds.map((userId) => join(userId));
	waitUntil(() => players.every((player) => StaffOps.getSession(player) !== undefined), "the joins");
	return players;
}

/** Advances the spec clock a second at a time (a sync every few) until `done()`, within 60 s of it. */
function syncUntil(started: Started, done: () => boolean, what: string): void {
	for (let second = 0; !done(); second++) {
		if (second >= 60) error(`${what}: not within 60 s of the spec clock`, 2);
		started.clock.advance(1);
		waitSeconds(0.05);
	}
}

export = () => {
	beforeEach(() => harness.clearOutput());
	afterEach(() => cleanUp());

	describe("dashboard actions", () => {
		it("a kick kicks that player with the message and fires dashboardKick", () => {
			const started = startAgainstFake();
			const [target, other] = present(started, [1001, 2001]);
			const seen = new Array<string>();
			const connection = StaffOps.dashboardKick.Connect((player, message) =>
				seen.push(`${player.UserId} ${message}`),
			);
			started.fake.queued.push({ type: "kick", userId: 1001, message: "Rule 3, sorry" });
			run(started, ONE_SYNC);
			waitUntil(() => harness.players.kickMessage(target) !== undefined, "the kick");
			connection.Disconnect();
			expect(harness.players.kickMessage(target)).to.equal("Rule 3, sorry");
			expect(harness.players.kickMessage(other)).to.equal(undefined);
			expect(seen[0]).to.equal("1001 Rule 3, sorry");
		});

		it("a kick message that holds the key is redacted", () => {
			const started = startAgainstFake();
			const [target] = present(started, [1001]);
			started.fake.queued.push({ type: "kick", userId: 1001, message: `bye ${FAKE_KEY}` });
			run(started, ONE_SYNC);
			waitUntil(() => harness.players.kickMessage(target) !== undefined, "the kick");
			const text = harness.players.kickMessage(target)!;
			expect(text.find(FAKE_KEY, 1, true)[0]).to.equal(undefined);
			expect(text.find("bye", 1, true)[0]).to.equal(1);
		});

		it("a notify fires notified and reaches the player's client", () => {
			const started = startAgainstFake();
			const [target] = present(started, [1001]);
			const texts = new Array<string>();
			const connection = StaffOps.notified.Connect((player, text) => texts.push(`${player.UserId} ${text}`));
			started.fake.queued.push({ type: "notify", userId: 1001, message: "Server restarts soon" });
			run(started, ONE_SYNC);
			waitUntil(() => texts.size() === 1, "the notification");
			connection.Disconnect();
			expect(texts[0]).to.equal("1001 Server restarts soon");
			const received = harness.players.client(target).received(ensureRemote("Notifications"));
			expect(received.size()).to.equal(1);
			expect(received[0][0]).to.equal("Server restarts soon");
		});

		it("a shutdown kicks everyone, and every later joiner", () => {
			const started = startAgainstFake();
			const players = present(started, [1001, 2001]);
			let requested = 0;
			const connection = StaffOps.shutdownRequested.Connect(() => (requested += 1));
			started.fake.queued.push({ type: "shutdown", message: "Update" });
			run(started, ONE_SYNC);
			waitUntil(() => players.every((player) => harness.players.kickMessage(player) !== undefined), "kicks");
			const late = join(3001);
			waitUntil(() => harness.players.kickMessage(late) !== undefined, "the late joiner's kick");
			connection.Disconnect();
			expect(harness.players.kickMessage(late)).to.equal("Update");
			expect(requested).to.equal(1);
		});

		it("bad actions among good ones lose none of the good ones, one warning per kind", () => {
			// Cross-server delivery off: a kick for a player not here is then dropped with its warning (crossServer.spec).
			const started = startAgainstFake({ crossServer: false });
			const [a, b] = present(started, [1001, 2001]);
			const notes = new Array<string>();
			const connection = StaffOps.notified.Connect((_, text) => notes.push(text));
			started.fake.queued.push(
				{ type: "explode", userId: 1001 },
				{ type: "kick", userId: "not-a-number", message: "x" },
				{ type: "notify", userId: 2001, message: string.rep("a", 100_000) },
				{ type: "explode", userId: 2001 },
				{ type: "kick", userId: 4242, message: "not here" },
				{ type: "notify", userId: 2001, message: "hello" },
				{ type: "kick", userId: 1001, message: "good kick" },
			);
			run(started, ONE_SYNC);
			// The 100,000-byte notification is cut, not dropped (longActions.spec): two notifications.
			waitUntil(() => harness.players.kickMessage(a) !== undefined && notes.size() === 2, "the good actions");
			connection.Disconnect();
			expect(harness.players.kickMessage(a)).to.equal("good kick");
			expect(harness.players.kickMessage(b)).to.equal(undefined);
			expect(linesWith(warnings(), "an action of an unknown type").size()).to.equal(1);
			expect(linesWith(warnings(), "whose userId is not a user id").size()).to.equal(1);
			expect(linesWith(warnings(), "notify's message of 100000 bytes was cut").size()).to.equal(1);
			expect(linesWith(warnings(), "not on this server").size()).to.equal(1);
		});

		it("a roster-shaped list is ignored and the sync goes on", () => {
			const started = startAgainstFake();
			const [target] = present(started, [1001]);
			started.fake.rawQueued = { ["1001"]: "Builder" };
			run(started, ONE_SYNC);
			started.fake.queued.push({ type: "kick", userId: 1001, message: "next answer" });
			run(started, ONE_SYNC);
			waitUntil(() => harness.players.kickMessage(target) !== undefined, "the kick");
			expect(linesWith(warnings(), "queuedActions that is not a list").size()).to.equal(1);
		});

		it("a kick whose filter fails still kicks, with the fallback text", () => {
			const started = startAgainstFake();
			const [target] = present(started, [1001]);
			harness.text.failNextFilters(1);
			started.fake.queued.push({ type: "kick", userId: 1001, message: "whatever" });
			run(started, ONE_SYNC);
			waitUntil(() => harness.players.kickMessage(target) !== undefined, "the kick");
			expect(harness.players.kickMessage(target)).to.equal("You were removed from this server by staff.");
		});
	});

	describe("an action type the game does not know, from the reference service", () => {
		beforeEach(() => freshStart("deployed"));

		it("is left alone: never shown, counted and warned once; the known action beside it acts", () => {
			const started = startDeployed();
			const target = join(1001);
			waitUntil(() => StaffOps.getSession(target) !== undefined, "the join");
			const runningGameId = started.server.getRunningGameId()!;
			const texts = new Array<string>();
			const connection = StaffOps.notified.Connect((_, text) => texts.push(text));
			deskControl.queueAction(runningGameId, "confetti", 1001, "Party time");
			deskControl.queueAction(runningGameId, "confetti", 1001, "More party");
			deskControl.queueAction(runningGameId, "notify", 1001, "Server restarts soon");
			syncUntil(started, () => texts.size() > 0, "the known notification");
			waitSeconds(0.2);
			connection.Disconnect();
			// The service handed all three over; the game showed the one it knows, and nothing of the others.
			expect(deskControl.actions(runningGameId).delivered.size()).to.equal(3);
			expect(texts.join("|")).to.equal("Server restarts soon");
			const shown = harness.players.client(target).received(ensureRemote("Notifications"));
			expect(shown.size()).to.equal(1);
			expect(harness.players.kickMessage(target)).to.equal(undefined);
			const counts = started.server.diagnostics().dashboardActions;
			expect(counts.unknown).to.equal(2);
			expect(counts.notify).to.equal(1);
			expect(linesWith(warnings(), "an action of an unknown type").size()).to.equal(1);
		});
	});
};
