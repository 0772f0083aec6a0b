import type { StaffOpsApiClient } from "../../../src/api/apiClient";
import type { CommandsApi } from "../../../src/api/resources/commands";
import { mountStaffCommands, MountedStaffCommands } from "../../../src/client/commands";
import { StaffOps } from "../../../src/server";
import type { StaffOpsConfig } from "../../../src/server/config";
import { JOIN_BATCH_SECONDS } from "../../../src/server/features/commands/permissions";
import type { ServerSeams } from "../../../src/server/seams";
import { COMMANDS_REMOTE, CommandsMessage } from "../../../src/shared/commandsProtocol";
import { ensureRemote, REMOTES_FOLDER_NAME } from "../../../src/shared/remotes";
import { HarnessClient, harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { waitUntil } from "../../support/waits";
import { cleanUp, join, specClient, Started, startDeployed } from "./support";

// What a staff member's client received on the commands remote, what they type into the chat bar, and what a hostile
// client fires at the remote itself: helpers of the staff command specs (not a spec: TestEZ runs only *.spec modules).

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

/** The client's copy of the commands remote, once the mirror has it. */
export function clientCommandsRemote(client: HarnessClient): RemoteEvent {
	const find = () =>
		client
			.game()
			.GetService("ReplicatedStorage")
			.FindFirstChild(REMOTES_FOLDER_NAME)
			?.FindFirstChild(COMMANDS_REMOTE);
	waitUntil(() => {
		client.sync();
		return find() !== undefined;
	}, "the commands remote on the client");
	return find() as RemoteEvent;
}

/** The aliases of the TextChatCommands under a TextChatService, sorted. */
export function aliasesUnder(container: Instance): Array<string> {
	const found = new Array<string>();
	for (const item of container.GetDescendants()) {
		if (item.IsA("TextChatCommand")) found.push(item.PrimaryAlias);
	}
	return found.sort();
}

/** Each player's client with the staff commands mounted, by UserId; cleared when their client is gone. */
const mounted = new Map<number, { client: HarnessClient; mount: MountedStaffCommands }>();

/** The player's real client, with StaffOps' staff commands mounted on its TextChatService (the client part's work). */
function chatClient(player: Player): HarnessClient {
	const known = mounted.get(player.UserId);
	if (known !== undefined && known.client.player() === player) return known.client;
	known?.mount.destroy();
	const client = harness.clients.of(player) ?? harness.clients.attach(player);
	const mount = mountStaffCommands(
		clientCommandsRemote(client),
		client.game().GetService("TextChatService"),
		() => undefined,
	);
	mounted.set(player.UserId, { client, mount });
	return client;
}

/**
 * The player types `line` into the chat bar and presses Enter: the simulated TextChatService fires the matching
 * TextChatCommand's `Triggered` on their client, whose handler sends the line to the server, as in a live game. A line
 * whose command the player was not offered is an ordinary chat message (it reaches no command).
 */
export function say(player: Player, line: string): void {
	const client = chatClient(player);
	const alias = line.match("^(%S+)")[0] as string | undefined;
	const name = alias?.sub(2);
	const offered = name !== undefined && (lastOffer(player) ?? []).includes(name);
	if (offered) {
		const service = client.game().GetService("TextChatService");
		waitUntil(() => aliasesUnder(service).includes(alias!), `${alias} on the player's client`);
	}
	const triggered = harness.chat.counts().commandsTriggered;
	const delivered = harness.chat.send(player, line);
	// An offered command's line goes to its command only: a line that reached the channel instead is a failure.
	if (offered && (harness.chat.counts().commandsTriggered !== triggered + 1 || delivered !== 0)) {
		error(`${alias} was typed but did not trigger the player's command`, 2);
	}
}

/** Every command spec's `afterEach`: forgets the mounted chat clients, then StaffOps and the fakes (`cleanUp`). */
export function cleanUpCommands(): void {
	for (const [, known] of mounted) known.mount.destroy();
	mounted.clear();
	cleanUp();
}

/**
 * A client script fires the commands remote itself, with anything: what an exploiter (or a client whose offer is
 * stale) does. Staff typing a command use `say`.
 */
export function fireRemote(player: Player, ...args: Array<unknown>): void {
	harness.players.client(player).fire(ensureRemote(COMMANDS_REMOTE), ...args);
}

/** The seeded staff member the command specs grant commands to (ModMarco). */
export const MOD = 1003;

/** Grants (or, `on` false, takes back) `commandId` to `userId` on the reference service, as a website admin would. */
export function grant(commandId: string, userId: number, on = true): void {
	serviceControl.call("POST", "/_control/commands/permissions", { commandId, userId: tostring(userId), on });
}

/**
 * Starts against the deployed profile with `config` and `seams`, waits for the one registration of the commands, then
 * grants `grants` ([commandId, userId]).
 */
export function startGranted(
	grants: Array<[string, number]>,
	config: Partial<StaffOpsConfig> = {},
	seams: Partial<ServerSeams> = {},
): Started {
	const started = startDeployed(config, seams);
	waitUntil(() => serviceControl.count("registerCommands") === 1, "the commands' registration");
	for (const [commandId, userId] of grants) grant(commandId, userId);
	return started;
}

/** A staff member joins and is offered their commands (the join wave's permission read answered). */
export function staffOffered(started: Started, userId: number, name: string): Player {
	const player = join(userId, name);
	waitUntil(() => StaffOps.isStaff(player), `${name}'s join answer`);
	started.clock.advance(JOIN_BATCH_SECONDS);
	waitUntil(() => lastOffer(player) !== undefined, `${name}'s offer`);
	return player;
}

/** Starts with each of `commandIds` granted to the staff member MOD, who joins and is offered them. */
export function staffReady(
	commandIds: Array<string>,
	config: Partial<StaffOpsConfig> = {},
	seams: Partial<ServerSeams> = {},
): [Started, Player] {
	const started = startGranted(
		commandIds.map((commandId): [string, number] => [commandId, MOD]),
		config,
		seams,
	);
	return [started, staffOffered(started, MOD, "ModMarco")];
}

/** A client of the reference service that notes the UserIds of each permission read in `asked`. */
export function notingClient(asked: Array<Array<number>>): StaffOpsApiClient {
	const client = specClient();
	const commands = client.commands;
	(client as unknown as { commands: CommandsApi }).commands = {
		...commands,
		permissions(runningGameId, userIds, options) {
			asked.push([...userIds]);
			return commands.permissions(runningGameId, userIds, options);
		},
	};
	return client;
}
