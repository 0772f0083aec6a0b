// `/rank <player> <rank>`: the official module's rank command, built in only when the game gives the workspace's
// separate ranking key (docs/service-contract.md#admin-chat-commands).
import { rankProblem } from "../../api/resources/ranking";
import { StaffOpsError } from "../../transport/staffOpsError";
import type { BuiltInSeams } from "./builtins";
import { who } from "./replies";
import type { StaffCommand, StaffCommandUse } from "./types";

/** What the website said: a refusal's reason, or the words of another 4xx (`HTTP 401: words`); undefined for none. */
function wordsOf(err: StaffOpsError): string | undefined {
	if (err.kind === "service") return err.reason !== "" ? err.reason : undefined;
	if (err.kind !== "http") return undefined;
	const [words] = err.message.match("^HTTP %d+: (.+)$");
	return typeIs(words, "string") ? words : undefined;
}

/** The result of a rank request that did not succeed, as the staff member reads it. */
function failureText(seams: BuiltInSeams, use: StaffCommandUse, target: Player, rank: string, err: unknown): string {
	if (!StaffOpsError.is(err)) return `Could not rank ${who(target)} right now; try again later.`;
	if (err.mayHaveActed) {
		// Setting a role is safe to repeat, so saying "try again" is honest here, unlike after a ban.
		return `No answer from the website: ${who(target)} may already be ranked ${rank}. Running /rank again is harmless.`;
	}
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

/**
 * `/rank <player> <rank>`: sets the player's role on the staff website (`client.commands.setRank`, the ranking key in
 * its own header). Only the answer's status is read, as the route's body is not documented: any 2xx is done; a
 * refusal or another 4xx shows the website's words, filtered. Setting a role twice leaves the same role, so the
 * request may be repeated after an unknown outcome (one retry, as for other safe-to-repeat requests), and the staff
 * member is told running it again is harmless.
 * @internal
 */
export function rankCommand(seams: BuiltInSeams): StaffCommand {
	return {
		name: "rank",
		description: "Sets a player's rank in the workspace's group",
		parameters: [
			{ name: "player", type: "player" },
			{ name: "rank", type: "text" },
		],
		run: (use) => {
			const target = use.args[0] as Player;
			const rank = use.args[1] as string;
			const problem = rankProblem(rank);
			if (problem !== undefined) return `That rank cannot be used: ${problem.gsub("`", "")[0]}.`;
			const [ok, err] = seams.client.commands
				.setRank(target.UserId, rank, { priority: "high", maxAttempts: 2 })
				.await();
			if (ok) return `Ranked ${who(target)} to ${rank}.`;
			return failureText(seams, use, target, rank, err);
		},
	};
}
