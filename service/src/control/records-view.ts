import { isoAt } from "../time.js";
import type { RunningServer, WorkspaceState } from "../workspace-state.js";

function countBy(userIds: string[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const userId of userIds) counts[userId] = (counts[userId] ?? 0) + 1;
	return counts;
}

function serverRecord(server: RunningServer, removal: { removal: string; removedAtMs: number } | null) {
	return {
		runningGameId: server.game._id,
		internalGameId: server.game.internalGameId,
		jobId: server.game.jobId,
		deleted: removal !== null,
		removal: removal?.removal ?? null,
		removedAt: removal ? isoAt(removal.removedAtMs) : null,
		lastPresence: isoAt(server.lastPingMs),
		players: server.players.map((player) => player.userId),
	};
}

/**
 * What one workspace recorded since the last reset, in the form specs count with ("one join and one session
 * per player"): joins and sessions opened by joins per user, every session opened by a join (deleted ones
 * too), every server registered (removed ones too) and each member's stored timezone. Never the key.
 */
export function workspaceRecordsView(ws: WorkspaceState) {
	const opened = ws.openedSessions;
	return {
		groupId: ws.groupId,
		joinsByUser: countBy(ws.joins.map((join) => join.userId)),
		sessionsByUser: countBy(opened.map((entry) => entry.userId)),
		// Sessions that ended before they started (a leave cut to its whole second): the deployed service stores
		// negative minutes for each, and a staff member's quota counts them.
		negativeMinuteSessions: opened.filter((entry) => !entry.deleted && entry.session.minutes.total < 0).length,
		openSessionsByUser: countBy(opened.filter((entry) => entry.session.inGame).map((entry) => entry.userId)),
		sessions: opened.map(({ userId, runningGameId, session, deleted }) => ({
			_id: session._id,
			userId,
			runningGameId,
			internalGameId: session.internalGameId,
			staff: session.staff,
			inGame: session.inGame,
			deleted,
			started: session.started,
			ended: session.ended,
			minutes: session.minutes.total,
		})),
		servers: ws.registeredServers.map((server) =>
			serverRecord(server, ws.removedServers.find((removed) => removed.server === server) ?? null),
		),
		timezones: Object.fromEntries(ws.timezones),
	};
}
