import { logWarn } from "../background/log";
import { CloseOutcome, CloseWatch, ClosingPart } from "./closeWatch";
import type { ServerContext } from "./context";
import { shutdownDeadlineSeconds } from "./shutdownDeadline";

/**
 * The share of the shutdown deadline kept for ending the server (`endServer`), which goes out whatever else hangs: a
 * server not ended keeps its staff sessions open on the service until its 20-minute sweep.
 * @internal
 */
export const END_SERVER_SHARE = 0.3;

/** Whether a request the close waits for is still out. */
const started = (request: Promise<unknown>) => request.getStatus() === "Started";

/**
 * The close (`BindToClose`): sends what is still queued (registering first if needed), settles joins whose outcome
 * is unknown with one read of the player list and, with the deployed profile's sync, one last sync; then the open
 * calls' end, the players' leaves, and the server's end when the sessions option says so, until done or
 * `shutdownDeadlineSeconds` of real time passed. It stops waiting as soon as the work cannot succeed (a refused key,
 * HTTP turned off, a service that cannot be reached: `closeWatch.ts`), and says in one line what was left unsent and
 * why. Each step runs over the features' {@link ClosingPart}s in their order. Yields; the caller stops after.
 * @internal
 */
export function closeInOrder(ctx: ServerContext, parts: ReadonlyArray<ClosingPart>): CloseOutcome {
	const registration = ctx.registration;
	const startedAt = os.clock();
	const watch = new CloseWatch(ctx.health);
	const blocked = () => watch.blocker() !== undefined;
	// One last sync before the server's end removes the server: what waits for it (session events, players' call
	// messages) is sent at no other time. Client reports are waited for no longer.
	// In reverse start order, as the features stop: the last sync is under way before the joins stop waiting.
	for (let i = parts.size() - 1; i >= 0; i--) parts[i].begin?.();
	const seconds = shutdownDeadlineSeconds(ctx.config.shutdownDeadlineSeconds, ctx.seams.isStudio);
	const deadline = startedAt + seconds;
	// The end of the server keeps its share of the deadline: hanging joins or leaves must not cost it.
	const endsServer = () => parts.some((part) => part.endsServer?.() === true);
	const reportsUntil = endsServer() ? deadline - seconds * END_SERVER_SHARE : deadline;
	// Joins, the leaves already queued and the last sync (players' call messages ride it) go first.
	const sendQueued = () => {
		while (os.clock() < reportsUntil && !blocked() && parts.some((part) => part.hasQueued?.() === true)) {
			if (registration.current === undefined) {
				if (!registration.isRegistering() && os.clock() >= registration.nextShutdownAttempt)
					registration.start();
			} else {
				for (const part of parts) part.sendQueued?.();
			}
			task.wait(0.05);
		}
	};
	sendQueued();
	// Then the open calls end (`serverClosed`), dashboard-started ones too: before the players' leaves, which end their
	// calls as `userLeft` and would make this end a refused repeat, and before the server's end, which leaves them open
	// for ever (docs/service-contract.md#ending-a-support-call). Inside the server end's share.
	let callsLeftOpen = false;
	const endings = blocked() ? [] : parts.mapFiltered((part) => part.endOpen?.());
	if (endings.size() > 0) {
		const callsUntil = endsServer() ? deadline - (seconds * END_SERVER_SHARE) / 2 : deadline;
		while (os.clock() < callsUntil && !blocked() && endings.some(started)) task.wait(0.05);
		callsLeftOpen = endings.some(started);
	}
	// Roblox may remove the players only after the callbacks have returned
	// (docs/roblox.md#the-order-of-playerremoving-and-bindtoclose-is-not-documented), when nothing is sent
	// any more: with leaves on, every player present leaves now, one request each, inside the reports' share.
	let left = false;
	for (const part of parts) if (part.leaveEveryone?.() === true) left = true;
	if (left) sendQueued();
	let serverNotEnded = false;
	const enders = parts.filter((part) => part.endsServer?.() === true);
	if (enders.size() > 0 && registration.current !== undefined) {
		serverNotEnded = true;
		if (os.clock() < deadline && !blocked()) {
			const ending = enders.mapFiltered((part) => part.endServer?.());
			while (os.clock() < deadline && !blocked() && ending.some(started)) task.wait(0.05);
			// A refusal or a missing route has its own line (sessions.ts); here only an end still out or not tried.
			serverNotEnded = ending.some(started);
			for (const request of ending) request.cancel();
		}
	}
	let unsentJoins = 0;
	let unsentLeaves = 0;
	for (const part of parts) {
		const unsent = part.unsent?.();
		unsentJoins += unsent?.unsentJoins ?? 0;
		unsentLeaves += unsent?.unsentLeaves ?? 0;
	}
	const outcome = { seconds: os.clock() - startedAt, unsentJoins, unsentLeaves, callsLeftOpen, serverNotEnded };
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
