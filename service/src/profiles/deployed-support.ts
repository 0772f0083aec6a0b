import { pingServer } from "../resources/running-games.js";
import { ServiceError } from "../service-error.js";
import type { CallState, WorkspaceState } from "../workspace-state.js";
import { fieldsOf, findRunningGame, internalServerError, needed } from "./deployed-ids.js";
import {
	CALL_LIST_LIMIT,
	callFor,
	closeCall,
	liveTicketOf,
	openTicket,
	pushMessage,
	refuseIfClosed,
	ticketView,
	ticketsOf,
} from "./deployed-tickets.js";

/** What the deployed service tells a caller with a live call on the same server (the answer names no call). */
export const ALREADY_OPEN = "You already have a call open in this server.";
export const CALL_BANNED = "You are not allowed to make calls in this workspace.";

/** A number, or a string of digits (the service casts); anything else breaks it. */
function callerIdOf(value: unknown): number {
	const id = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
	if (typeof id !== "number" || !Number.isFinite(id)) throw internalServerError();
	return id;
}

/**
 * `POST /activity/support/create`: a player asks for support or reports a player. Missing fields break the
 * handler (500); a call-banned caller or one with a live call on this server gets a soft refusal (200,
 * `success:false`), the second without the id of the call they have.
 */
export function supportCreate(ws: WorkspaceState, body: unknown, now: number) {
	const input = fieldsOf(body);
	const server = findRunningGame(ws, input.gameId);
	pingServer(ws, server, now);
	const callType = needed(input, "callType");
	const callerId = callerIdOf(needed(input, "callerId"));
	const reason = needed(input, "reason");
	const players = needed(input, "players");
	if (typeof reason !== "string" || reason === "") throw internalServerError();
	if (!Array.isArray(players) || players.length === 0) throw internalServerError();
	const reporting = callType === "report" ? needed(input, "reporting") : null;
	if (ws.callBans.has(String(callerId))) return { success: false, banned: true, reason: CALL_BANNED };
	if (liveTicketOf(ws, server, callerId)) return { success: false, reason: ALREADY_OPEN };
	const call = openTicket(
		ws,
		server,
		{
			callType: String(callType),
			callerId,
			reason,
			reporting: reporting === null ? null : String(reporting),
			players: structuredClone(players),
			status: "open",
			claimedBy: null,
		},
		now,
	);
	return { success: true, ticket: ticketView(ws, call) };
}

/**
 * `POST /activity/support/end` `{gameId, supportId, reason}`: closes the call with a system message noting
 * why. A repeat on a closed call is refused with 400; an unknown id is a 404.
 */
export function supportEnd(ws: WorkspaceState, body: unknown, now: number) {
	const input = fieldsOf(body);
	const server = findRunningGame(ws, input.gameId);
	pingServer(ws, server, now);
	const call = callFor(ws, needed(input, "supportId"));
	const reason = needed(input, "reason");
	refuseIfClosed(call);
	closeCall(call, String(reason), now);
	return { success: true };
}

/** The name an agent's messages carry: the staff member's seeded username, or a generic one. */
function agentName(ws: WorkspaceState, actorId: string): string {
	return ws.staffNames.get(actorId) ?? `User${actorId}`;
}

/** Stores an AGENT message (origin `agent`), whoever the actor is: the route has no other kind. */
export function pushAgentMessage(ws: WorkspaceState, call: CallState, actorId: string, text: string, now: number) {
	return pushMessage(
		call,
		{
			username: agentName(ws, actorId),
			userId: Number(actorId) || 0,
			message: text,
			origin: "agent",
			sentFrom: "website",
		},
		now,
	);
}

/** `POST /calls/{id}/messages {actorId, message}`: an agent writes; the call must still be going on. */
export function agentReply(ws: WorkspaceState, callId: string, body: unknown, now: number) {
	const input = fieldsOf(body);
	const call = callFor(ws, callId);
	const actorId = String(needed(input, "actorId"));
	const text = String(needed(input, "message"));
	refuseIfClosed(call);
	return pushAgentMessage(ws, call, actorId, text, now);
}

/** `PUT /calls/{id}/claim {actorId}`: an open call becomes `claimed`; anything else is refused (400). */
export function claimCall(ws: WorkspaceState, callId: string, body: unknown, now: number) {
	const actorId = String(needed(fieldsOf(body), "actorId"));
	const call = callFor(ws, callId);
	if (call.status !== "open") throw new ServiceError(400, `This call is ${call.status}, not open`);
	call.status = "claimed";
	if (call.ticket) call.ticket.claimedBy = actorId;
	pushMessage(
		call,
		{
			username: "System",
			userId: 0,
			message: `${agentName(ws, actorId)} has taken your call.`,
			origin: "systemMessage",
			sentFrom: "system",
		},
		now,
	);
	return { status: call.status };
}

/** `PUT /calls/{id}/end {actorId}`: an agent ends the call (`closedByAgent`); a closed one is refused (400). */
export function agentEndCall(ws: WorkspaceState, callId: string, body: unknown, now: number) {
	needed(fieldsOf(body), "actorId");
	const call = callFor(ws, callId);
	refuseIfClosed(call);
	closeCall(call, "closedByAgent", now);
	return { status: call.status };
}

const LIST_STATUSES = ["open", "claimed", "closed", "all"];

/** `GET /calls?status=open|claimed|closed|all` (absent: all): the 100 newest tickets of the workspace. */
export function listCalls(ws: WorkspaceState, status: unknown) {
	const wanted = status === undefined ? "all" : status;
	if (typeof wanted !== "string" || !LIST_STATUSES.includes(wanted)) throw internalServerError();
	return ticketsOf(ws)
		.filter((call) => wanted === "all" || call.status === wanted)
		.slice(0, CALL_LIST_LIMIT)
		.map((call) => ticketView(ws, call));
}
