import { GuiService, Players, UserInputService } from "@rbxts/services";
import { isConsentCommand } from "../../shared/privacyProtocol";
import { waitForRemote } from "../../shared/remotes";
import { ClientPart } from "../clientPart";
import { ConsentPrompt, ConsentPromptOptions } from "./ConsentPrompt";

export { ConsentPrompt, DEFAULT_CONSENT_TEXT, DEFAULT_CONSENT_TITLE } from "./ConsentPrompt";
export type { ConsentPromptOptions } from "./ConsentPrompt";

/**
 * The consent prompt mounted on the `Consent` remote.
 * @see README#consent
 */
export interface MountedConsentPrompt {
	/** The prompt on screen, if any. */
	getPrompt(): ConsentPrompt | undefined;
	/** Stops listening and closes the prompt. */
	destroy(): void;
}

/**
 * Shows a {@link ConsentPrompt} under `parent` when the server asks (`show`), closes it when the server says so
 * (`close`), and sends the player's choice back once. Game code that draws its own prompt does not mount this.
 *
 * @example
 * ```ts
 * mountConsentPrompt(remotes.Consent, Players.LocalPlayer.WaitForChild("PlayerGui"));
 * ```
 * @see README#consent
 */
export function mountConsentPrompt(
	remote: RemoteEvent,
	parent: Instance,
	options: ConsentPromptOptions = {},
): MountedConsentPrompt {
	let prompt: ConsentPrompt | undefined;
	const connection = remote.OnClientEvent.Connect((command: unknown) => {
		if (!isConsentCommand(command)) return;
		if (command === "close") {
			prompt?.close();
			prompt = undefined;
			return;
		}
		if (prompt !== undefined) return;
		const shown = new ConsentPrompt(parent, options);
		prompt = shown;
		shown.answered.Connect((granted) => {
			if (prompt === shown) prompt = undefined;
			remote.FireServer(granted);
		});
		// A gamepad player needs a selected button to answer.
		const [gamepad] = pcall(() => UserInputService.GamepadEnabled && !UserInputService.TouchEnabled);
		if (gamepad === true) pcall(() => GuiService.Select(shown.gui));
	});
	return {
		getPrompt() {
			return prompt;
		},
		destroy() {
			connection.Disconnect();
			prompt?.close();
			prompt = undefined;
		},
	};
}

const part = new ClientPart(
	(options: ConsentPromptOptions): [started: boolean, result: MountedConsentPrompt | undefined] => {
		const remote = waitForRemote("Consent");
		const player = Players.LocalPlayer;
		if (remote === undefined || player === undefined) return [false, undefined];
		return [true, mountConsentPrompt(remote, player.WaitForChild("PlayerGui"), options)];
	},
	() => undefined,
);

/**
 * The one call a client script needs for the built-in consent prompt: waits for StaffOps' remotes (up to 30 s) and
 * mounts the prompt in the local player's PlayerGui. Once per client; yields, so call it in its own thread (the
 * drop-in model's loader does).
 *
 * @example
 * ```ts
 * task.spawn(() => startConsentPrompt());
 * ```
 * @see README#consent
 */
export function startConsentPrompt(options: ConsentPromptOptions = {}): MountedConsentPrompt | undefined {
	return part.start(options);
}
