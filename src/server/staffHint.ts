import { GroupService } from "@rbxts/services";

/** How long a join waits for the rank before it goes out as an ordinary join. @internal */
export const RANK_WAIT_SECONDS = 3;

/** Reads a player's rank in a group; yields, may throw. @internal */
export type RankReader = (player: Player, groupId: number) => number;

/**
 * The highest rank among the player's roles in the group, 0 when not a member. Reads
 * `GroupService:GetRolesInGroupAsync` (it replaces the deprecated `Player:GetRankInGroup`, whose answer for a member
 * with several roles is one of them): `{ IsMember, Roles: { Id, Name, Rank }[] }`. Throws on any other shape.
 * @internal
 */
export const robloxRank: RankReader = (player, groupId) => {
	// The pinned typings declare userId as a `User` type; Roblox's reference takes the user id (a number).
	const answer = GroupService.GetRolesInGroupAsync(player.UserId as never, groupId);
	if (!typeIs(answer, "table")) error("GetRolesInGroupAsync answered no table");
	const { IsMember: member, Roles: roles } = answer as { IsMember?: unknown; Roles?: unknown };
	if (member !== true) return 0;
	if (!typeIs(roles, "table")) error("GetRolesInGroupAsync answered no Roles");
	let highest = 0;
	for (const role of roles as Array<unknown>) {
		const rank = typeIs(role, "table") ? (role as { Rank?: unknown }).Rank : undefined;
		if (typeIs(rank, "number") && rank > highest) highest = rank;
	}
	return highest;
};
