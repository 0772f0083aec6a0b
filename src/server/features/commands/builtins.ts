// The built-in staff commands: what the official module's do (docs/service-contract.md#admin-chat-commands).
import type { HistoryType } from "../../../api/resources/history";
import { StaffOpsError } from "../../../transport/staffOpsError";
import { endText } from "./duration";
import { rankCommand } from "./rank";
import { BuiltInSeams, shown, who } from "./replies";
import type { StaffCommand, StaffCommandUse } from "./types";

const NO_REASON = "No reason given";
const player = { name: "player", type: "player" } as const;
const reason = { name: "reason", type: "text", optional: true } as const;
// Named `days` as the official module registers it (grants and the website's page keep it); typed `3d`, `2w`, `48h`.
const days = { name: "days", type: "duration", optional: true } as const;

const reasonOf = (use: StaffCommandUse, index: number) => (use.args[index] as string | undefined) ?? NO_REASON;

/** Kicks `target` with a text that names `reason` when it passes the filter for them. */
function kickWith(seams: BuiltInSeams, target: Player, lead: string, why: string): void {
	const filtered = seams.filterFor(why, target);
	target.Kick(filtered !== undefined ? `${lead}: ${filtered}` : `${lead}.`);
}

/** A staff history entry (`POST /staff/history`), sent once: an unknown outcome is said, never repeated. */
function historyCommand(seams: BuiltInSeams, name: string, historyType: HistoryType, done: string): StaffCommand {
	const withDays = historyType === "suspension";
	return {
		name,
		description: `Records a ${historyType} on the staff member's history`,
		parameters: withDays ? [player, days, reason] : [player, reason],
		run: (use) => {
			const target = use.args[0] as Player;
			// Whole days from 1 to 36500, read by the parser (`duration.ts`); undefined: no end.
			const expiresInDays = withDays ? (use.args[1] as number | undefined) : undefined;
			const why = reasonOf(use, withDays ? 2 : 1);
			const [ok, err] = seams.client.history
				.record(
					{
						actioningUser: tostring(use.staff.UserId),
						userId: tostring(target.UserId),
						reason: name === "demote" ? `Demotion: ${why}` : why,
						type: historyType,
						approval_required: false,
						...(expiresInDays !== undefined ? { expiresInDays } : {}),
					},
					{ priority: "high", maxAttempts: 1 },
				)
				.await();
			if (ok) return withDays ? `${done} ${who(target)} ${endText(expiresInDays)}.` : `${done} ${who(target)}.`;
			if (StaffOpsError.is(err) && err.mayHaveActed) {
				return `No answer from the website: the entry for ${who(target)} may be recorded. Check the website before repeating.`;
			}
			return shown(seams, err, use.staff, `The entry for ${who(target)} could not be recorded; try again later.`);
		},
	};
}

/**
 * The built-in commands, `/rank` only when the game gave the workspace's separate ranking key. Each is the official
 * module's command of the same name and is registered under its id, `readmin_<name>` (`registry.ts`), so the grants a
 * workspace made for the official module apply; each is offered only to the players the service allows.
 * @internal
 */
export function builtInCommands(seams: BuiltInSeams): Array<StaffCommand> {
	const commands: Array<StaffCommand> = [
		{
			name: "kick",
			description: "Removes a player from this server",
			parameters: [player, reason],
			run: (use) => {
				const target = use.args[0] as Player;
				kickWith(seams, target, "You were kicked by a staff member", reasonOf(use, 1));
				return `Kicked ${who(target)}.`;
			},
		},
		{
			name: "find",
			description: "Takes you to a player in this server",
			parameters: [player],
			run: (use) => {
				const target = use.args[0] as Player;
				const there = target.Character?.GetPivot();
				const character = use.staff.Character;
				if (there === undefined || character === undefined) return `${who(target)} is in this server.`;
				character.PivotTo(there.mul(new CFrame(0, 0, 4)));
				return `Took you to ${who(target)}.`;
			},
		},
		{
			name: "ban",
			description: "Kicks a player and bans them, for ever or for some days",
			parameters: [player, days, reason],
			run: (use) => banCommand(seams, use),
		},
		historyCommand(seams, "warn", "writeup", "Recorded a warning for"),
		historyCommand(seams, "suspend", "suspension", "Recorded a suspension for"),
		historyCommand(seams, "terminate", "termination", "Recorded a termination for"),
		historyCommand(seams, "promote", "promotion", "Recorded a promotion for"),
		historyCommand(seams, "demote", "promotion", "Recorded a demotion for"),
		{
			name: "verify",
			description: "Links your Roblox account to your website account with a code",
			parameters: [{ name: "code", type: "word" }],
			run: (use) => verifyCommand(seams, use),
		},
	];
	if (seams.ranking) commands.push(rankCommand(seams));
	return commands;
}

/** `/ban`: kicks at once, then records the ban once (`POST /games/bans`); an unknown outcome is said, not repeated. */
function banCommand(seams: BuiltInSeams, use: StaffCommandUse): string {
	const target = use.args[0] as Player;
	const expiresInDays = use.args[1] as number | undefined;
	const why = reasonOf(use, 2);
	const userId = target.UserId;
	kickWith(seams, target, "You are banned from this game", why);
	const [ok, err] = seams.client.commands
		.ban(
			{
				userId,
				reason: why,
				bannedByUserId: use.staff.UserId,
				...(expiresInDays !== undefined ? { expiresInDays } : {}),
			},
			{ priority: "high", maxAttempts: 1 },
		)
		.await();
	if (ok) return `Banned ${who(target)} ${endText(expiresInDays)}.`;
	if (StaffOpsError.is(err) && err.mayHaveActed) {
		return `Kicked ${who(target)}; no answer from the website, so the ban may be recorded. Check the website before banning again.`;
	}
	return shown(seams, err, use.staff, `Kicked ${who(target)}, but the ban could not be recorded; try again later.`);
}

/**
 * The deployed service's verify refusals are codes (docs/service-contract.md#admin-chat-commands), never shown as
 * they are: each gets a sentence, and a code it may add later the general one.
 */
const VERIFY_REFUSALS: { readonly [reason: string]: string | undefined } = {
	not_found: "That code does not exist. Check it on the website and type it exactly as it is shown there.",
	already_used: "That code has been used already. Get a new code on the website.",
	expired: "That code has expired. Get a new code on the website.",
};
const VERIFY_OTHER = "The website did not accept that code. Get a new code on the website and try again.";

/** `/verify <code>`: links the player to the code's website account once; a refusal is said in a sentence of ours. */
function verifyCommand(seams: BuiltInSeams, use: StaffCommandUse): string {
	const runningGameId = seams.runningGameId();
	if (runningGameId === undefined) return "The website cannot be reached right now; try again later.";
	const code = use.args[0] as string;
	const [ok, answer] = seams.client.commands
		.verifyLink(runningGameId, code, use.staff.UserId, { priority: "high", maxAttempts: 1 })
		.await();
	if (ok) {
		const linkedTo = answer.linkedTo !== undefined ? seams.filterFor(answer.linkedTo, use.staff) : undefined;
		return linkedTo !== undefined ? `Your account is linked to ${linkedTo}.` : "Your account is linked.";
	}
	if (StaffOpsError.is(answer) && answer.mayHaveActed) {
		return "No answer from the website: the code may have worked. Check the website before using another.";
	}
	if (StaffOpsError.is(answer) && answer.kind === "service") return VERIFY_REFUSALS[answer.reason] ?? VERIFY_OTHER;
	return "The code could not be checked right now; try again later.";
}
