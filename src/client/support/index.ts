import { Players } from "@rbxts/services";
import { waitForRemote } from "../../shared/remotes";
import { SUPPORT_REQUESTS_REMOTE } from "../../shared/supportProtocol";
import { remoteChannel } from "../chat/callChatClient";
import { ClientPart } from "../clientPart";
import { CallForm, ReportablePlayer } from "./callForm";
import { CallStaffButton } from "./callStaffButton";
import { SupportClient } from "./supportClient";

export { CallForm } from "./callForm";
export type { ReportablePlayer } from "./callForm";
export { CallStaffButton } from "./callStaffButton";
export { SupportClient } from "./supportClient";
export type { SupportCallArgs } from "./supportClient";

/** Seconds the form stays after the call was placed, so the player reads that it was. */
const PLACED_SECONDS = 2;

/**
 * The built-in "Call staff" entry and form, mounted on a {@link SupportClient}.
 * @see README#support-calls
 */
export interface MountedCallStaff {
	readonly button: CallStaffButton;
	/** The form on screen, if any. */
	getForm(): CallForm | undefined;
	/** Removes the entry and the form and stops following the client. */
	destroy(): void;
}

/** Everyone in the server but the local player, as the form lists them. */
function otherPlayers(): Array<ReportablePlayer> {
	const me = Players.LocalPlayer;
	return Players.GetPlayers()
		.filter((player) => player !== me && player.UserId !== me?.UserId)
		.map((player) => ({ userId: player.UserId, name: player.Name, displayName: player.DisplayName }));
}

/**
 * Shows the "Call staff" entry under `parent` while the server offers it (calls available and the workspace's
 * `moderation` on), opens the form when it is pressed, sends the form's request and shows the server's answer in it.
 *
 * @example
 * ```ts
 * mountCallStaff(support, Players.LocalPlayer.WaitForChild("PlayerGui"));
 * ```
 * @see README#support-calls
 */
export function mountCallStaff(
	support: SupportClient,
	parent: Instance,
	others: () => Array<ReportablePlayer> = otherPlayers,
): MountedCallStaff {
	const button = new CallStaffButton(parent);
	let form: CallForm | undefined;
	// The entry waits for the workspace's `moderation` (`offered`), as the official module's menu; an open form works on.
	const refresh = () => button.setShown(support.getState().offered === true && form === undefined);

	const open = () => {
		if (form !== undefined || support.getState().offered !== true) return;
		const shown = new CallForm(parent, support.getState(), others);
		form = shown;
		shown.submitted.Connect((args) => support.requestCall(args));
		shown.closed.Connect(() => {
			if (form === shown) form = undefined;
			refresh();
		});
		refresh();
	};

	const connections = [
		button.pressed.Connect(open),
		support.stateChanged.Connect((state) => {
			if (!state.available) form?.close();
			refresh();
		}),
		support.result.Connect((result) => {
			const shown = form;
			if (shown === undefined || !shown.isWaiting()) return;
			shown.showResult(result.ok, result.text);
			if (result.ok) task.delay(PLACED_SECONDS, () => shown.close());
		}),
	];
	refresh();

	return {
		button,
		getForm() {
			return form;
		},
		destroy() {
			for (const connection of connections) connection.Disconnect();
			form?.close();
			button.destroy();
		},
	};
}

// Once per client: the chat window (startCallChat) and the entry share one client of the SupportRequests remote.
let shared: SupportClient | undefined;

/**
 * This client's one {@link SupportClient} on StaffOps' `SupportRequests` remote, started on first use.
 * @internal
 */
export function sharedSupportClient(remote: RemoteEvent): SupportClient {
	if (shared === undefined) shared = new SupportClient(remoteChannel(remote)).start();
	return shared;
}

const part = new ClientPart(
	(): [started: boolean, result: SupportClient | undefined] => {
		const remote = waitForRemote(SUPPORT_REQUESTS_REMOTE);
		const player = Players.LocalPlayer;
		if (remote === undefined || player === undefined) return [false, undefined];
		const support = sharedSupportClient(remote);
		mountCallStaff(support, player.WaitForChild("PlayerGui"));
		return [true, support];
	},
	() => shared,
	() => {
		shared?.destroy();
		shared = undefined;
	},
);

/**
 * The one call a client script needs for the built-in "Call staff" entry: waits for StaffOps' remotes (up to 30 s)
 * and mounts the entry in the local player's PlayerGui; the entry shows while the server says calling staff is
 * available. Returns the support client (for a custom UI beside it). Once per client; yields, so call it in its own
 * thread (the drop-in model's loader does).
 *
 * @example
 * ```ts
 * task.spawn(() => startSupportCalls());
 * ```
 * @see README#support-calls
 */
export function startSupportCalls(): SupportClient | undefined {
	return part.start();
}
