import { orderView, runningGameView, runningPlayersView } from "../views.js";
import type { WorkspaceState } from "../workspace-state.js";

/** What the service recorded for one workspace, for tests to assert on; never the key. */
export function workspaceStateView(ws: WorkspaceState) {
	const servers = [...ws.servers.values()];
	return {
		groupId: ws.groupId,
		runningGames: servers.map(runningGameView),
		runningPlayers: servers.flatMap((server) => runningPlayersView(server)),
		joins: structuredClone(ws.joins),
		history: structuredClone(ws.history),
		orders: [...ws.orders.values()].map((order) => orderView(order, true)),
	};
}
