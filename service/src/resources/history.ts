import { newDocumentId } from "../ids.js";
import type { HistoryItem, HistoryType } from "../model.js";
import { isoAt } from "../time.js";
import { historyListView } from "../views.js";
import type { WorkspaceState } from "../workspace-state.js";

export interface RecordHistoryInput {
	actioningUser: string;
	userId: string;
	reason: string;
	type: HistoryType;
	approval_required: boolean;
	notify?: boolean;
	role?: string;
	expiresInDays?: number;
}

const DAY_MS = 86_400_000;

/**
 * `role` becomes `rankTo` and the user's rank from then on, so the next item's `rankFrom` shows it;
 * `rankFrom` is the user's seeded (or last recorded) rank, "" for someone without one.
 */
export function recordHistory(ws: WorkspaceState, input: RecordHistoryInput, now: number): HistoryItem {
	const item: HistoryItem = {
		_id: newDocumentId(now),
		groupId: ws.groupId,
		type: input.type,
		userId: input.userId,
		disciplinarianId: input.actioningUser,
		reason: input.reason,
		created: isoAt(now),
		rankFrom: ws.ranks.get(input.userId) ?? "",
		ended: false,
		pendingApproval: input.approval_required,
		distribution: ws.profile.currentDistribution,
	};
	if (input.expiresInDays !== undefined) item.expires = isoAt(now + input.expiresInDays * DAY_MS);
	if (input.role !== undefined) {
		item.rankTo = input.role;
		ws.ranks.set(input.userId, input.role);
	}
	if (input.notify !== undefined) item.notify = input.notify;
	ws.history.push(item);
	return structuredClone(item);
}

/** The interface's odd empty form: success with a reason and no `history`. */
export function listHistory(ws: WorkspaceState): { history: Omit<HistoryItem, "type">[] } | { reason: string } {
	if (ws.history.length === 0) return { reason: "No history found" };
	return { history: ws.history.map(historyListView) };
}
