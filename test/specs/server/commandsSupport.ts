import { COMMANDS_REMOTE, CommandsMessage } from "../../../src/shared/commandsProtocol";
import { ensureRemote } from "../../../src/shared/remotes";
import { harness } from "../../support/harness";

// What a staff member's client received on the commands remote, and what it fires there: helpers of the staff
// command specs (not a spec: TestEZ runs only *.spec modules).

/** Every message the player's client received on the commands remote, in order. */
export function messagesOf(player: Player): Array<CommandsMessage> {
	return harness.players
		.client(player)
		.received(ensureRemote(COMMANDS_REMOTE))
		.map((event) => event[0] as CommandsMessage);
}

/** The results shown to the player, in order. */
export function results(player: Player): Array<string> {
	const texts = new Array<string>();
	for (const message of messagesOf(player)) if (message.kind === "result") texts.push(message.text);
	return texts;
}

/** The command names of the last offer the player got, or undefined before any. */
export function lastOffer(player: Player): Array<string> | undefined {
	let names: Array<string> | undefined;
	for (const message of messagesOf(player)) {
		if (message.kind === "offer") names = message.commands.map((command) => command.name);
	}
	return names;
}

/** The player's client fires the commands remote, as a chat command (or a hostile script) would. */
export function use(player: Player, ...args: Array<unknown>): void {
	harness.players.client(player).fire(ensureRemote(COMMANDS_REMOTE), ...args);
}
