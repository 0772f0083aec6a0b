import type { WorkspaceState } from "../workspace-state.js";

/**
 * What the `api-key` header of a ranking request was: a ranking key the service was given (`/_control/ranking-keys`),
 * a workspace's loader-id key (which this route refuses), another value, or nothing.
 */
export type RankingKeyUsed = "ranking" | "loader-id" | "unknown" | "missing";

/** One `PUT /ranking/users/:id/role/:rank` as it arrived (never a header's value), for specs to count and check. */
export interface RankCall {
	/** The workspace whose ranking key it carried; null when refused. */
	groupId: string | null;
	userId: string;
	rank: string;
	accepted: boolean;
	apiKey: RankingKeyUsed;
	/** Whether a `loader-id` header came too (a client should send only the ranking key there). */
	loaderIdSent: boolean;
	at: number;
}

/**
 * `PUT /ranking/users/:id/role/:rank` with the workspace's ranking key in `api-key`: sets the user's role (the rank
 * as sent, percent-decoded) and answers `{success: true}`. The deployed service's answer body is not documented, so
 * a client should read only the status; setting the same role again changes nothing.
 */
export function setRank(ws: WorkspaceState, userId: string, rank: string) {
	ws.ranks.set(userId, rank);
	return { success: true };
}
