import { Players, TextChatService } from "@rbxts/services";
import { COMMANDS_REMOTE, isCommandsMessage, OfferedCommand } from "../../shared/commandsProtocol";
import { waitForRemote } from "../../shared/remotes";
import { ClientPart } from "../clientPart";
import { showNotification } from "../notify";

/** The folder under TextChatService that holds this player's staff commands. */
const FOLDER_NAME = "StaffOpsCommands";

/**
 * The staff commands mounted on the `StaffCommands` remote: the commands offered, and how a result is shown.
 * @see README#staff-commands
 */
export interface MountedStaffCommands {
	/** The names of the commands offered now (typed as `/name`). */
	offered(): ReadonlyArray<string>;
	/** Stops listening and removes the commands. */
	destroy(): void;
}

/**
 * Where a result is shown: the chat's system channel (`RBXSystem`, shown to this player only), else a notification
 * (a place without TextChatService's default channels).
 */
function showResult(text: string): void {
	const channel = TextChatService.FindFirstChild("TextChannels")?.FindFirstChild("RBXSystem");
	if (channel !== undefined && channel.IsA("TextChannel") && pcall(() => channel.DisplaySystemMessage(text))[0])
		return;
	const playerGui = Players.LocalPlayer?.FindFirstChildOfClass("PlayerGui");
	if (playerGui !== undefined) showNotification(playerGui, text);
}

/** Whether the place runs the legacy chat (`ChatVersion` is set in Studio; unreadable counts as TextChatService). */
function onLegacyChat(): boolean {
	const [ok, version] = pcall(() => TextChatService.ChatVersion);
	return ok && version === Enum.ChatVersion.LegacyChatService;
}

/**
 * Makes this player's staff commands from what the server offers them: one `TextChatCommand` per command (alias
 * `/name`), created on this client so that it exists for this player only (docs/roblox.md#textchatcommand). Typing
 * one sends the whole line to the server, which checks the permission again and answers with the result. The client
 * decides nothing: a command it was not offered is refused by the server all the same.
 *
 * @example
 * ```ts
 * mountStaffCommands(remotes.StaffCommands, TextChatService);
 * ```
 * @see README#staff-commands
 */
export function mountStaffCommands(
	remote: RemoteEvent,
	parent: Instance,
	show: (text: string) => void = showResult,
): MountedStaffCommands {
	let folder: Folder | undefined;
	let names = new Array<string>();
	const offer = (commands: ReadonlyArray<OfferedCommand>) => {
		folder?.Destroy();
		folder = undefined;
		names = commands.map((command) => command.name);
		// Under the legacy chat TextChatService does nothing (docs/roblox.md#textchatcommand): nothing to make.
		if (commands.size() === 0 || onLegacyChat()) return;
		const made = new Instance("Folder");
		made.Name = FOLDER_NAME;
		for (const command of commands) {
			const chatCommand = new Instance("TextChatCommand");
			chatCommand.Name = `StaffOps_${command.name}`;
			chatCommand.PrimaryAlias = `/${command.name}`;
			chatCommand.SetAttribute("Usage", command.usage);
			// The whole line goes: the server reads the arguments (and the name again) itself.
			pcall(() => chatCommand.Triggered.Connect((_source, text) => remote.FireServer(text)));
			chatCommand.Parent = made;
		}
		made.Parent = parent;
		folder = made;
	};
	const connection = remote.OnClientEvent.Connect((message: unknown) => {
		if (!isCommandsMessage(message)) return;
		if (message.kind === "offer") offer(message.commands);
		else show(message.text);
	});
	return {
		offered() {
			return names;
		},
		destroy() {
			connection.Disconnect();
			folder?.Destroy();
			folder = undefined;
			names = [];
		},
	};
}

const part = new ClientPart(
	(): [started: boolean, result: boolean] => {
		const remote = waitForRemote(COMMANDS_REMOTE);
		if (remote === undefined) return [false, false];
		mountStaffCommands(remote, TextChatService);
		return [true, true];
	},
	() => true,
);

/**
 * The built-in staff commands in chat: waits for StaffOps' remotes (up to 30 s) and offers this player the commands
 * the server says they may use. Once per client.
 *
 * @example
 * ```ts
 * // StarterPlayerScripts/StaffOps.client.ts
 * import { startStaffCommands } from "@rbxts/staffops";
 * startStaffCommands();
 * ```
 * @see README#staff-commands
 */
export function startStaffCommands(): boolean {
	return part.start();
}
