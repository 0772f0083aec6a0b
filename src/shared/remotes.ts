import { ReplicatedStorage } from "@rbxts/services";

/**
 * The names of StaffOps' remotes: one folder in ReplicatedStorage, created by the server. The game
 * integration and the call bridge share it; nothing in it carries the API key.
 * @internal
 */
export const REMOTES_FOLDER_NAME = "StaffOpsRemotes";

/**
 * Every remote StaffOps uses, by name.
 * - `ClientReport`: client → server, the client's platform and timezone offset (game integration).
 * - `CallEvents`: server → client, a support call's chat: opened, messages, closed (call bridge);
 *   client → server, the client's requests about its own chat window (checked, rate-limited).
 * - `Notifications`: server → client, a staff notification's text, already filtered for that player.
 * - `Consent`: server → client, show or close the consent prompt; client → server, the player's answer (a boolean).
 * - `Activity`: server → client, start reporting with the workspace's AFK settings; client → server, a state name.
 * - `SupportRequests`: client → server, a player calls staff, writes in a call, ends it; server → client, whether
 *   calling is available to them and what became of their request (`shared/supportProtocol.ts`).
 * @internal
 */
export const REMOTE_NAMES = [
	"ClientReport",
	"CallEvents",
	"Notifications",
	"Consent",
	"Activity",
	"SupportRequests",
] as const;

/** @internal */
export type RemoteName = (typeof REMOTE_NAMES)[number];

/** @internal */
export type Remotes = Record<RemoteName, RemoteEvent>;

/**
 * Server side: finds or creates the remotes folder and every remote in it (idempotent, so the game
 * integration and the call bridge can both ask for it in either order).
 * @internal
 */
export function ensureRemotes(parent: Instance = ReplicatedStorage): Remotes {
	let folder = parent.FindFirstChild(REMOTES_FOLDER_NAME);
	if (folder === undefined) {
		folder = new Instance("Folder");
		folder.Name = REMOTES_FOLDER_NAME;
		folder.Parent = parent;
	}
	const remotes = {} as Remotes;
	for (const name of REMOTE_NAMES) {
		let remote = folder.FindFirstChild(name);
		if (remote === undefined || !remote.IsA("RemoteEvent")) {
			remote = new Instance("RemoteEvent");
			remote.Name = name;
			remote.Parent = folder;
		}
		remotes[name] = remote as RemoteEvent;
	}
	return remotes;
}

/**
 * Client side: waits for the remotes the server created (up to `timeoutSeconds` each); undefined when
 * the server never made them (StaffOps not running there).
 * @internal
 */
export function waitForRemotes(parent: Instance = ReplicatedStorage, timeoutSeconds = 30): Remotes | undefined {
	const folder = parent.WaitForChild(REMOTES_FOLDER_NAME, timeoutSeconds);
	if (folder === undefined) return undefined;
	const remotes = {} as Remotes;
	for (const name of REMOTE_NAMES) {
		const remote = folder.WaitForChild(name, timeoutSeconds);
		if (remote === undefined || !remote.IsA("RemoteEvent")) return undefined;
		remotes[name] = remote;
	}
	return remotes;
}
