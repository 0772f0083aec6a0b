import type {
	ActivitySession,
	ActivitySummary,
	HistoryItem,
	Order,
	RunningGame,
	RunningPlayer,
	Workspace,
	WorkspaceProfile,
} from "./model.js";
import { isoAt } from "./time.js";
import type { RunningServer } from "./workspace-state.js";

/**
 * The key is never echoed: answers get logged by games and tools, so `loaderId` carries only enough to tell
 * keys apart ("****" + the last four characters).
 */
export function maskKey(key: string): string {
	return "****" + key.slice(-4);
}

export function workspaceView(profile: WorkspaceProfile, key: string): Workspace {
	return { ...structuredClone(profile), loaderId: maskKey(key) };
}

/** GET /staff/history lists items without `type`. */
export function historyListView(item: HistoryItem): Omit<HistoryItem, "type"> {
	const copy: Partial<HistoryItem> = structuredClone(item);
	delete copy.type;
	return copy as Omit<HistoryItem, "type">;
}

/** createOrder answers without `status`, releaseOrder with it. */
export function orderView(order: Order, withStatus: boolean): Order {
	const copy = structuredClone(order);
	if (!withStatus) delete copy.status;
	return copy;
}

export function runningGameView(server: RunningServer): RunningGame {
	return {
		...structuredClone(server.game),
		players: server.players.map((player) => player.userId),
		lastPing: isoAt(server.lastPingMs),
	};
}

/** The running players; `userSessionId` only when `withSessionIds` (the deployed profile's list). */
export function runningPlayersView(server: RunningServer, withSessionIds = false): RunningPlayer[] {
	return server.players.map((player) => {
		const view = structuredClone(player);
		if (!withSessionIds) delete view.userSessionId;
		return view;
	});
}

export function summaryView(summary: ActivitySummary): ActivitySummary {
	return structuredClone(summary);
}

export function sessionView(session: ActivitySession): ActivitySession {
	return structuredClone(session);
}
