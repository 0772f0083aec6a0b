import { ReplicatedStorage } from "@rbxts/services";
import type { RemoteName } from "./remoteNames";

/**
 * The folder in ReplicatedStorage that holds StaffOps' remotes, created by the server; nothing in it carries the API
 * key. Each remote's name belongs to its feature: its declaration lists it (`remotes`), and the build writes every
 * declared name into {@link RemoteName} (`remoteNames.ts`), so the feature's server module and its client part name
 * it as a checked string. (Older features name theirs through a constant of their protocol module; the build reads
 * those too.)
 * @internal
 */
export const REMOTES_FOLDER_NAME = "StaffOpsRemotes";

/** StaffOps' remotes by name (each feature's declaration names its own). @internal */
export type Remotes = { readonly [name in RemoteName]: RemoteEvent };

/**
 * Server side: finds or creates the remotes folder and the remote `name` in it (idempotent, so the server and the
 * call bridge can both ask for one in either order).
 * @internal
 */
export function ensureRemote(name: RemoteName, parent: Instance = ReplicatedStorage): RemoteEvent {
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
export function ensureRemotes(names: ReadonlyArray<RemoteName>, parent: Instance = ReplicatedStorage): Remotes {
	const remotes: Partial<Record<RemoteName, RemoteEvent>> = {};
	for (const name of names) remotes[name] = ensureRemote(name, parent);
	// Every declared remote is in `names` (the server passes the declarations' list, which RemoteName is made from).
	return remotes as Remotes;
}

/**
 * Client side: waits for the remote `name` the server created (up to `timeoutSeconds` for the folder, and as long
 * again for the remote); undefined when the server never made it (StaffOps not running there).
 * @internal
 */
export function waitForRemote(
	name: RemoteName,
	parent: Instance = ReplicatedStorage,
	timeoutSeconds = 30,
): RemoteEvent | undefined {
	const folder = parent.WaitForChild(REMOTES_FOLDER_NAME, timeoutSeconds);
	if (folder === undefined) return undefined;
	const remote = folder.WaitForChild(name, timeoutSeconds);
	return remote !== undefined && remote.IsA("RemoteEvent") ? remote : undefined;
}
