import { newDocumentId } from "../ids.js";
import type { CallMessage, TicketStatus } from "../model.js";
import { notFound } from "../service-error.js";
import { isoAt } from "../time.js";
import type { CallState, WorkspaceState } from "../workspace-state.js";

/** Only messages whose moment has come are shown, so seeded agent messages "arrive" over time. */
export function getCallMessages(
	ws: WorkspaceState,
	callId: string,
	now: number,
): { status: TicketStatus; messages: CallMessage[] } {
	const call = ws.calls.get(callId);
	if (!call) throw notFound(`Unknown call ${callId}`);
	const messages = call.messages
		.filter((entry) => entry.visibleAtMs <= now)
		.sort((a, b) => a.visibleAtMs - b.visibleAtMs)
		.map((entry) => structuredClone(entry.message));
	return { status: call.status, messages };
}

export function appendAgentMessage(
	call: CallState,
	input: { username: string; userId: number; message: string },
	now: number,
): CallMessage {
	const message: CallMessage = {
		username: input.username,
		userId: input.userId,
		message: input.message,
		id: newDocumentId(now),
		origin: "agent",
		sentFrom: "chatapp",
		created: isoAt(now),
	};
	call.messages.push({ message, visibleAtMs: now });
	return structuredClone(message);
}
