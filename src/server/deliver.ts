/**
 * The name of the folder the drop-in model puts in ReplicatedStorage: the client part of the model (runtime,
 * `@rbxts` packages, `lib/client`, `lib/shared`) and nothing else.
 * @internal
 */
export const CLIENT_FOLDER_NAME = "StaffOpsClient";

/** The name of the LocalScript copies that start the client reporter. @internal */
export const CLIENT_LOADER_NAME = "StaffOpsClientLoader";

/** Where the drop-in model's client part goes. @internal */
export interface DeliveryTargets {
	readonly replicated: Instance;
	readonly starterPlayerScripts?: Instance;
	readonly players: ReadonlyArray<Player>;
}

/**
 * The drop-in model's root, found from this module (`<root>/lib/server/deliver`), or undefined when the library
 * is not running from the drop-in model (a roblox-ts game).
 * @internal
 */
export function findModelRoot(): Instance | undefined {
	const lib = script.Parent?.Parent;
	const root = lib?.Parent;
	if (lib === undefined || root === undefined || lib.Name !== "lib") return undefined;
	for (const name of ["include", "node_modules", "ClientLoader"]) {
		if (root.FindFirstChild(name) === undefined) return undefined;
	}
	return root;
}

function stripAttributes(instance: Instance): void {
	for (const item of [instance, ...instance.GetDescendants()]) {
		for (const [attribute] of item.GetAttributes()) item.SetAttribute(attribute, undefined);
	}
}

/**
 * Delivers the client reporter of the drop-in model: copies `include`, `node_modules`, `lib/client` and
 * `lib/shared` (same layout) into a folder in `replicated`, and an enabled copy of the model's `ClientLoader`
 * LocalScript into `starterPlayerScripts` (players who join later) and into each present player's `PlayerGui`.
 * The model's root, with its configuration attributes, never replicates: only those children are copied, and
 * every copy is stripped of attributes. Idempotent. Returns undefined when done, else what is missing.
 * @internal
 */
export function deliverClient(root: Instance, targets: DeliveryTargets): string | undefined {
	const include = root.FindFirstChild("include");
	const nodeModules = root.FindFirstChild("node_modules");
	const lib = root.FindFirstChild("lib");
	const client = lib?.FindFirstChild("client");
	const shared = lib?.FindFirstChild("shared");
	const loader = root.FindFirstChild("ClientLoader");
	if (include === undefined || nodeModules === undefined || client === undefined || shared === undefined) {
		return "the model is missing include, node_modules, lib/client or lib/shared";
	}
	if (loader === undefined || !loader.IsA("LocalScript")) return "the model is missing its ClientLoader LocalScript";

	if (targets.replicated.FindFirstChild(CLIENT_FOLDER_NAME) === undefined) {
		const folder = new Instance("Folder");
		folder.Name = CLIENT_FOLDER_NAME;
		include.Clone().Parent = folder;
		nodeModules.Clone().Parent = folder;
		const libCopy = new Instance("Folder");
		libCopy.Name = "lib";
		client.Clone().Parent = libCopy;
		shared.Clone().Parent = libCopy;
		libCopy.Parent = folder;
		stripAttributes(folder);
		folder.Parent = targets.replicated;
	}

	const place = (parent: Instance) => {
		if (parent.FindFirstChild(CLIENT_LOADER_NAME) !== undefined) return;
		const copy = loader.Clone();
		copy.Name = CLIENT_LOADER_NAME;
		stripAttributes(copy);
		copy.Enabled = true;
		copy.Parent = parent;
	};
	if (targets.starterPlayerScripts !== undefined) place(targets.starterPlayerScripts);
	// Players already here copied StarterPlayerScripts before the loader was there: give them their own copy.
	for (const player of targets.players) {
		task.spawn(() => {
			const gui = player.FindFirstChildOfClass("PlayerGui") ?? player.WaitForChild("PlayerGui", 10);
			if (gui !== undefined && player.Parent !== undefined) place(gui);
		});
	}
	return undefined;
}
