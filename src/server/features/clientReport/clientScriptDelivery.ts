import { logWarn } from "../../../background/log";
/**
 * The name of the folder the drop-in model puts in ReplicatedStorage: the client part of the model (runtime,
 * `@rbxts` packages, `lib/client`, `lib/shared`) and nothing else.
 * @internal
 */
export const CLIENT_FOLDER_NAME = "StaffOpsClient";

/**
 * The name of the loader inside the delivered folder: a `Script` with `RunContext` Client. Roblox runs such a script
 * "on the client" wherever it replicates, so it runs once on every client, players present before the server started
 * included, and it is never reset by a respawn (unlike a LocalScript copied into a PlayerGui).
 * @internal
 */
export const CLIENT_LOADER_NAME = "StaffOpsClientLoader";

/**
 * The `StringValue` inside the delivered loader that lists the client parts to start: `module:function` pairs joined
 * by commas (`report:startClientReport,chat/mount:startCallChat,...`), from the features' declarations, so the loader
 * keeps no list of its own. It names code, nothing of the configuration.
 * @internal
 */
export const CLIENT_PARTS_NAME = "ClientParts";

/** A client part for the loader to start: its module under `lib/client` and the function it calls there. @internal */
export interface LoaderPart {
	readonly folder: string;
	readonly start: string;
}

/** Where the drop-in model's client part goes. @internal */
export interface DeliveryTargets {
	readonly replicated: Instance;
}

/**
 * The drop-in model's root, found from this module (`<root>/lib/server/features/clientReport/clientScriptDelivery`),
 * or undefined when the library is not running from the drop-in model (a roblox-ts game).
 * @internal
 */
export function findModelRoot(): Instance | undefined {
	const lib = script.Parent?.Parent?.Parent?.Parent;
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
 * Delivers the client part of the drop-in model: one folder in `replicated` with `include`, `node_modules`,
 * `lib/client` and `lib/shared` (same layout) and an enabled copy of the model's `ClientLoader` (a `Script` with
 * `RunContext` Client), assembled before it is parented so a client never sees half of it.
 *
 * Why this form (issue 12): a LocalScript copied into a present player's PlayerGui is destroyed at their first
 * respawn ("PlayerGui is emptied on every respawn"), taking the chat's remote connection with it; a copy in
 * StarterPlayerScripts only reaches players who join later, and a player listed by `GetPlayers()` whose client has
 * not yet copied StarterPlayerScripts would get both. A `RunContext` Client Script "runs on every client wherever it
 * replicates, e.g. in ReplicatedStorage, including clients already present", and nothing resets it. The client
 * functions it calls are once-per-client besides.
 *
 * The model's root, with its configuration attributes, never replicates: only those children are copied, and every
 * copy is stripped of attributes. Idempotent. Returns undefined when done, else what is missing.
 * @internal
 */
export function deliverClient(
	root: Instance,
	targets: DeliveryTargets,
	parts: ReadonlyArray<LoaderPart> = [],
): string | undefined {
	const include = root.FindFirstChild("include");
	const nodeModules = root.FindFirstChild("node_modules");
	const lib = root.FindFirstChild("lib");
	const client = lib?.FindFirstChild("client");
	const shared = lib?.FindFirstChild("shared");
	const loader = root.FindFirstChild("ClientLoader");
	if (include === undefined || nodeModules === undefined || client === undefined || shared === undefined) {
		return "the model is missing include, node_modules, lib/client or lib/shared";
	}
	if (loader === undefined || !loader.IsA("Script") || loader.IsA("LocalScript")) {
		return "the model is missing its ClientLoader Script";
	}
	if (loader.RunContext !== Enum.RunContext.Client) return "the model's ClientLoader must have RunContext Client";

	if (targets.replicated.FindFirstChild(CLIENT_FOLDER_NAME) !== undefined) return undefined;
	const folder = new Instance("Folder");
	folder.Name = CLIENT_FOLDER_NAME;
	include.Clone().Parent = folder;
	nodeModules.Clone().Parent = folder;
	const libCopy = new Instance("Folder");
	libCopy.Name = "lib";
	client.Clone().Parent = libCopy;
	shared.Clone().Parent = libCopy;
	libCopy.Parent = folder;
	const loaderCopy = loader.Clone();
	loaderCopy.Name = CLIENT_LOADER_NAME;
	loaderCopy.Enabled = true;
	loaderCopy.Parent = folder;
	const list = new Instance("StringValue");
	list.Name = CLIENT_PARTS_NAME;
	list.Value = parts.map((part) => `${part.folder}:${part.start}`).join(",");
	list.Parent = loaderCopy;
	stripAttributes(folder);
	folder.Parent = targets.replicated;
	return undefined;
}

/**
 * Delivers the client part of the drop-in model this library runs from (`deliverClient`); warns when it is not
 * running from the drop-in model, or when the model is incomplete.
 * @internal
 */
export function deliverFromModel(
	delivery: { readonly modelRoot?: Instance; readonly replicated?: Instance },
	parts: ReadonlyArray<LoaderPart>,
): void {
	const root = delivery.modelRoot ?? findModelRoot();
	if (root === undefined) {
		logWarn(
			"deliverClient is for the drop-in model; in a roblox-ts game call startClientReport() from client code",
		);
		return;
	}
	const replicated = delivery.replicated ?? game.GetService("ReplicatedStorage");
	const problem = deliverClient(root, { replicated }, parts);
	if (problem !== undefined) logWarn(`could not deliver the client reporter: ${problem}`);
}
