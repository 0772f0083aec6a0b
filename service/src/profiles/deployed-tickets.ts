import { newDocumentId } from "../ids.js";
import type { CallMessage, TicketStatus } from "../model.js";
import { ServiceError, notFound } from "../service-error.js";
import { isoAt } from "../time.js";
import type { CallState, RunningServer, WorkspaceState } from "../workspace-state.js";
import { internalServerError, isDocumentId } from "./deployed-ids.js";
import type { ClosedReason, TicketInfo } from "./deployed-records.js";

/** How many tickets `GET /calls` lists, newest first. */
export const CALL_LIST_LIMIT = 100;

const CLOSING_WORDS: Record<string, string> = {
	closedByUser: "The call was ended by the player.",
	userLeft: "The call was ended because the player left the game.",
	serverClosed: "The call was ended because the server closed.",
	closedByAgent: "The call was ended by a staff member.",
};

/** A message as a ticket's transcript stores it; it is visible at once. */
export function pushMessage(call: CallState, message: Omit<CallMessage, "id" | "created">, now: number, id?: string) {
	const stored: CallMessage = { ...message, id: id ?? newDocumentId(now), created: isoAt(now) };
	call.messages.push({ message: stored, visibleAtMs: now });
	return structuredClone(stored);
}

function systemMessage(call: CallState, text: string, now: number): void {
	pushMessage(
		call,
		{ username: "System", userId: 0, message: text, origin: "systemMessage", sentFrom: "system" },
		now,
	);
}

/** A ticket with its whole transcript, as `support/create`, `GET /calls` and `ongoingChats` answer it. */
export function ticketView(ws: WorkspaceState, call: CallState & { ticket: TicketInfo }) {
	const { ticket } = call;
	return {
		_id: ticket._id,
		groupId: ws.groupId,
		callType: ticket.callType,
		status: call.status,
		callerId: ticket.callerId,
		reason: ticket.reason,
		reporting: ticket.reporting,
		players: structuredClone(ticket.players),
		runningGameId: ticket.runningGameId,
		created: isoAt(ticket.createdMs),
		claimedBy: ticket.claimedBy,
		closedReason: ticket.closedReason,
		messages: call.messages.map((entry) => structuredClone(entry.message)),
	};
}

function isTicket(call: CallState): call is CallState & { ticket: TicketInfo } {
	return call.ticket !== undefined;
}

/** The workspace's tickets (calls with a ticket behind them), newest first. */
export function ticketsOf(ws: WorkspaceState): (CallState & { ticket: TicketInfo })[] {
	// Reversed first so tickets created in the same millisecond still list newest first (the sort is stable).
	return [...ws.calls.values()]
		.filter(isTicket)
		.reverse()
		.sort((a, b) => b.ticket.createdMs - a.ticket.createdMs);
}

/** Call ids are 24-hex ids: anything else breaks the lookup (500); an unknown one is a 404. */
export function callFor(ws: WorkspaceState, callId: unknown): CallState {
	if (!isDocumentId(callId)) throw internalServerError();
	const call = ws.calls.get(callId);
	if (!call) throw notFound(`Call ${callId} not found`);
	return call;
}

/** Open or claimed: the call is still going on. */
export function isLive(status: TicketStatus): boolean {
	return status === "open" || status === "claimed";
}

/** Closes a live call with a system message noting why; the closure goes out once in ongoingChats. */
export function closeCall(call: CallState, reason: ClosedReason, now: number): void {
	call.status = "closed";
	systemMessage(call, CLOSING_WORDS[reason] ?? `The call was ended (${reason}).`, now);
	if (call.ticket) {
		call.ticket.closedReason = reason;
		call.ticket.acknowledged = false;
	}
}

/** A closed call cannot be closed again (support/end's repeat, an agent's second end). */
export function refuseIfClosed(call: CallState): void {
	if (call.status === "closed") throw new ServiceError(400, "This call is already closed");
}

export interface NewTicket {
	callType: string;
	callerId: number;
	reason: string;
	reporting: string | null;
	players: unknown[];
	status: TicketStatus;
	claimedBy: string | null;
}

/** Stores a new ticket on a server and returns its call state. */
export function openTicket(ws: WorkspaceState, server: RunningServer, input: NewTicket, now: number) {
	const _id = newDocumentId(now);
	const call: CallState & { ticket: TicketInfo } = {
		status: input.status,
		messages: [],
		ticket: {
			_id,
			callType: input.callType,
			callerId: input.callerId,
			reason: input.reason,
			reporting: input.reporting,
			players: input.players,
			runningGameId: server.game._id,
			createdMs: now,
			claimedBy: input.claimedBy,
			closedReason: null,
			acknowledged: false,
		},
	};
	ws.calls.set(_id, call);
	return call;
}

/** The caller's open or claimed ticket on this server, if any. */
export function liveTicketOf(ws: WorkspaceState, server: RunningServer, callerId: number) {
	return ticketsOf(ws).find(
		(call) =>
			call.ticket.runningGameId === server.game._id && call.ticket.callerId === callerId && isLive(call.status),
	);
}

/** A leave ends the player's live calls on that server (`userLeft`). */
export function endCallsOfLeaver(ws: WorkspaceState, server: RunningServer, userId: string, now: number): void {
	for (const call of ticketsOf(ws)) {
		if (call.ticket.runningGameId !== server.game._id || String(call.ticket.callerId) !== userId) continue;
		if (isLive(call.status)) closeCall(call, "userLeft", now);
	}
}

/**
 * sendData's `ongoingChats`: this server's tickets that are open, claimed, or closed and not yet acknowledged,
 * each with its whole transcript. A closed ticket is acknowledged as it is handed over, so a lost answer loses
 * the closure.
 */
export function handOverOngoingChats(ws: WorkspaceState, server: RunningServer) {
	const chats = ticketsOf(ws).filter(
		(call) =>
			call.ticket.runningGameId === server.game._id &&
			(isLive(call.status) || (call.status === "closed" && !call.ticket.acknowledged)),
	);
	const answer = chats.map((call) => ticketView(ws, call));
	for (const call of chats) if (call.status === "closed") call.ticket.acknowledged = true;
	return answer;
}
