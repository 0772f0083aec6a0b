import { pingServer } from "../resources/running-games.js";
import { endSession } from "../resources/sessions.js";
import type { RunningServer, WorkspaceState } from "../workspace-state.js";
import { fieldsOf, findRunningGame, internalServerError, needed } from "./deployed-ids.js";
import { deleteSession } from "./deployed-presence.js";
import { handOverOngoingChats, pushMessage } from "./deployed-tickets.js";

/**
 * The session an event names, as the deployed service reads it (docs/service-contract.md#session-events): only an event
 * with a truthy `user` and a `sessionIds.userGameSession` of this workspace is stored; any other shape (the old
 * `{date, sessionId, type}` included) is skipped without an error.
 */
function sessionOf(ws: WorkspaceState, event: Record<string, unknown>) {
	if (!event.user) return undefined;
	const sessionId = fieldsOf(event.sessionIds).userGameSession;
	if (!sessionId) return undefined;
	return ws.sessions.find((candidate) => candidate._id === sessionId);
}

/**
 * Stores the session events of a sync. Duplicates (same session, type and time: `datetime` in ms when present,
 * else `date` in whole seconds) are dropped, so a re-send after an unknown outcome is harmless, and two changes of
 * one type within a second collapse unless `datetime` tells them apart. Each stored event sets the session's
 * `active` flag: `idle` clears it, any other type sets it.
 */
function recordSessionEvents(ws: WorkspaceState, server: RunningServer, events: unknown[], now: number): void {
	for (const raw of events) {
		const event = fieldsOf(raw);
		const session = sessionOf(ws, event);
		if (!session) continue;
		const time = event.datetime !== undefined && event.datetime !== null ? event.datetime : event.date;
		const key = `${session._id}|${String(event.type)}|${String(time)}`;
		if (ws.sessionEventKeys.has(key)) continue;
		ws.sessionEventKeys.add(key);
		ws.sessionActive.set(session._id, event.type !== "idle");
		ws.sessionEvents.push({
			event: structuredClone(event),
			sessionId: session._id,
			userId: String(session.userId),
			runningGameId: server.game._id,
			receivedAt: now,
		});
	}
}

/**
 * `chatEvents` are the only way a player's own words enter a call, and they are appended WITHOUT dedup: a
 * blind re-send stores the message twice. An event for no known call, or not of type `message`, is skipped.
 */
function appendChatEvents(ws: WorkspaceState, chatEvents: unknown, now: number): void {
	if (!Array.isArray(chatEvents)) return;
	for (const raw of chatEvents) {
		const event = fieldsOf(raw);
		const call = typeof event.ticketId === "string" ? ws.calls.get(event.ticketId) : undefined;
		if (!call || event.type !== "message") continue;
		const created = typeof event.created === "number" ? event.created * 1000 : now;
		pushMessage(
			call,
			{
				username: String(event.username ?? ""),
				userId: Number(event.userId) || 0,
				message: String(event.message ?? ""),
				origin: "user",
				sentFrom: "game",
			},
			created,
			event.id === undefined ? undefined : String(event.id),
		);
	}
}

/**
 * The `players` roster: every running player of this server whose UserId is not a key of it is removed at
 * once (non-staff sessions deleted, staff sessions ended now). `[]`, an id array or other keys remove
 * everyone; absent (or null) skips it.
 */
function applyRoster(ws: WorkspaceState, server: RunningServer, players: unknown, now: number): void {
	if (players === undefined || players === null) return;
	const keep = new Set(typeof players === "object" && !Array.isArray(players) ? Object.keys(players) : []);
	for (const live of server.liveSessions) {
		if (keep.has(live.userId)) continue;
		if (live.session.staff) endSession(ws, live, now);
		else deleteSession(ws, live);
	}
	server.liveSessions = server.liveSessions.filter((live) => keep.has(live.userId));
	server.players = server.players.filter((player) => keep.has(player.userId));
}

/** Hands this server's queued actions over: they are deleted as the answer is built (at most once). */
function handOverActions(ws: WorkspaceState, server: RunningServer, now: number, fault: string | null) {
	const mine = ws.queuedActions.filter((queued) => queued.runningGameId === server.game._id);
	ws.queuedActions = ws.queuedActions.filter((queued) => queued.runningGameId !== server.game._id);
	for (const queued of mine) ws.deliveredActions.push({ ...queued, deliveredAt: now, fault });
	return mine.map((queued) => structuredClone(queued.action));
}

/**
 * `POST /activity/sendData` `{gameId, events, chatEvents?, players?}`, the official module's sync. Presence is
 * refreshed first (a refused request refreshes it too); `events` is required (500 without it). The answer
 * hands queued actions and ongoing chats over at most once: `fault` is the fault kind of this request, so the
 * control API can tell actions whose answer was lost.
 */
export function sendData(ws: WorkspaceState, body: unknown, now: number, fault: string | null) {
	const input = fieldsOf(body);
	const server = findRunningGame(ws, input.gameId);
	pingServer(ws, server, now);
	const events = needed(input, "events");
	if (!Array.isArray(events)) throw internalServerError();
	recordSessionEvents(ws, server, events, now);
	appendChatEvents(ws, input.chatEvents, now);
	applyRoster(ws, server, input.players, now);
	return {
		success: true,
		queuedActions: handOverActions(ws, server, now, fault),
		ongoingChats: handOverOngoingChats(ws, server),
	};
}
