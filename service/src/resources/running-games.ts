import type { RunningGame, RunningPlayer } from "../model.js";
import { notFound } from "../service-error.js";
import { isoAt } from "../time.js";
import { runningGameView, runningPlayersView } from "../views.js";
import type { Removal, RunningServer, WorkspaceState } from "../workspace-state.js";
import { addMinutes } from "./sessions.js";

/**
 * A ping (createServer, playerJoin, getRunningGame) keeps a server known and advances the sessions of the
 * players in it: their `ended` moves to now and their minutes grow, and so do their summaries.
 */
export function pingServer(ws: WorkspaceState, server: RunningServer, now: number): void {
	server.lastPingMs = now;
	for (const live of server.liveSessions) {
		live.session.ended = isoAt(now);
		const elapsed = Math.floor((now - Date.parse(live.session.started)) / 60_000);
		const grown = elapsed - live.session.minutes.total;
		if (grown > 0) addMinutes(ws, live, grown, now);
	}
}

/** Takes a server out of the workspace, keeping it for `/_control/records`. */
export function removeServer(
	ws: WorkspaceState,
	internalGameId: string,
	removal: Removal,
	atMs: number,
): RunningServer | undefined {
	const server = ws.servers.get(internalGameId);
	if (!server) return undefined;
	ws.servers.delete(internalGameId);
	ws.removedServers.push({ server, removal, removedAtMs: atMs });
	return server;
}

/** The default profile forgets a server: its players' sessions end where they were last seen. */
export function forgetServer(ws: WorkspaceState, internalGameId: string, removal: Removal, atMs: number): boolean {
	const server = removeServer(ws, internalGameId, removal, atMs);
	if (!server) return false;
	for (const live of server.liveSessions) live.session.inGame = false;
	return true;
}

export function findServerByRunningGameId(ws: WorkspaceState, runningGameId: string): RunningServer | undefined {
	for (const server of ws.servers.values()) {
		if (server.game._id === runningGameId) return server;
	}
	return undefined;
}

/**
 * The default profile counts this read as a ping; the deployed one does not (`ping` false), and lists each player's
 * `userSessionId` (`deployed` true), the session their join opened.
 */
export function getRunningGame(
	ws: WorkspaceState,
	internalGameId: string,
	now: number,
	ping = true,
	deployed = false,
): { runningGame: RunningGame; players: RunningPlayer[] } {
	const server = ws.servers.get(internalGameId);
	if (!server) {
		throw notFound(
			`Unknown running game ${internalGameId}: it was never registered here or was forgotten after a quiet period; register it again with createServer`,
		);
	}
	if (ping) pingServer(ws, server, now);
	return { runningGame: runningGameView(server), players: runningPlayersView(server, deployed) };
}
