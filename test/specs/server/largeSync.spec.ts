import { HttpService } from "@rbxts/services";
import { StaffOps } from "../../../src/server";
import { SYNC_FAST_SECONDS } from "../../../src/server/features/presence/sync";
import { ensureRemote } from "../../../src/shared/remotes";
import { deskControl } from "../../support/deskControl";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { waitUntil } from "../../support/waits";
import { messagesOf } from "../bridge/support";
import { cleanUp, freshStart, join, linesWith, Started, startDeployed, warnings } from "./support";

// Issue 32, point 1: the deployed service puts every open call's whole transcript in every sync answer. With 10 long
// calls an answer is about 1.2 MB and with 50 about 6 MB; every answer must be read (its queued actions first), and an
// answer cut short must still give its actions and leave later answers whole. Counted at the reference service
// (actions handed over, syncs received) and at the players (kicks, agent messages shown).

const FILLER_MESSAGES = 120;
const FILLER_LENGTH = 1000;

/** One frame of a Roblox server at 60 Hz, on the spec clock. */
const FRAME = 1 / 60;

/**
 * Advances the spec clock one frame per frame the spec yields (a large answer is read in slices, one per frame, as
 * on a Roblox server), until `done()` or `limit` seconds; answers the seconds it took.
 */
function runUntil(started: Started, done: () => boolean, limit: number, what: string): number {
	let frames = 0;
	while (!done()) {
		if (frames * FRAME >= limit) error(`${what}: not within ${limit} s of the spec clock`, 2);
		started.clock.advance(FRAME);
		frames += 1;
		task.wait();
	}
	return frames * FRAME;
}

interface LongCalls {
	readonly started: Started;
	readonly callers: Array<Player>;
	readonly bystander: Player;
	readonly callIds: Array<string>;
	readonly runningGameId: string;
	/** The size of the tickets' JSON: what each sync answer's `ongoingChats` carries. */
	readonly bytes: number;
}

/** `count` players in staff-started chats made long with filler, plus one player in no call; every chat open. */
function longCalls(count: number): LongCalls {
	const started = startDeployed();
	const callers = new Array<Player>();
	for (let i = 1; i <= count; i++) callers.push(join(6000 + i, `Caller${i}`));
	const bystander = join(6999, "Bystander");
	waitUntil(
		() => [...callers, bystander].every((player) => StaffOps.getSession(player) !== undefined),
		"the joins",
		30,
	);
	const runningGameId = started.server.getRunningGameId()!;
	for (const caller of callers) deskControl.startChat(runningGameId, caller.UserId);
	const byCaller = new Map<number, string>();
	for (const ticket of deskControl.tickets()) byCaller.set(ticket.callerId, ticket._id);
	const callIds = callers.map((caller) => byCaller.get(caller.UserId)!);
	for (const callId of callIds) deskControl.filler(callId, FILLER_MESSAGES, FILLER_LENGTH);
	const bytes = HttpService.JSONEncode(deskControl.tickets()).size();
	const desk = started.server.getSupportDesk()!;
	runUntil(started, () => desk.getCallCount() === count, 60, "every chat open");
	return { started, callers, bystander, callIds, runningGameId, bytes };
}

/** What a queued kick and one agent reply per call came to. */
interface Outcome {
	readonly took: number;
	readonly kickText?: string;
	readonly delivered: number;
	readonly repliesShownOnce: number;
	readonly callersKicked: number;
	readonly syncs: number;
	readonly unreadable: number;
}

/** Queues a kick of the bystander and one agent reply per call, and runs until both arrived. */
function kickAndReplies(calls: LongCalls): Outcome {
	const { started, callers, bystander, callIds, runningGameId } = calls;
	const events = ensureRemote("CallEvents");
	const syncsBefore = serviceControl.count("sendData" as never);
	deskControl.queueAction(runningGameId, "kick", bystander.UserId, "Rule 3");
	callIds.forEach((callId, index) => deskControl.reply(callId, `answer ${index + 1}`));
	const took = runUntil(started, () => harness.players.kickMessage(bystander) !== undefined, 30, "the queued kick");
	const shown = (index: number) =>
		messagesOf(callers[index], events)
			.filter((message) => message.text === `answer ${index + 1}`)
			.size();
	runUntil(started, () => callers.every((_, index) => shown(index) === 1), 30, "every agent reply");
	print(`large sync: ${callers.size()} calls, ${calls.bytes} bytes of tickets, the kick after ${took} s`);
	return {
		took,
		kickText: harness.players.kickMessage(bystander),
		delivered: deskControl.actions(runningGameId).delivered.size(),
		repliesShownOnce: callers.filter((_, index) => shown(index) === 1).size(),
		callersKicked: callers.filter((caller) => harness.players.kickMessage(caller) !== undefined).size(),
		syncs: serviceControl.count("sendData" as never) - syncsBefore,
		unreadable: linesWith(warnings(), "could not be read").size(),
	};
}

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUp());

	describe("large sync answers (deployed profile, long open calls)", () => {
		const sizes: Array<[calls: number, atLeast: number, about: string]> = [
			[10, 1_150_000, "1.2 MB"],
			[50, 6_000_000, "6 MB"],
		];
		for (const [count, atLeast, about] of sizes) {
			it(`${count} long calls (about ${about} answers): a queued kick and every agent reply arrive`, () => {
				const calls = longCalls(count);
				expect(calls.bytes > atLeast).to.equal(true);
				const outcome = kickAndReplies(calls);
				expect(outcome.kickText).to.equal("Rule 3");
				// The kick rides the first sync after it was queued: within one fast interval and the reading of two
				// answers (the one in flight, then its own), well inside the idle interval (SYNC_IDLE_SECONDS) the docs
				// state for a kick.
				expect(outcome.took <= SYNC_FAST_SECONDS + 4).to.equal(true);
				expect(outcome.delivered).to.equal(1);
				expect(outcome.repliesShownOnce).to.equal(count);
				expect(outcome.callersKicked).to.equal(0);
				expect(outcome.syncs > 0).to.equal(true);
				expect(outcome.unreadable).to.equal(0);
			});
		}

		it("an answer cut in half still gives its queued actions, and the next answer is read whole", () => {
			const calls = longCalls(10);
			const { started, bystander, callers, callIds, runningGameId } = calls;
			serviceControl.fault({ operation: "sendData" as never, kind: "truncated" as never, times: 1 });
			deskControl.queueAction(runningGameId, "notify", callers[0].UserId, "first");
			deskControl.queueAction(runningGameId, "kick", bystander.UserId, "Rule 4");
			const texts = new Array<string>();
			const connection = StaffOps.notified.Connect((_, text) => texts.push(text));
			runUntil(started, () => harness.players.kickMessage(bystander) !== undefined, 30, "the cut answer's kick");
			// The answer after it is whole: its action and a new reply arrive.
			deskControl.queueAction(runningGameId, "notify", callers[1].UserId, "second");
			deskControl.reply(callIds[2], "after the cut");
			const events = ensureRemote("CallEvents");
			runUntil(
				started,
				() =>
					texts.includes("second") &&
					messagesOf(callers[2], events).some((message) => message.text === "after the cut"),
				30,
				"the next answer",
			);
			connection.Disconnect();
			expect(harness.players.kickMessage(bystander)).to.equal("Rule 4");
			expect(texts.join("|")).to.equal("first|second");
			expect(deskControl.actions(runningGameId).delivered.size()).to.equal(3);
		});
	});
};
