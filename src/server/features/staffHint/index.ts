// The staff hint feature: likely staff, by group rank, have their join sent first in a join storm.
import { t } from "@rbxts/t";
import { isFiniteNumber } from "../../../api/arguments";
import { robloxRank } from "../../../roblox/groupRank";
import type { ServerContext } from "../../context";
import type { Feature, FeatureDeclaration } from "../../feature";

/**
 * A hint for a join storm: a player whose rank in the group is at least `minRank` is likely staff, and their join is
 * sent ahead of the queue, so staff get their tools first. It reads Roblox's `GroupService:GetRolesInGroupAsync` (the
 * highest rank among the player's roles, once per stay), which is no HttpService request and costs nothing from the
 * budget. Who is staff is still what the service answers.
 *
 * @example
 * ```ts
 * StaffOps.start({ ...config, staffHint: { groupId: 5012345, minRank: 200 } });
 * ```
 * @see README#game-integration
 */
export interface StaffHint {
	/** The Roblox group whose ranks tell staff apart. */
	readonly groupId: number;
	/** The lowest rank (1 to 255) that counts as likely staff. */
	readonly minRank: number;
}

/**
 * The staff hint's setting in `StaffOpsConfig`.
 */
export interface StaffHintConfig {
	/**
	 * Sends likely staff first in a join storm: a player whose rank in `groupId` is at least `minRank` has their join
	 * sent ahead of the queue (Roblox's `GroupService:GetRolesInGroupAsync`; no HttpService request). Default: none.
	 */
	readonly staffHint?: StaffHint;
}

// Its settings join `StaffOpsConfig` (and their resolved types `StaffOpsSettings`): the core names no feature.
declare module "../../config" {
	interface StaffOpsBaseConfig extends StaffHintConfig {}
	interface ResolvedSettings {
		readonly staffHint?: StaffHint;
	}
}

/**
 * The staff hint: likely staff (by group rank) have their join sent first in a join storm. It runs inside the
 * gathering of joins (`gathering.ts` reads the rank); this module declares its settings and picks the rank reader.
 * In the package's declarations for the config type; not an API.
 */
export const STAFF_HINT: FeatureDeclaration<StaffHintConfig, "staffHint"> = {
	name: "staffHint",
	settings: [
		{
			field: "staffHint.groupId",
			attribute: "StaffHintGroupId",
			modelDefault: 0,
			luau: "StaffHint?",
			check: [
				(value) =>
					t.strictInterface({
						groupId: (id: unknown): id is number => isFiniteNumber(id) && id > 0 && id % 1 === 0,
						minRank: (rank: unknown): rank is number =>
							isFiniteNumber(rank) && rank >= 1 && rank <= 255 && rank % 1 === 0,
					})(value),
				"{ groupId: a group id, minRank: a rank from 1 to 255 }",
			],
		},
		{ field: "staffHint.minRank", attribute: "StaffHintMinRank", modelDefault: 0, min: 1, max: 255 },
	],
	remotes: [],
	clientParts: [],
};

/** The staff hint as the gathering uses it. @internal */
export class StaffHintFeature implements Feature {
	readonly declaration = STAFF_HINT;
	/** A player's rank in a group: the seam, or Roblox's GroupService. */
	readonly rankOf: (player: Player, groupId: number) => number;

	constructor(private readonly ctx: ServerContext) {
		this.rankOf = ctx.seams.rankOf ?? robloxRank;
	}

	diagnostics(): { readonly groupId?: number } {
		return { groupId: this.ctx.config.staffHint?.groupId };
	}
}
