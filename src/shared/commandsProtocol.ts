import { t } from "@rbxts/t";
import { characterCount } from "./textLength";

// What crosses the `StaffCommands` remote (its folder: `remotes.ts`). The server decides everything: which commands a
// player is offered and whether a use goes ahead; a client only shows what it was offered and sends the text typed.

/** The staff commands remote: server → client, the commands offered and each use's result; client → server, a use. @internal */
export const COMMANDS_REMOTE = "StaffCommands";

/**
 * The longest command line, in characters (Roblox's chat allows 200: any line typed there fits, in any script).
 * @internal
 */
export const MAX_COMMAND_TEXT = 300;
/** The same line's bound in bytes: a UTF-8 character is at most 4. @internal */
const MAX_COMMAND_BYTES = MAX_COMMAND_TEXT * 4;

/** The most commands a client is offered (built-ins and the game's own). @internal */
export const MAX_OFFERED = 60;

/** One command offered to a player: its name (typed as `/name`) and how it is used, shown as a hint. @internal */
export interface OfferedCommand {
	readonly name: string;
	readonly usage: string;
}

/** Server → client: the commands this player may use now (an empty list takes every one away). @internal */
export interface CommandsOffer {
	readonly kind: "offer";
	readonly commands: ReadonlyArray<OfferedCommand>;
}

/** Server → client: the result of one use, for the staff member who ran it only (already filtered for them). @internal */
export interface CommandResult {
	readonly kind: "result";
	readonly text: string;
}

/** @internal */
export type CommandsMessage = CommandsOffer | CommandResult;

const shortText =
	(max: number) =>
	(value: unknown): value is string =>
		typeIs(value, "string") && value.size() <= max;

/** @internal */
export const isCommandsMessage: t.check<CommandsMessage> = t.union(
	t.strictInterface({
		kind: t.literal("offer"),
		commands: (value: unknown): value is ReadonlyArray<OfferedCommand> =>
			t.array(t.strictInterface({ name: shortText(32), usage: shortText(200) }))(value) &&
			(value as Array<unknown>).size() <= MAX_OFFERED,
	}),
	t.strictInterface({ kind: t.literal("result"), text: shortText(1000) }),
) as t.check<CommandsMessage>;

/**
 * Client → server: one use, the text as typed (`/kick Builderman spamming`), at most {@link MAX_COMMAND_TEXT}
 * characters. @internal
 */
export const isCommandText = (value: unknown): value is string =>
	typeIs(value, "string") &&
	value.size() > 1 &&
	value.size() <= MAX_COMMAND_BYTES &&
	characterCount(value) <= MAX_COMMAND_TEXT;
