import { FILTER_DEADLINE_SECONDS } from "../../../src/roblox/textFilter";
import {
	FALLBACK_KICK_TEXT,
	FALLBACK_SHUTDOWN_TEXT,
} from "../../../src/server/features/dashboardActions/dashboardActions";
import { StaffOps } from "../../../src/server";
import { MESSAGE_UNAVAILABLE } from "../../../src/shared/chatProtocol";
import { ensureRemote } from "../../../src/shared/remotes";
import { deskControl } from "../../support/deskControl";
import { harness } from "../../support/harness";
import { waitUntil } from "../../support/waits";
import { messagesOf } from "../bridge/support";
import { cleanUp, freshStart, linesWith, nextSync, present, startDeployed, warnings } from "./support";

// Issue 32, point 2: every text filter call has a deadline. With a TextService that never answers, a dashboard kick
// and a shutdown still go ahead on time with their fixed safe texts, and an agent's message arrives as the
// placeholder. Counted at the reference service (actions handed over) and at the players (kicks, messages).

/** Real seconds until `condition()` holds (the filter's deadline runs on Roblox's clock, not the spec's). */
function secondsUntil(condition: () => boolean, what: string): number {
	const from = os.clock();
	waitUntil(condition, what, FILTER_DEADLINE_SECONDS + 10);
	return os.clock() - from;
}

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUp());

	describe("text filter deadline (a TextService that never answers)", () => {
		it("a dashboard shutdown kicks 4 of 4 with the fallback text within the deadline", () => {
			const started = startDeployed();
			const players = present([7001, 7002, 7003, 7004]);
			harness.text.hangFilters(true);
			const calls = harness.text.filterCalls();
			deskControl.queueAction(started.server.getRunningGameId()!, "shutdown", 0, "Update time");
			nextSync(started);
			const kicked = () => players.filter((player) => harness.players.kickMessage(player) !== undefined).size();
			const took = secondsUntil(() => kicked() === 4, "4 kicks");
			expect(kicked()).to.equal(4);
			for (const player of players) expect(harness.players.kickMessage(player)).to.equal(FALLBACK_SHUTDOWN_TEXT);
			expect(took <= FILTER_DEADLINE_SECONDS + 2).to.equal(true);
			expect(harness.text.filterCalls() - calls).to.equal(4);
			expect(deskControl.actions(started.server.getRunningGameId()!).delivered.size()).to.equal(1);
		});

		it("a notification whose text is not filtered within the deadline is not shown, and says so once", () => {
			// docs/deployed-service.md (DS42): nothing unfiltered reaches the player, and the notification is given up
			// on at the deadline (a warning, one dropped action) instead of waiting for ever.
			const started = startDeployed();
			const [target] = present([7201]);
			const runningGameId = started.server.getRunningGameId()!;
			harness.text.hangFilters(true);
			const notified = new Array<string>();
			const connection = StaffOps.notified.Connect((_, text) => notified.push(text));
			deskControl.queueAction(runningGameId, "notify", target.UserId, "Server restarts soon");
			nextSync(started);
			const ignoredLine = "ignored a dashboard action: a notify whose text is empty or could not be filtered";
			const took = secondsUntil(
				() => linesWith(warnings(), ignoredLine).size() === 1,
				"the notification given up",
			);
			connection.Disconnect();
			expect(took <= FILTER_DEADLINE_SECONDS + 2).to.equal(true);
			expect(notified.size()).to.equal(0);
			expect(harness.players.client(target).received(ensureRemote("Notifications")).size()).to.equal(0);
			expect(started.server.diagnostics().dashboardActions.dropped).to.equal(1);
			expect(deskControl.actions(runningGameId).delivered.size()).to.equal(1);
		});

		it("a dashboard kick happens with the fallback text, and an agent's message shows as the placeholder", () => {
			const started = startDeployed();
			const [target, caller] = present([7101, 7102]);
			const runningGameId = started.server.getRunningGameId()!;
			deskControl.startChat(runningGameId, caller.UserId);
			harness.text.hangFilters(true);
			deskControl.queueAction(runningGameId, "kick", target.UserId, "Rule 3");
			nextSync(started);
			const took = secondsUntil(() => harness.players.kickMessage(target) !== undefined, "the kick");
			expect(harness.players.kickMessage(target)).to.equal(FALLBACK_KICK_TEXT);
			expect(took <= FILTER_DEADLINE_SECONDS + 2).to.equal(true);
			// The chat's first message ("Hi there") misses the deadline, which runs on the bridge's clock (the spec's):
			// the placeholder.
			const events = ensureRemote("CallEvents");
			for (let step = 0; step < 40 && messagesOf(caller, events).size() === 0; step++) {
				started.clock.advance(0.5);
				task.wait(0.02);
			}
			expect(messagesOf(caller, events)[0].text).to.equal(MESSAGE_UNAVAILABLE);
			expect(deskControl.actions(runningGameId).delivered.size()).to.equal(1);
		});
	});
};
