/** How long a join waits for the rank before it goes out as an ordinary join. @internal */
export const RANK_WAIT_SECONDS = 3;

/** Reads a player's rank in a group; yields, may throw. @internal */
export type RankReader = (player: Player, groupId: number) => number;

/** @internal */
export const robloxRank: RankReader = (player, groupId) => player.GetRankInGroup(groupId);

const MAX_CACHED = 1000;

/**
 * Ranks already read, by user id: a player who rejoins is not read again. Bounded: past 1,000 entries it starts
 * over.
 * @internal
 */
export class RankCache {
	private readonly ranks = new Map<number, number>();
	private size = 0;

	get(userId: number): number | undefined {
		return this.ranks.get(userId);
	}

	set(userId: number, rank: number): void {
		if (this.size >= MAX_CACHED) {
			this.ranks.clear();
			this.size = 0;
		}
		if (!this.ranks.has(userId)) this.size += 1;
		this.ranks.set(userId, rank);
	}
}
