import { getActivity } from "../resources/activity.js";
import { getCallMessages } from "../resources/calls.js";
import type { WorkspaceState } from "../workspace-state.js";
import { internalServerError, isDocumentId } from "./deployed-ids.js";

/** A user without a summary is not a 404 in the deployed service: `summary:null` and no sessions. */
export function deployedGetActivity(ws: WorkspaceState, userId: string) {
	if (!ws.summaries.has(userId)) return { summary: null, sessions: [] };
	return getActivity(ws, userId);
}

/** Call ids are 24-hex ids: any other id breaks the deployed service's lookup (500). */
export function deployedGetCallMessages(ws: WorkspaceState, callId: string, now: number) {
	if (!isDocumentId(callId)) throw internalServerError();
	return getCallMessages(ws, callId, now);
}

/**
 * The deployed service is a NestJS application: a route it lacks (including the interface's order routes)
 * answers NestJS's 404, a body without `success`.
 */
export function nestNotFound(method: string, path: string) {
	return { message: `Cannot ${method} ${path}`, error: "Not Found", statusCode: 404 };
}
