// The commands of one server: the built-ins and the game's own, each with the id the service keys its grants by.
import { logWarn } from "../../../background/log";
import { MAX_OFFERED } from "../../../shared/commandsProtocol";
import type { StaffCommand, StaffCommandParameter } from "./types";

const TYPES = new Set(["player", "number", "duration", "word", "text"]);

/**
 * The prefix of the official module's command ids (`readmin_kick`, ...): the built-ins register under them so a
 * workspace's grants carry over (docs/service-contract.md#admin-chat-commands). No game command may start with it.
 * @internal
 */
export const OFFICIAL_PREFIX = "readmin_";

/**
 * The aliases of Roblox's default chat commands (docs/roblox.md#textchatcommand): which command runs when a game's own
 * TextChatCommand shares one is not documented, so a game command named like one is left out.
 * @internal
 */
export const ROBLOX_DEFAULT_ALIASES: ReadonlySet<string> = new Set([
	"clear",
	"cls",
	"console",
	"emote",
	"e",
	"help",
	"?",
	"mute",
	"m",
	"team",
	"t",
	"unmute",
	"um",
	"version",
	"v",
	"whisper",
	"w",
]);

/** A command as this server registers and offers it. @internal */
export interface RegisteredCommand {
	/** The service's id, which grants are keyed by: `readmin_<name>` for a built-in, the lowercase name otherwise. */
	readonly id: string;
	/** Typed as `/name` (lowercase). */
	readonly name: string;
	readonly command: StaffCommand;
	readonly builtIn: boolean;
}

/** Why a game command cannot be used, or undefined when it can. */
function problemOf(command: unknown, taken: ReadonlySet<string>): string | undefined {
	if (!typeIs(command, "table")) return "not a table";
	const { name, run, parameters } = command as Partial<StaffCommand>;
	if (!typeIs(name, "string") || name.match("^%a[%w_]*$")[0] === undefined || name.size() > 20) {
		return "its name must be 1 to 20 letters, digits or _, starting with a letter";
	}
	// Its id would be one of the official module's: a grant for that command would then run this one.
	if (name.lower().sub(1, OFFICIAL_PREFIX.size()) === OFFICIAL_PREFIX)
		return `names starting ${OFFICIAL_PREFIX} are the official module's`;
	if (taken.has(name.lower())) return `/${name.lower()} exists already`;
	if (ROBLOX_DEFAULT_ALIASES.has(name.lower())) {
		return `/${name.lower()} is an alias of one of Roblox's default chat commands, and Roblox does not say which command a shared alias runs: give it another name`;
	}
	if (!typeIs(run, "function")) return "it has no run function";
	if (parameters === undefined) return undefined;
	if (!typeIs(parameters, "table") || (parameters as Array<unknown>).size() > 10) return "bad parameters";
	const list = parameters as ReadonlyArray<StaffCommandParameter>;
	let optionalSeen = false;
	for (let i = 0; i < list.size(); i++) {
		const parameter = list[i];
		if (!typeIs(parameter, "table") || !typeIs(parameter.name, "string") || !TYPES.has(parameter.type as string)) {
			return `parameter ${i + 1} needs a name and a type (player, number, duration, word or text)`;
		}
		if (parameter.type === "text" && i !== list.size() - 1) return "a text parameter must be the last";
		if (parameter.optional === true) optionalSeen = true;
		else if (optionalSeen) return "a required parameter follows an optional one";
	}
	return undefined;
}

/**
 * The server's commands in order: the built-ins (id `readmin_<name>`, the official module's), then each of the game's
 * own that is well formed (id: its lowercase name, the same in every version); a malformed one is left out with one
 * warning naming it.
 * @internal
 */
export function commandList(
	builtIns: ReadonlyArray<StaffCommand>,
	gameCommands: ReadonlyArray<StaffCommand>,
): Array<RegisteredCommand> {
	const names = new Set<string>();
	const ordered = new Array<RegisteredCommand>();
	for (const command of builtIns) {
		names.add(command.name);
		ordered.push({ id: `${OFFICIAL_PREFIX}${command.name}`, name: command.name, command, builtIn: true });
	}
	for (const command of gameCommands) {
		const problem = ordered.size() >= MAX_OFFERED ? "too many commands" : problemOf(command, names);
		if (problem !== undefined) {
			const label = typeIs(command, "table") ? tostring((command as { name?: unknown }).name) : "?";
			logWarn(`gameCommands: the command ${label} is left out: ${problem}`);
			continue;
		}
		const name = command.name.lower();
		names.add(name);
		ordered.push({ id: name, name, command, builtIn: false });
	}
	return ordered;
}

/**
 * The website's type of a parameter (`paramaterType`, sic): a word is short text, the rest of the line long text, a
 * length a number (of days, as the official module registers its `days`).
 */
const WEBSITE_TYPES = {
	player: "player",
	number: "number",
	duration: "number",
	word: "text",
	text: "long_text",
} as const;

/** One parameter as the website's command page reads it (docs/service-contract.md#admin-chat-commands). @internal */
export interface WebsiteParameter {
	readonly id: string;
	readonly paramaterType: "player" | "number" | "text" | "long_text";
	readonly optional?: boolean;
}

/** `command`'s parameters as the service registers them: objects with an id and a type, never plain names. @internal */
export function websiteParameters(command: StaffCommand): Array<WebsiteParameter> {
	return (command.parameters ?? []).map((parameter) => ({
		id: parameter.name,
		paramaterType: WEBSITE_TYPES[parameter.type],
		...(parameter.optional === true ? { optional: true } : {}),
	}));
}
