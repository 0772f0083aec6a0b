import { GroupService } from "@rbxts/services";

/** Reads a player's rank in a group; yields, may throw. @internal */
export type RankReader = (player: Player, groupId: number) => number;

type Method = (this: void, self: Instance, ...args: Array<unknown>) => unknown;

/** `instance[name]` when this engine has that member, else undefined (indexing a missing member throws in Roblox). */
function methodOf(instance: Instance, name: string): Method | undefined {
	const [ok, member] = pcall(() => (instance as unknown as Record<string, unknown>)[name]);
	return ok && typeIs(member, "function") ? (member as Method) : undefined;
}

/** The highest `Rank` among the roles of a `GetRolesInGroupAsync` answer, 0 when not a member. */
function highestRole(answer: unknown): number {
	if (!typeIs(answer, "table")) error("GetRolesInGroupAsync answered no table");
	const { IsMember: member, Roles: roles } = answer as { IsMember?: unknown; Roles?: unknown };
	if (member !== true) return 0;
	if (!typeIs(roles, "table")) error("GetRolesInGroupAsync answered no Roles");
	// Roles come "ordered as returned by the backend" (docs/roblox.md#getrolesingroupasync): every one is read.
	let highest = 0;
	for (const role of roles as Array<unknown>) {
		const rank = typeIs(role, "table") ? (role as { Rank?: unknown }).Rank : undefined;
		if (typeIs(rank, "number") && rank > highest) highest = rank;
	}
	return highest;
}

/**
 * The highest rank among the player's public roles in the group, 0 when not a member. Reads
 * `GroupService:GetRolesInGroupAsync` (`{ IsMember, Roles: { Id, Name, Rank }[] }`, public roles only, in no promised
 * order), which replaces the deprecated `Player:GetRankInGroup`; on an engine without it, the older
 * `Player:GetRankInGroupAsync`, then `Player:GetRankInGroup`. Throws on an answer of any other shape.
 * @internal
 */
export const robloxRank: RankReader = (player, groupId) => {
	const roles = methodOf(GroupService, "GetRolesInGroupAsync");
	if (roles !== undefined) return highestRole(roles(GroupService, player.UserId, groupId));
	const rankAsync = methodOf(player, "GetRankInGroupAsync");
	if (rankAsync !== undefined) return rankAsync(player, groupId) as number;
	return player.GetRankInGroup(groupId);
};

/** One role of a group: its name and rank (0 to 255). @internal */
export interface GroupRole {
	readonly name: string;
	readonly rank: number;
}

/** Reads every role of a group; yields, may throw. @internal */
export type GroupRolesReader = (groupId: number) => ReadonlyArray<GroupRole>;

/**
 * Every role of the group, from `GroupService:GetGroupInfoAsync` (`{ Roles: { Name, Rank }[] }`, all the group's roles,
 * docs/roblox.md#getgroupinfoasync): `GetRolesInGroupAsync` lists only the roles one user holds, so it cannot resolve
 * a role the target does not hold yet. Entries of another shape are left out; an answer without `Roles` throws.
 * @internal
 */
export const robloxGroupRoles: GroupRolesReader = (groupId) => {
	const answer = GroupService.GetGroupInfoAsync(groupId) as unknown;
	const roles = typeIs(answer, "table") ? (answer as { Roles?: unknown }).Roles : undefined;
	if (!typeIs(roles, "table")) error("GetGroupInfoAsync answered no Roles");
	const list = new Array<GroupRole>();
	for (const role of roles as Array<unknown>) {
		const { Name: name, Rank: rank } = (typeIs(role, "table") ? role : {}) as { Name?: unknown; Rank?: unknown };
		if (typeIs(name, "string") && typeIs(rank, "number")) list.push({ name, rank });
	}
	return list;
};
