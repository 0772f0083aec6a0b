import type { RunningGame, RunningPlayer } from "../model.js";
import { notFound } from "../service-error.js";
import { isoAt } from "../time.js";
import { runningGameView, runningPlayersView } from "../views.js";
import type { RunningServer, WorkspaceState } from "../workspace-state.js";

/**
 * A ping (createServer, playerJoin, getRunningGame) keeps a server known and advances the sessions of the
 * players in it: their `ended` moves to now and their minutes grow, and so do their summaries.
 */
export function pingServer(ws: WorkspaceState, server: RunningServer, now: number): void {
	server.lastPingMs = now;
	for (const [userId, session] of server.liveSessions) {
		session.ended = isoAt(now);
		const elapsed = Math.floor((now - Date.parse(session.started)) / 60_000);
		const grown = elapsed - session.minutes.total;
		if (grown <= 0) continue;
		session.minutes.total += grown;
		session.minutes.active += grown;
		const summary = ws.summaries.get(userId);
		if (summary) {
			summary.minutes.total += grown;
			summary.minutes.active += grown;
			summary.updated = isoAt(now);
		}
	}
}

/** The service forgets a server: its players' sessions end where they were last seen. */
export function forgetServer(ws: WorkspaceState, internalGameId: string): boolean {
	const server = ws.servers.get(internalGameId);
	if (!server) return false;
	for (const session of server.liveSessions.values()) session.inGame = false;
	ws.servers.delete(internalGameId);
	return true;
}

export function forgetQuietServers(ws: WorkspaceState, now: number, forgetAfterMs: number): void {
	for (const [internalGameId, server] of ws.servers) {
		if (now - server.lastPingMs > forgetAfterMs) forgetServer(ws, internalGameId);
	}
}

export function findServerByRunningGameId(ws: WorkspaceState, runningGameId: string): RunningServer | undefined {
	for (const server of ws.servers.values()) {
		if (server.game._id === runningGameId) return server;
	}
	return undefined;
}

export function getRunningGame(
	ws: WorkspaceState,
	internalGameId: string,
	now: number,
): { runningGame: RunningGame; players: RunningPlayer[] } {
	const server = ws.servers.get(internalGameId);
	if (!server) {
		throw notFound(
			`Unknown running game ${internalGameId}: it was never registered here or was forgotten after a quiet period; register it again with createServer`,
		);
	}
	pingServer(ws, server, now);
	return { runningGame: runningGameView(server), players: runningPlayersView(server) };
}
