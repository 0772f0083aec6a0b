import { MAX_ACTION_MESSAGE } from "../../../src/api/resources/sync";
import { StaffOps } from "../../../src/server";
import { SYNC_IDLE_SECONDS } from "../../../src/server/features/presence/sync";
import { ensureRemote } from "../../../src/shared/remotes";
import { deskControl } from "../../support/deskControl";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { waitUntil } from "../../support/waits";
import { cleanUp, freshStart, join, linesWith, Started, startDeployed, warnings } from "./support";

// Issue 41, point 4: a dashboard action is never lost to its size. A kick, notification or shutdown whose message is
// longer than a notification shows and a cross-server message carries (1,000 bytes: 600 Cyrillic characters are
// 1,200) is acted on with its message cut at a character's start, and the cut is said once. Counted at the reference
// service's deployed profile (actions handed over) and at the players (kicks, notifications).

/** Players in the server with their sessions answered. */
function present(userIds: Array<number>): Array<Player> {
	const players = userIds.map((userId) => join(userId, `Player${userId}`));
	waitUntil(() => players.every((player) => StaffOps.getSession(player) !== undefined), "the joins", 20);
	return players;
}

/** Advances the spec clock until the next sync has gone out and been answered (its actions handed over). */
function nextSync(started: Started): void {
	const before = serviceControl.count("sendData" as never);
	const bound = SYNC_IDLE_SECONDS + 1;
	for (let passed = 0; passed < bound && serviceControl.count("sendData" as never) === before; passed += 0.5) {
		started.clock.advance(0.5);
		for (let i = 0; i < 3; i++) task.wait();
	}
}

/** 600 Cyrillic characters: 1,200 bytes of UTF-8. */
const LONG_CYRILLIC = string.rep("Я", 600);
/** What is kept of it: the first 500 characters (1,000 bytes), never half a character. */
const KEPT_CYRILLIC = string.rep("Я", MAX_ACTION_MESSAGE / 2);

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUp());

	describe("long dashboard messages (cut, never dropped)", () => {
		it("a kick with 600 Cyrillic characters kicks its player with the first 500, and says the cut once", () => {
			const started = startDeployed();
			const [target, other] = present([7301, 7302]);
			const runningGameId = started.server.getRunningGameId()!;
			deskControl.queueAction(runningGameId, "kick", target.UserId, LONG_CYRILLIC);
			deskControl.queueAction(runningGameId, "kick", other.UserId, LONG_CYRILLIC + "!");
			nextSync(started);
			waitUntil(
				() =>
					harness.players.kickMessage(target) !== undefined &&
					harness.players.kickMessage(other) !== undefined,
				"the kicks",
			);
			expect(deskControl.actions(runningGameId).delivered.size()).to.equal(2);
			expect(harness.players.kickMessage(target)).to.equal(KEPT_CYRILLIC);
			expect(harness.players.kickMessage(other)).to.equal(KEPT_CYRILLIC);
			expect(utf8.len(harness.players.kickMessage(target)!)[0]).to.equal(500);
			expect(linesWith(warnings(), "dashboard kick's message of 1200 bytes was cut").size()).to.equal(1);
			expect(linesWith(warnings(), "ignored a dashboard action").size()).to.equal(0);
			expect(started.server.diagnostics().dashboardActions.cut).to.equal(2);
			expect(started.server.diagnostics().dashboardActions.kick).to.equal(2);
		});

		it("a notification of 3,000 bytes reaches the player cut to 1,000", () => {
			const started = startDeployed();
			const [target] = present([7401]);
			const runningGameId = started.server.getRunningGameId()!;
			const texts = new Array<string>();
			const connection = StaffOps.notified.Connect((_, text) => texts.push(text));
			deskControl.queueAction(runningGameId, "notify", target.UserId, string.rep("abc", 1000));
			nextSync(started);
			waitUntil(() => texts.size() === 1, "the notification");
			connection.Disconnect();
			expect(deskControl.actions(runningGameId).delivered.size()).to.equal(1);
			expect(texts[0].size()).to.equal(MAX_ACTION_MESSAGE);
			const received = harness.players.client(target).received(ensureRemote("Notifications"));
			expect(received.size()).to.equal(1);
			expect(received[0][0]).to.equal(texts[0]);
			expect(linesWith(warnings(), "dashboard notify's message of 3000 bytes was cut").size()).to.equal(1);
		});

		it("a shutdown with a 5,250-byte message kicks everyone and every later joiner", () => {
			const started = startDeployed();
			const players = present([7501, 7502, 7503]);
			const runningGameId = started.server.getRunningGameId()!;
			let requested = 0;
			const connection = StaffOps.shutdownRequested.Connect(() => (requested += 1));
			deskControl.queueAction(runningGameId, "shutdown", 0, string.rep("Перезапуск ", 250));
			nextSync(started);
			const kicked = () => players.filter((player) => harness.players.kickMessage(player) !== undefined).size();
			waitUntil(() => kicked() === 3, "3 kicks");
			const late = join(7504, "Player7504");
			waitUntil(() => harness.players.kickMessage(late) !== undefined, "the late joiner's kick");
			connection.Disconnect();
			expect(requested).to.equal(1);
			expect(deskControl.actions(runningGameId).delivered.size()).to.equal(1);
			for (const player of [...players, late]) {
				const text = harness.players.kickMessage(player)!;
				expect(text.size() <= MAX_ACTION_MESSAGE).to.equal(true);
				expect(utf8.len(text)[0] !== undefined).to.equal(true);
			}
			expect(linesWith(warnings(), "dashboard shutdown's message of").size()).to.equal(1);
		});
	});
};
