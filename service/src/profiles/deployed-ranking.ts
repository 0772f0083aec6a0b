import { ServiceError, notFound } from "../service-error.js";
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

/** A role of the workspace's Roblox group: its role id, name and rank (0–255). */
export interface GroupRole {
	id: number;
	name: string;
	rank: number;
}

/** A rank action the service queued (before it calls Roblox), kept whatever Roblox then answered. */
export interface RankAction {
	userId: string;
	roleId: number;
	rank: number;
	at: number;
}

/**
 * The group roles every workspace starts with (the seed has none): the seeded staff's ranks by name, with role ids
 * far from any rank number so a spec can tell a role id from a rank. `/_control/group-roles` replaces them.
 */
export const DEFAULT_GROUP_ROLES: readonly GroupRole[] = [
	{ id: 7_000_000, name: "Guest", rank: 0 },
	{ id: 7_000_001, name: "Member", rank: 1 },
	{ id: 7_000_010, name: "Trainee", rank: 10 },
	{ id: 7_000_050, name: "Cashier", rank: 50 },
	{ id: 7_000_150, name: "Moderator", rank: 150 },
	{ id: 7_000_200, name: "Head Moderator", rank: 200 },
	{ id: 7_000_255, name: "Owner", rank: 255 },
];

/**
 * `PUT /ranking/users/:id/role/:rank` with the workspace's ranking key in `api-key`, as the deployed service does
 * (DESIGN §3): `{rank}` is read with JavaScript's parseInt (`"1e3"` is 1, `"12abc"` 12, a name NaN) and looked up as a
 * role id, then as a rank number; none found answers 404 "Rank not found.". A role found is queued as a rank action
 * BEFORE Roblox is called, so a request whose Roblox call fails (500, `/_control/ranking-failures`) or whose answer
 * is lost has still queued one, and a repeat queues another. Then `{success: true}`; a client reads only the status.
 */
export function setRank(ws: WorkspaceState, userId: string, rank: string, now: number) {
	const wanted = parseInt(rank, 10);
	const role = Number.isNaN(wanted)
		? undefined
		: (ws.groupRoles.find((candidate) => candidate.id === wanted) ??
			ws.groupRoles.find((candidate) => candidate.rank === wanted));
	if (!role) throw notFound("Rank not found.");
	ws.rankActions.push({ userId, roleId: role.id, rank: role.rank, at: now });
	if (ws.rankRobloxFailures > 0) {
		ws.rankRobloxFailures -= 1;
		throw new ServiceError(500, "Internal server error");
	}
	ws.ranks.set(userId, role.name);
	return { success: true };
}
