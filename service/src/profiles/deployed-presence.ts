import { removeServer } from "../resources/running-games.js";
import { endSession } from "../resources/sessions.js";
import type { LiveSession, Removal, WorkspaceState } from "../workspace-state.js";

/** A deleted session disappears from the activity answers and its minutes from the summary. */
export function deleteSession(ws: WorkspaceState, live: LiveSession): void {
	const { session } = live;
	session.inGame = false;
	const index = ws.sessions.indexOf(session);
	if (index >= 0) ws.sessions.splice(index, 1);
	const summary = ws.summaries.get(live.userId);
	if (summary) {
		summary.sessions = summary.sessions.filter((id) => id !== session._id);
		summary.minutes.total -= session.minutes.total;
		summary.minutes.active -= session.minutes.active;
	}
	const opened = ws.openedSessions.find((entry) => entry.session === session);
	if (opened) opened.deleted = true;
}

/**
 * The deployed service deletes a silent server with its running players and the sessions still in game on it:
 * a staff member's session is kept and ended at `atMs` (staff activity counts), anyone else's is deleted.
 * Sessions already ended by playerLeave stay as they are. Its support calls are not closed: they stay open
 * for ever, as on the deployed service.
 */
export function deleteServer(ws: WorkspaceState, internalGameId: string, removal: Removal, atMs: number): boolean {
	const server = removeServer(ws, internalGameId, removal, atMs);
	if (!server) return false;
	for (const live of server.liveSessions) {
		if (live.session.staff) endSession(ws, live, atMs);
		else deleteSession(ws, live);
	}
	server.liveSessions = [];
	return true;
}
