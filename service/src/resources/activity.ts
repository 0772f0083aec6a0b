import { newDocumentId, newInternalGameId } from "../ids.js";
import { type ActivitySession, type ActivitySummary, type Platform, type Workspace, zeroMinutes } from "../model.js";
import { INTERFACE_VERSION } from "../operations.js";
import { notFound } from "../service-error.js";
import { isoAt } from "../time.js";
import { sessionView, summaryView, workspaceView } from "../views.js";
import type { WorkspaceState } from "../workspace-state.js";
import { findServerByRunningGameId, pingServer } from "./running-games.js";

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
	/** The `runningGameId` createServer returned (DESIGN.md §3). */
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
	ws.servers.set(internalGameId, {
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
		players: new Map(),
		liveSessions: new Map(),
	});
	return { gameId: internalGameId, runningGameId, workspace: workspaceView(ws.profile, ws.key) };
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
	ws.joins.push({
		userId,
		runningGameId: server.game._id,
		platform: input.platform,
		safechat: input.safechat,
		tzOffset: input.tzOffset,
		username: input.username,
		banned: ban !== undefined,
		at: now,
	});
	if (ban) return { banned: true, reason: ban.reason, isStaff: false, sessionId: "", runningPlayerId: "" };

	const isStaff = ws.staffIds.has(userId);
	const previous = server.liveSessions.get(userId);
	if (previous) previous.inGame = false;
	const runningPlayerId = newDocumentId(now);
	server.players.delete(userId);
	server.players.set(userId, {
		_id: runningPlayerId,
		runningGameId: server.game._id,
		groupId: ws.groupId,
		internalGameId: server.game.internalGameId,
		userId,
		platform: input.platform,
		isStaff,
		joined: isoAt(now),
	});
	const session: ActivitySession = {
		_id: newDocumentId(now),
		groupId: Number(ws.groupId),
		userId: input.playerId,
		gameId: server.game.gameId,
		placeId: server.game.placeId,
		internalGameId: server.game.internalGameId,
		platform: input.platform,
		staff: isStaff,
		inGame: true,
		distribution: ws.profile.currentDistribution,
		minutes: zeroMinutes(),
		started: isoAt(now),
		ended: isoAt(now),
		created: isoAt(now),
	};
	ws.sessions.push(session);
	server.liveSessions.set(userId, session);
	const summary = summaryFor(ws, userId, now);
	summary.sessions.push(session._id);
	summary.updated = isoAt(now);
	return { banned: false, reason: "", isStaff, sessionId: session._id, runningPlayerId };
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
