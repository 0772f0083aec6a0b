import { notFound } from "../service-error.js";
import type { Store } from "../store.js";
import type { WorkspaceState } from "../workspace-state.js";

/** The workspace a control request names by `groupId`; without one, the seed's first. Unknown: 404. */
export function workspaceByGroup(store: Store, groupId: string | undefined): WorkspaceState {
	const ws = groupId === undefined ? store.workspaces()[0] : store.workspaces().find((w) => w.groupId === groupId);
	if (!ws) throw notFound(`Unknown workspace ${groupId}`);
	return ws;
}
