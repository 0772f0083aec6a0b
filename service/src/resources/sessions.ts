import { newDocumentId } from "../ids.js";
import {
	type ActivitySession,
	type ActivitySummary,
	type Platform,
	type RunningPlayer,
	zeroMinutes,
} from "../model.js";
import { isoAt } from "../time.js";
import type { LiveSession, RunningServer, WorkspaceState } from "../workspace-state.js";

export interface NewSession {
	userId: string;
	/** The session's numeric `userId`, as the join sent it. */
	playerId: number;
	platform: Platform;
	isStaff: boolean;
	/** Deployed profile: the join asked for consent (see LiveSession). */
	needsConsent?: boolean;
}

function summaryFor(ws: WorkspaceState, userId: string, now: number): ActivitySummary {
	let summary = ws.summaries.get(userId);
	if (!summary) {
		summary = {
			_id: newDocumentId(now),
			userId,
			groupId: ws.groupId,
			distribution: String(ws.profile.currentDistribution),
			sessions: [],
			minutes: zeroMinutes(),
			goals: {},
			created: isoAt(now),
			attendedSessions: [],
			updated: isoAt(now),
		};
		ws.summaries.set(userId, summary);
	}
	return summary;
}

/**
 * Adds a Running player and opens an Activity session for them (a user without a summary gets one). Both
 * profiles use it; only the default one first removes the user's earlier entry.
 */
export function openSession(
	ws: WorkspaceState,
	server: RunningServer,
	input: NewSession,
	now: number,
): { sessionId: string; runningPlayerId: string } {
	const runningPlayerId = newDocumentId(now);
	const player: RunningPlayer = {
		_id: runningPlayerId,
		runningGameId: server.game._id,
		groupId: ws.groupId,
		internalGameId: server.game.internalGameId,
		userId: input.userId,
		platform: input.platform,
		isStaff: input.isStaff,
		joined: isoAt(now),
	};
	server.players.push(player);
	const session: ActivitySession = {
		_id: newDocumentId(now),
		groupId: Number(ws.groupId),
		userId: input.playerId,
		gameId: server.game.gameId,
		placeId: server.game.placeId,
		internalGameId: server.game.internalGameId,
		platform: input.platform,
		staff: input.isStaff,
		inGame: true,
		distribution: ws.profile.currentDistribution,
		minutes: zeroMinutes(),
		started: isoAt(now),
		ended: isoAt(now),
		created: isoAt(now),
	};
	ws.sessions.push(session);
	player.userSessionId = session._id;
	server.liveSessions.push({ userId: input.userId, session, needsConsent: input.needsConsent });
	ws.openedSessions.push({ userId: input.userId, runningGameId: server.game._id, session, deleted: false });
	const summary = summaryFor(ws, input.userId, now);
	summary.sessions.push(session._id);
	summary.updated = isoAt(now);
	return { sessionId: session._id, runningPlayerId };
}

/** Moves a session's (and its summary's) total and active minutes by `delta` whole minutes. */
export function addMinutes(ws: WorkspaceState, live: LiveSession, delta: number, now: number): void {
	if (delta === 0) return;
	live.session.minutes.total += delta;
	live.session.minutes.active += delta;
	const summary = ws.summaries.get(live.userId);
	if (summary) {
		summary.minutes.total += delta;
		summary.minutes.active += delta;
		summary.updated = isoAt(now);
	}
}

/**
 * Ends a session at `endMs` (deployed profile: playerLeave, endServer, a silent server's staff): `ended` is
 * stamped, `minutes` are the whole minutes from `started` to then, and it leaves the game. An end before the start
 * (a leave cut to its `leftTime` second, within its join's second) is kept as the deployed service keeps it:
 * negative minutes, to the hundredth as it stores them (-0.01 for a few hundred milliseconds), so a spec can count it.
 */
export function endSession(ws: WorkspaceState, live: LiveSession, endMs: number): void {
	const elapsed = (endMs - Date.parse(live.session.started)) / 60_000;
	const minutes = elapsed < 0 ? Math.floor(elapsed * 100) / 100 : Math.floor(elapsed);
	addMinutes(ws, live, minutes - live.session.minutes.total, endMs);
	live.session.ended = isoAt(endMs);
	live.session.inGame = false;
}
