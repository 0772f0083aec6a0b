import type { TeamMembership } from "../model.js";
import type { WorkspaceState } from "../workspace-state.js";

/** A user in no team (or unknown) simply has none: the interface shows no failure for this operation. */
export function getUserTeams(ws: WorkspaceState, userId: string): TeamMembership[] {
	return structuredClone(ws.memberships.get(userId) ?? []);
}
