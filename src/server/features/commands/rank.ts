// `/rank <player> <rank>`: the official module's rank command, built in only when the game gives the workspace's
// separate ranking key (docs/service-contract.md#admin-chat-commands).
import { StaffOpsError } from "../../../transport/staffOpsError";
import type { GroupRole } from "../../../roblox/groupRank";
import { BuiltInSeams, who } from "./replies";
import type { StaffCommand, StaffCommandUse } from "./types";

/** The highest rank of a Roblox group role (0 is a guest's: not a rank to give). */
const MAX_RANK = 255;

/** What the website said: a refusal's reason, or the words of another 4xx (`HTTP 401: words`); undefined for none. */
function wordsOf(err: StaffOpsError): string | undefined {
	if (err.kind === "service") return err.reason !== "" ? err.reason : undefined;
	if (err.kind !== "http") return undefined;
	const [words] = err.message.match("^HTTP %d+: (.+)$");
	return typeIs(words, "string") ? words : undefined;
}

/** The result of a rank request that did not succeed, as the staff member reads it. */
function failureText(seams: BuiltInSeams, use: StaffCommandUse, target: Player, err: unknown): string {
	if (!StaffOpsError.is(err)) return `Could not rank ${who(target)} right now; try again later.`;
	if (err.mayHaveActed) {
		// The service queues the rank action before it calls Roblox: a second request would queue a second one.
		return `No answer from the website: the rank of ${who(target)} may be set or on its way. Check the website before ranking again.`;
	}
	if (err.status === 404) return `The website knows no such rank in the group, so ${who(target)} was not ranked.`;
	const words = wordsOf(err);
	// The website's words come from outside the game: filtered for the staff member, like every other such text.
	const said = words !== undefined ? seams.filterFor(words, use.staff) : undefined;
	const detail = said !== undefined ? `: ${said}` : ".";
	if (err.status === 401 || err.status === 403) {
		return `The website refused the game's ranking key (HTTP ${err.status}); ask the game's developer to check RankingKeySecret${detail}`;
	}
	if (err.kind === "service" || err.kind === "http") return `Could not rank ${who(target)}${detail}`;
	return `Could not rank ${who(target)} right now; try again later.`;
}

/** What a typed rank resolved to: the rank number and how results name it, or a sentence saying why not. */
type Resolved = { ok: true; rank: number; label: string } | { ok: false; problem: string };

/**
 * A rank number (1 to 255, digits only) as it is; anything else is a role's name, looked up among the group's roles
 * without regard to case. The service reads `{rank}` with parseInt, so a name sent as it is always fails and `1e3`
 * would rank to 1: only a rank number this resolved ever reaches the request.
 */
function resolveRank(seams: BuiltInSeams, typed: string): Resolved {
	const usage = `Give a rank number from 1 to ${MAX_RANK} or the name of one of the group's roles.`;
	if (typed.match("^%d+$")[0] !== undefined) {
		const rank = tonumber(typed);
		if (rank !== undefined && rank >= 1 && rank <= MAX_RANK) return { ok: true, rank, label: `rank ${rank}` };
		return { ok: false, problem: `That rank cannot be used. ${usage}` };
	}
	const groupId = seams.groupId();
	if (groupId === undefined)
		return { ok: false, problem: "The group's roles are not known yet; give a rank number." };
	const [read, roles] = pcall(() => seams.groupRoles(groupId));
	if (!read) return { ok: false, problem: "The group's roles could not be read right now; give a rank number." };
	const wanted = typed.lower();
	const role = (roles as ReadonlyArray<GroupRole>).find((candidate) => candidate.name.lower() === wanted);
	if (role === undefined || role.rank < 1 || role.rank > MAX_RANK) {
		return { ok: false, problem: `The group has no role by that name. ${usage}` };
	}
	return { ok: true, rank: role.rank, label: `${role.name} (rank ${role.rank})` };
}

/**
 * `/rank <player> <rank>`: sets the player's role on the staff website (`client.commands.setRank`, the ranking key in
 * its own header), by rank number or by a role's name, resolved in game against the group's roles. Only the answer's
 * status is read, as the route's body is not documented: any 2xx is done; a refusal or another 4xx shows the
 * website's words, filtered. One request per use, never repeated: the service queues the rank action before it calls
 * Roblox, so after an unknown outcome the staff member is told to check the website instead.
 * @internal
 */
export function rankCommand(seams: BuiltInSeams): StaffCommand {
	return {
		name: "rank",
		description: "Sets a player's rank in the workspace's group, by rank number or role name",
		parameters: [
			{ name: "player", type: "player" },
			{ name: "rank", type: "text" },
		],
		run: (use) => {
			const target = use.args[0] as Player;
			const resolved = resolveRank(seams, use.args[1] as string);
			if (!resolved.ok) return resolved.problem;
			const [ok, err] = seams.client.commands
				.setRank(target.UserId, tostring(resolved.rank), { priority: "high", maxAttempts: 1 })
				.await();
			if (ok) return `Ranked ${who(target)} to ${resolved.label}.`;
			return failureText(seams, use, target, err);
		},
	};
}
