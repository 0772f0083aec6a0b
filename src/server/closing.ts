import { logWarn } from "../background/log";
import { CloseOutcome, CloseWatch } from "./closeWatch";
import type { ServerContext } from "./context";
import type { JoinsFeature } from "./features/joins";
import type { PresenceFeature } from "./features/presence";
import type { SessionsFeature } from "./features/sessions";
import type { SupportCallsFeature } from "./features/supportCalls";
import { shutdownDeadlineSeconds } from "./shutdownDeadline";

/**
 * The share of the shutdown deadline kept for ending the server (`endServer`), which goes out whatever else hangs: a
 * server not ended keeps its staff sessions open on the service until its 20-minute sweep.
 * @internal
 */
export const END_SERVER_SHARE = 0.3;

/** The features the close drives, in the order it drives them. @internal */
export interface ClosingParts {
	readonly presence: PresenceFeature;
	readonly joins: JoinsFeature;
	readonly sessions: SessionsFeature;
	readonly supportCalls: SupportCallsFeature;
}

/**
 * The close (`BindToClose`): sends what is still queued (registering first if needed), settles joins whose outcome
 * is unknown with one read of the player list and, with the deployed profile's sync, one last sync; then the open
 * calls' end, the players' leaves, and the server's end when the sessions option says so, until done or
 * `shutdownDeadlineSeconds` of real time passed. It stops waiting as soon as the work cannot succeed (a refused key,
 * HTTP turned off, a service that cannot be reached: `closeWatch.ts`), and says in one line what was left unsent and
 * why. Yields; the caller stops after.
 * @internal
 */
export function closeInOrder(ctx: ServerContext, parts: ClosingParts): CloseOutcome {
	const { presence, joins, supportCalls } = parts;
	const sessions = parts.sessions.ender;
	const registration = ctx.registration;
	const startedAt = os.clock();
	const watch = new CloseWatch(ctx.health);
	const blocked = () => watch.blocker() !== undefined;
	// One last sync before the server's end removes the server: what waits for it (session events, players' call
	// messages) is sent at no other time.
	presence.closing();
	const seconds = shutdownDeadlineSeconds(ctx.config.shutdownDeadlineSeconds, ctx.seams.isStudio);
	const deadline = startedAt + seconds;
	// The end of the server keeps its share of the deadline: hanging joins or leaves must not cost it.
	const reportsUntil = sessions.endsServer() ? deadline - seconds * END_SERVER_SHARE : deadline;
	joins.gathering.stopWaiting();
	// Joins, the leaves already queued and the last sync (players' call messages ride it) go first.
	const sendQueued = () => {
		while (
			os.clock() < reportsUntil &&
			!blocked() &&
			(joins.queue.pending() > 0 || sessions.pending() > 0 || presence.sync.isFinishing())
		) {
			if (registration.current === undefined) {
				if (!registration.isRegistering() && os.clock() >= registration.nextShutdownAttempt)
					registration.start();
			} else {
				if (os.clock() >= joins.queue.notBefore) {
					joins.queue.flush();
					sessions.flush();
				}
				// The grace periods of the join check would outlast the close: one read settles every unknown join now.
				joins.queue.checkAtClose();
			}
			task.wait(0.05);
		}
	};
	sendQueued();
	// Then the open calls end (`serverClosed`), dashboard-started ones too: before the players' leaves, which end their
	// calls as `userLeft` and would make this end a refused repeat, and before the server's end, which leaves them open
	// for ever (docs/service-contract.md#ending-a-support-call). Inside the server end's share.
	let callsLeftOpen = false;
	const endingCalls = blocked() ? undefined : supportCalls.endAllCalls();
	if (endingCalls !== undefined) {
		const callsUntil = sessions.endsServer() ? deadline - (seconds * END_SERVER_SHARE) / 2 : deadline;
		while (os.clock() < callsUntil && !blocked() && endingCalls.getStatus() === "Started") task.wait(0.05);
		callsLeftOpen = endingCalls.getStatus() === "Started";
	}
	// Roblox may remove the players only after the callbacks have returned
	// (docs/roblox.md#the-order-of-playerremoving-and-bindtoclose-is-not-documented), when nothing is sent
	// any more: with leaves on, every player present leaves now, one request each, inside the reports' share.
	// Not when the server's end ends their sessions anyway, except on the deployed service, whose endServer
	// deletes the sessions of non-staff players still in game (their visits with them).
	const endEndsSessions = sessions.endsServer() && ctx.profile !== "deployed";
	if (sessions.reportsLeaves() && !endEndsSessions) {
		joins.gathering.leaveEveryone();
		sendQueued();
	}
	let serverNotEnded = false;
	if (sessions.endsServer() && registration.current !== undefined) {
		serverNotEnded = true;
		if (os.clock() < deadline && !blocked()) {
			const ending = sessions.endServer();
			while (os.clock() < deadline && !blocked() && ending.getStatus() === "Started") task.wait(0.05);
			// A refusal or a missing route has its own line (sessions.ts); here only an end still out or not tried.
			serverNotEnded = ending.getStatus() === "Started";
			ending.cancel();
		}
	}
	const outcome = {
		seconds: os.clock() - startedAt,
		unsentJoins: joins.queue.pending(),
		unsentLeaves: sessions.pending(),
		callsLeftOpen,
		serverNotEnded,
	};
	const undone = undoneParts(outcome);
	if (undone.size() === 0) return outcome;
	const cause = watch.cause(seconds);
	logWarn(`shutting down with ${undone.join(", ")} unsent: ${cause}`);
	return { ...outcome, cause };
}

/** The work a close left undone, in words, joins first. */
function undoneParts(outcome: Omit<CloseOutcome, "cause">): Array<string> {
	const undone = new Array<string>();
	if (outcome.unsentJoins > 0) undone.push(`${outcome.unsentJoins} join report(s)`);
	if (outcome.unsentLeaves > 0) undone.push(`${outcome.unsentLeaves} leave report(s)`);
	if (outcome.callsLeftOpen) undone.push("the open support calls' end");
	if (outcome.serverNotEnded) undone.push("the server's end");
	return undone;
}
