import { ReplicatedStorage } from "@rbxts/services";

/**
 * The folder in ReplicatedStorage that holds StaffOps' remotes, created by the server; nothing in it carries the API
 * key. Each remote's name belongs to its feature: it is written once, in that feature's protocol module of `shared/`
 * (`reportPayload.ts`, `chatProtocol.ts`, `supportProtocol.ts`, `privacyProtocol.ts`, `notifyProtocol.ts`), which the
 * feature's server module and its client part both import, and the feature's declaration lists it.
 * @internal
 */
export const REMOTES_FOLDER_NAME = "StaffOpsRemotes";

/** StaffOps' remotes by name (each feature's declaration names its own). @internal */
export type Remotes = Record<string, RemoteEvent>;

/**
 * Server side: finds or creates the remotes folder and the remote `name` in it (idempotent, so the server and the
 * call bridge can both ask for one in either order).
 * @internal
 */
export function ensureRemote(name: string, parent: Instance = ReplicatedStorage): RemoteEvent {
	let folder = parent.FindFirstChild(REMOTES_FOLDER_NAME);
	if (folder === undefined) {
		folder = new Instance("Folder");
		folder.Name = REMOTES_FOLDER_NAME;
		folder.Parent = parent;
	}
	let remote = folder.FindFirstChild(name);
	if (remote === undefined || !remote.IsA("RemoteEvent")) {
		remote = new Instance("RemoteEvent");
		remote.Name = name;
		remote.Parent = folder;
	}
	return remote as RemoteEvent;
}

/** Server side: {@link ensureRemote} for each of `names`, by name. @internal */
export function ensureRemotes(names: ReadonlyArray<string>, parent: Instance = ReplicatedStorage): Remotes {
	const remotes: Remotes = {};
	for (const name of names) remotes[name] = ensureRemote(name, parent);
	return remotes;
}

/**
 * Client side: waits for the remote `name` the server created (up to `timeoutSeconds` for the folder, and as long
 * again for the remote); undefined when the server never made it (StaffOps not running there).
 * @internal
 */
export function waitForRemote(
	name: string,
	parent: Instance = ReplicatedStorage,
	timeoutSeconds = 30,
): RemoteEvent | undefined {
	const folder = parent.WaitForChild(REMOTES_FOLDER_NAME, timeoutSeconds);
	if (folder === undefined) return undefined;
	const remote = folder.WaitForChild(name, timeoutSeconds);
	return remote !== undefined && remote.IsA("RemoteEvent") ? remote : undefined;
}
