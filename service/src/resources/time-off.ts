import type { TimeOffRequest } from "../model.js";
import { notFound } from "../service-error.js";
import type { WorkspaceState } from "../workspace-state.js";

export function listTimeOff(ws: WorkspaceState): TimeOffRequest[] {
	return structuredClone(ws.timeOff);
}

export function getTimeOff(ws: WorkspaceState, requestId: string): TimeOffRequest {
	const request = ws.timeOff.find((r) => r._id === requestId);
	if (!request) throw notFound(`Unknown time off request ${requestId}`);
	return structuredClone(request);
}
