// Reading a typed command: its name, then each parameter in order, checked and bounded.
import { characterCount } from "../../../shared/textLength";
import { readDuration } from "./duration";
import { findTarget } from "./targets";
import type { StaffCommand, StaffCommandArgument, StaffCommandParameter } from "./types";

/** The longest `text` argument (a reason), in characters: the service's own reason fields are short. @internal */
export const MAX_TEXT_ARGUMENT = 200;
/** The longest `word` argument, in characters. */
const MAX_WORD = 50;

/** A command's name as typed (`/Kick` is `kick`), or undefined when the text does not start with one. @internal */
export function commandNameOf(text: string): string | undefined {
	const [name] = text.match("^/([%a][%w_]*)");
	return name !== undefined && (name as string).size() <= 20 ? (name as string).lower() : undefined;
}

/** How a command is typed, e.g. `/ban <player> [days] [reason]`. @internal */
export function usageOf(command: StaffCommand): string {
	const parts = [`/${command.name.lower()}`];
	for (const parameter of command.parameters ?? []) {
		parts.push(parameter.optional === true ? `[${parameter.name}]` : `<${parameter.name}>`);
	}
	return parts.join(" ");
}

/** The arguments read, or a sentence for the staff member saying what is wrong. @internal */
export type ParseResult = { ok: true; args: Array<StaffCommandArgument> } | { ok: false; problem: string };

/**
 * Reads `text` (the whole line, `/name ...`) against `command`'s parameters. Players are looked up among `present`
 * ({@link findTarget}); a word or text longer than its bound, a number that is not finite, or a missing required
 * parameter is refused with the usage.
 * @internal
 */
export function parseCommand(
	command: StaffCommand,
	text: string,
	staff: Player,
	present: ReadonlyArray<Player>,
): ParseResult {
	const [afterName] = text.match("^/[%w_]+%s*(.*)$");
	let rest = typeIs(afterName, "string") ? afterName : "";
	// Indexed, not pushed: a left-out optional parameter is a hole (nil), as Luau arrays hold no undefined.
	const args = new Array<StaffCommandArgument>();
	let index = 0;
	const usage = `Usage: ${usageOf(command)}`;
	for (const parameter of command.parameters ?? []) {
		index += 1;
		const [token, after] = nextToken(rest, parameter);
		if (token === "") {
			if (parameter.optional !== true) return { ok: false, problem: usage };
			continue;
		}
		const [ok, value, problem] = readArgument(parameter, token, staff, present);
		if (!ok) {
			// An optional number or length that is not one is left out: the word is the next parameter's (`/ban x spam`).
			const skippable = parameter.type === "number" || parameter.type === "duration";
			if (skippable && parameter.optional === true && problem === undefined) continue;
			return { ok: false, problem: problem ?? usage };
		}
		args[index - 1] = value;
		rest = after;
	}
	return { ok: true, args };
}

/** The next token for `parameter` (the rest of the line for `text`) and what follows it. */
function nextToken(rest: string, parameter: StaffCommandParameter): [token: string, after: string] {
	if (parameter.type === "text") {
		const [trimmed] = rest.match("^%s*(.-)%s*$");
		return [typeIs(trimmed, "string") ? trimmed : "", ""];
	}
	const [token, after] = rest.match("^%s*(%S+)%s*(.*)$");
	return typeIs(token, "string") ? [token, typeIs(after, "string") ? after : ""] : ["", ""];
}

/** One argument's value; `problem` only when the sentence is more precise than the usage. */
function readArgument(
	parameter: StaffCommandParameter,
	token: string,
	staff: Player,
	present: ReadonlyArray<Player>,
): [ok: boolean, value?: StaffCommandArgument, problem?: string] {
	switch (parameter.type) {
		case "player": {
			const target = findTarget(token, staff, present);
			return target.ok ? [true, target.player] : [false, undefined, target.problem];
		}
		case "number": {
			const value = tonumber(token);
			const finite = value !== undefined && value === value && value !== math.huge && value !== -math.huge;
			return finite ? [true, value] : [false];
		}
		case "duration": {
			const [days, problem] = readDuration(token);
			return days !== undefined ? [true, days] : [false, undefined, problem];
		}
		case "word":
			return characterCount(token) <= MAX_WORD
				? [true, token]
				: [false, undefined, `The ${parameter.name} is too long.`];
		case "text":
			return characterCount(token) <= MAX_TEXT_ARGUMENT
				? [true, token]
				: [false, undefined, `The ${parameter.name} is too long (at most ${MAX_TEXT_ARGUMENT} characters).`];
	}
	return [false];
}
