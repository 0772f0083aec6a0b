import { newDocumentId, newInternalGameId } from "../ids.js";
import type { ActivitySession, ActivitySummary, Platform, Workspace } from "../model.js";
import { INTERFACE_VERSION } from "../operations.js";
import { notFound } from "../service-error.js";
import { isoAt } from "../time.js";
import { sessionView, summaryView, workspaceView } from "../views.js";
import type { JoinRecord, RunningServer, WorkspaceState } from "../workspace-state.js";
import { findServerByRunningGameId, pingServer } from "./running-games.js";
import { openSession } from "./sessions.js";

export interface CreateServerInput {
	gameId: number;
	placeId: number;
	jobId: string;
	privateServerId: string;
	privateServerOwnerId: number;
	placeVersion: string;
}

export interface PlayerJoinInput {
	playerId: number;
	safechat: boolean;
	username: string;
	tzOffset: string;
	platform: Platform;
	/** The `runningGameId` createServer returned (docs/service-contract.md#playerjoin-needs-the-running-game-id). */
	gameId: string;
}

export interface JoinAnswer {
	banned: boolean;
	reason: string;
	isStaff: boolean;
	sessionId: string;
	runningPlayerId: string;
}

/** Every registration is a new running server, even for a jobId seen before (the library re-registers). */
export function createServer(
	ws: WorkspaceState,
	input: CreateServerInput,
	now: number,
): { gameId: string; runningGameId: string; workspace: Workspace } {
	const internalGameId = newInternalGameId();
	const runningGameId = newDocumentId(now);
	const server: RunningServer = {
		game: {
			_id: runningGameId,
			version: INTERFACE_VERSION,
			groupId: ws.groupId,
			internalGameId,
			gameId: input.gameId,
			placeId: input.placeId,
			jobId: input.jobId,
			privateServerId: input.privateServerId,
			privateServerOwnerId: input.privateServerOwnerId,
			placeVersion: input.placeVersion,
			created: isoAt(now),
		},
		lastPingMs: now,
		players: [],
		liveSessions: [],
	};
	ws.servers.set(internalGameId, server);
	ws.registeredServers.push(server);
	return { gameId: internalGameId, runningGameId, workspace: workspaceView(ws.profile, ws.key) };
}

/** Remembers a join for `/_control/state` and `/_control/records`, and the member's stored timezone. */
export function recordJoin(ws: WorkspaceState, join: JoinRecord, storedTimezone: string): void {
	ws.joins.push(join);
	ws.timezones.set(join.userId, storedTimezone);
}

/**
 * A banned player gets every documented field (`banned:true`, the ban reason, empty ids) and is not added to
 * the server. Anyone else becomes a Running player with a fresh Activity session; joining again replaces
 * the earlier entry and ends its session.
 */
export function playerJoin(ws: WorkspaceState, input: PlayerJoinInput, now: number): JoinAnswer {
	const server = findServerByRunningGameId(ws, input.gameId);
	if (!server) {
		throw notFound(
			`Unknown running game ${input.gameId}: it was never registered here or was forgotten after a quiet period; register it again with createServer`,
		);
	}
	pingServer(ws, server, now);
	const userId = String(input.playerId);
	const ban = ws.bans.get(userId);
	recordJoin(
		ws,
		{
			userId,
			runningGameId: server.game._id,
			platform: input.platform,
			safechat: input.safechat,
			tzOffset: input.tzOffset,
			username: input.username,
			banned: ban !== undefined,
			at: now,
		},
		input.tzOffset,
	);
	if (ban) return { banned: true, reason: ban.reason, isStaff: false, sessionId: "", runningPlayerId: "" };

	for (const live of server.liveSessions) if (live.userId === userId) live.session.inGame = false;
	server.liveSessions = server.liveSessions.filter((live) => live.userId !== userId);
	server.players = server.players.filter((player) => player.userId !== userId);
	const isStaff = ws.staffIds.has(userId);
	const opened = openSession(
		ws,
		server,
		{ userId, playerId: input.playerId, platform: input.platform, isStaff },
		now,
	);
	return { banned: false, reason: "", isStaff, ...opened };
}

/** The user's summary and sessions, newest first. A user with no summary is unknown to the workspace. */
export function getActivity(
	ws: WorkspaceState,
	userId: string,
): { summary: ActivitySummary; sessions: ActivitySession[] } {
	const summary = ws.summaries.get(userId);
	if (!summary) throw notFound(`No activity found for user ${userId} in this workspace`);
	const sessions = ws.sessions
		.filter((session) => String(session.userId) === userId)
		.reverse()
		.sort((a, b) => Date.parse(b.started) - Date.parse(a.started))
		.map(sessionView);
	return { summary: summaryView(summary), sessions };
}
