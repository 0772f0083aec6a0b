import { logWarn } from "../background/log";
import type { ServerContext } from "./features/context";
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
 * The close (`BindToClose`): sends what is still queued (registering first if needed) and, with the deployed
 * profile's sync, one last sync; then the queued leaves, the open calls' end, and the server's end when the sessions
 * option says so, until done or `shutdownDeadlineSeconds` of real time passed. Yields; the caller stops after.
 * @internal
 */
export function closeInOrder(ctx: ServerContext, parts: ClosingParts): void {
	const { presence, joins, supportCalls } = parts;
	const sessions = parts.sessions.ender;
	const registration = ctx.registration;
	// One last sync before the server's end removes the server: what waits for it (session events, players' call
	// messages) is sent at no other time.
	presence.closing();
	const seconds = shutdownDeadlineSeconds(ctx.config.shutdownDeadlineSeconds, ctx.seams.isStudio);
	const deadline = os.clock() + seconds;
	// The end of the server keeps its share of the deadline: hanging joins or leaves must not cost it.
	const reportsUntil = sessions.endsServer() ? deadline - seconds * END_SERVER_SHARE : deadline;
	joins.gathering.stopWaiting();
	// Roblox may remove the players only after the callbacks have returned
	// (docs/roblox.md#the-order-of-playerremoving-and-bindtoclose-is-not-documented), when nothing is sent
	// any more: with leaves on, every player present leaves now, one request each, inside the reports' share.
	// Not when the server's end ends their sessions anyway, except on the deployed service, whose endServer
	// deletes the sessions of non-staff players still in game (their visits with them).
	const endEndsSessions = sessions.endsServer() && ctx.profile !== "deployed";
	if (sessions.reportsLeaves() && !endEndsSessions) joins.gathering.leaveEveryone();
	while (
		os.clock() < reportsUntil &&
		(joins.queue.pending() > 0 || sessions.pending() > 0 || presence.sync.isFinishing())
	) {
		if (registration.current === undefined) {
			if (!registration.isRegistering() && os.clock() >= registration.nextShutdownAttempt) registration.start();
		} else if (os.clock() >= joins.queue.notBefore) {
			joins.queue.flush();
			sessions.flush();
		}
		task.wait(0.05);
	}
	const unsent = joins.queue.pending();
	if (unsent > 0) logWarn(`shutting down with ${unsent} join report(s) unsent: the ${seconds} s deadline passed`);
	// The service's endServer leaves calls open for ever: end them first, inside the server end's share.
	const endingCalls = supportCalls.endAllCalls();
	if (endingCalls !== undefined) {
		const callsUntil = sessions.endsServer() ? deadline - (seconds * END_SERVER_SHARE) / 2 : deadline;
		while (os.clock() < callsUntil && endingCalls.getStatus() === "Started") task.wait(0.05);
		if (endingCalls.getStatus() === "Started") logWarn("shutting down before every open support call was ended");
	}
	if (sessions.endsServer() && registration.current !== undefined && os.clock() < deadline) {
		const ending = sessions.endServer();
		while (os.clock() < deadline && ending.getStatus() === "Started") task.wait(0.05);
		if (ending.getStatus() === "Started") logWarn("shutting down before the service confirmed the server's end");
		ending.cancel();
	}
}
