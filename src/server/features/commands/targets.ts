// Finding the player a staff command names: by UserId, by name, or by the start of a name or display name.

/** Where a name led: one player, or why not (a sentence for the staff member). @internal */
export type TargetResult = { ok: true; player: Player } | { ok: false; problem: string };

/** The longest name a target may be given by (Roblox names are at most 20 characters; display names 20). */
const MAX_TARGET = 40;

/**
 * The one player of `present` that `given` names, never `staff` themself: a UserId (digits), a name (any case),
 * else the start of exactly one name or display name. Absent, ambiguous and self are refused with a sentence.
 * @internal
 */
export function findTarget(given: string, staff: Player, present: ReadonlyArray<Player>): TargetResult {
	if (given.size() === 0 || given.size() > MAX_TARGET) return { ok: false, problem: "Name a player in this server." };
	const wanted = given.lower();
	let found: Player | undefined;
	if (given.match("^%d+$")[0] !== undefined) {
		const userId = tonumber(given);
		found = present.find((player) => player.UserId === userId);
	}
	found ??= present.find((player) => player.Name.lower() === wanted);
	if (found === undefined) {
		const starts = (text: string) => text.lower().sub(1, wanted.size()) === wanted;
		const matches = present.filter((player) => starts(player.Name) || starts(player.DisplayName));
		if (matches.size() > 1) {
			const names = matches.map((player) => player.Name);
			const shown = names.size() > 5 ? `${names.size()} players` : names.join(", ");
			return { ok: false, problem: `"${given}" matches more than one player (${shown}); type more of the name.` };
		}
		found = matches[0];
	}
	if (found === undefined) return { ok: false, problem: `No player in this server matches "${given}".` };
	if (found === staff) return { ok: false, problem: "You cannot use this command on yourself." };
	return { ok: true, player: found };
}
