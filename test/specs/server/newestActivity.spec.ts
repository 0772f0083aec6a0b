import { StaffOps } from "../../../src/server";
import { MAX_PENDING_EVENTS, MAX_PENDING_PER_PLAYER } from "../../../src/server/features/presence/sessionEvents";
import { ensureRemote } from "../../../src/shared/remotes";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { cleanUp, drainEvents, freshStart, join, startDeployed, Started } from "./support";

// Issue 41, point 5: activity queues keep what the service needs most. Through a sync outage of any length, however
// many changes wait (past one player's cap of 100, past the queue's 2,000), each player's NEWEST state survives, so
// right after the outage the reference service's deployed profile shows each session's `active` flag as the player
// left it (before, the 101st change of a staff member was the one dropped: the service kept them active after they
// went idle).

/** What the service holds: its stored events and each session's `active` flag. */
function serviceView(): { events: Array<{ sessionId: string; type: string }>; active: Record<string, boolean> } {
	return serviceControl.call("GET", "/_control/session-events") as never;
}

function fire(player: Player, state: string): void {
	harness.players.client(player).fire(ensureRemote("Activity"), state);
}

/** Sync attempts that failed so far. */
function failedSyncs(started: Started): number {
	return started.server.diagnostics().presence.sync.failures;
}

/**
 * Every player changes state `changes` times, one change every 2 s (the most a client may report), while no sync gets
 * through; the last change comes right after a failed sync took every waiting event in its batch (the moment the
 * newest was the one dropped before). Then the service answers again and the queue drains. Returns each player's
 * last state.
 */
function outage(started: Started, players: Array<Player>, changes: number): Map<Player, string> {
	const last = new Map<Player, string>();
	serviceControl.fault({ operation: "sendData", status: 503, times: 100_000 });
	const change = (step: number) => {
		players.forEach((player, index) => {
			// Each player's own rhythm, so the players end in different states.
			const state = (step + index) % 2 === 0 ? "idle" : "active";
			fire(player, state);
			last.set(player, state);
		});
		task.wait();
	};
	for (let step = 0; step < changes - 1; step++) {
		change(step);
		started.clock.advance(2);
	}
	const failed = failedSyncs(started);
	for (let step = 0; step < 60 && failedSyncs(started) === failed; step++) {
		started.clock.advance(2);
		waitSeconds(0.02);
	}
	if (failedSyncs(started) === failed) error("no sync was tried within 120 s of the spec's clock");
	change(changes - 1);
	waitSeconds(0.1);
	serviceControl.clearFaults();
	drainEvents(started);
	return last;
}

/** Checks the service shows each player's newest state, and that the last stored event of each session is it. */
function expectNewest(last: Map<Player, string>): number {
	const view = serviceView();
	let right = 0;
	for (const [player, state] of last) {
		const sessionId = StaffOps.getSession(player)!.sessionId!;
		const mine = view.events.filter((event) => event.sessionId === sessionId);
		const lastStored = mine.size() > 0 ? mine[mine.size() - 1].type : "none";
		if (view.active[sessionId] === (state !== "idle") && lastStored === state) right += 1;
	}
	return right;
}

function present(userIds: Array<number>): Array<Player> {
	const players = userIds.map((userId) => join(userId));
	waitUntil(() => players.every((player) => StaffOps.getSession(player)?.sessionId !== undefined), "the joins", 30);
	return players;
}

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUp());

	describe("the newest activity survives an outage", () => {
		for (const changes of [3, MAX_PENDING_PER_PLAYER + 1, 3 * MAX_PENDING_PER_PLAYER + 1]) {
			it(`a staff member's last state after ${changes} changes in an outage is the service's view`, () => {
				const started = startDeployed();
				const [staff] = present([1002]);
				expect(StaffOps.isStaff(staff)).to.equal(true);
				const last = outage(started, [staff], changes);
				expect(last.get(staff)).to.equal("idle");
				const sessionId = StaffOps.getSession(staff)!.sessionId!;
				expect(serviceView().active[sessionId]).to.equal(false);
				expect(expectNewest(last)).to.equal(1);
				const stored = serviceView()
					.events.filter((event) => event.sessionId === sessionId)
					.size();
				expect(stored).to.equal(math.min(changes, MAX_PENDING_PER_PLAYER));
			});
		}

		it("past the whole queue's cap, every player's newest state reaches the service", () => {
			const started = startDeployed({ activity: { everyone: true } });
			const userIds = [1002];
			for (let i = 1; i <= 24; i++) userIds.push(3100 + i);
			const players = present(userIds);
			// 25 players × 110 changes: each past their own cap, and 2,500 past the queue's 2,000.
			const last = outage(started, players, MAX_PENDING_PER_PLAYER + 10);
			expect(players.size() * MAX_PENDING_PER_PLAYER > MAX_PENDING_EVENTS).to.equal(true);
			expect(expectNewest(last)).to.equal(players.size());
			expect(serviceView().events.size() <= MAX_PENDING_EVENTS + players.size()).to.equal(true);
		});
	});
};
