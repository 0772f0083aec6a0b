// The commands of one server: the built-ins and the game's own, by id, each name checked once at start.
import { logWarn } from "../../background/log";
import { MAX_OFFERED } from "../../shared/commandsProtocol";
import type { StaffCommand, StaffCommandParameter } from "./types";

const TYPES = new Set(["player", "number", "word", "text"]);

/** Why a game command cannot be used, or undefined when it can. */
function problemOf(command: unknown, taken: ReadonlyMap<string, StaffCommand>): string | undefined {
	if (!typeIs(command, "table")) return "not a table";
	const { name, run, parameters } = command as Partial<StaffCommand>;
	if (!typeIs(name, "string") || name.match("^%a[%w_]*$")[0] === undefined || name.size() > 20) {
		return "its name must be 1 to 20 letters, digits or _, starting with a letter";
	}
	if (taken.has(name.lower())) return `/${name.lower()} exists already`;
	if (!typeIs(run, "function")) return "it has no run function";
	if (parameters === undefined) return undefined;
	if (!typeIs(parameters, "table") || (parameters as Array<unknown>).size() > 10) return "bad parameters";
	const list = parameters as ReadonlyArray<StaffCommandParameter>;
	let optionalSeen = false;
	for (let i = 0; i < list.size(); i++) {
		const parameter = list[i];
		if (!typeIs(parameter, "table") || !typeIs(parameter.name, "string") || !TYPES.has(parameter.type as string)) {
			return `parameter ${i + 1} needs a name and a type (player, number, word or text)`;
		}
		if (parameter.type === "text" && i !== list.size() - 1) return "a text parameter must be the last";
		if (parameter.optional === true) optionalSeen = true;
		else if (optionalSeen) return "a required parameter follows an optional one";
	}
	return undefined;
}

/**
 * The server's commands in order (their id: the lowercase name): the built-ins, then each of the game's own that is
 * well formed; a malformed one is left out with one warning naming it.
 * @internal
 */
export function commandList(
	builtIns: ReadonlyArray<StaffCommand>,
	gameCommands: ReadonlyArray<StaffCommand>,
): Array<StaffCommand> {
	const commands = new Map<string, StaffCommand>();
	const ordered = new Array<StaffCommand>();
	for (const command of builtIns) {
		commands.set(command.name, command);
		ordered.push(command);
	}
	for (const command of gameCommands) {
		const problem = commands.size() >= MAX_OFFERED ? "too many commands" : problemOf(command, commands);
		if (problem !== undefined) {
			const label = typeIs(command, "table") ? tostring((command as { name?: unknown }).name) : "?";
			logWarn(`gameCommands: the command ${label} is left out: ${problem}`);
			continue;
		}
		commands.set(command.name.lower(), command);
		ordered.push(command);
	}
	return ordered;
}
