import { ReplicatedStorage, ServerScriptService } from "@rbxts/services";
import { harness } from "./harness";

/** What every spec uses of the booted model's module; a spec widens it with the functions it calls. */
export interface DropInLibrary {
	StaffOps: { stop: (this: void) => void };
}

let loaded = 0;

/**
 * Drop-in models booted as in a game (build/StaffOps.rbxm in ServerScriptService, its Bootstrap script run), pointed
 * at the reference service, and removed again by `drop` (a spec's `afterEach`): the model, anything the spec asked
 * to `keep`, and what the model put in ReplicatedStorage.
 */
export class DropInModels<T extends DropInLibrary = DropInLibrary> {
	private library?: T;
	private readonly made = new Array<Instance>();

	/** `prefix` names each copy's folder (the sandbox caches modules by name); `attributes` are set before boot. */
	constructor(
		private readonly prefix: string,
		private readonly attributes: Record<string, AttributeValue> = {},
	) {}

	boot(): T {
		loaded += 1;
		const container = new Instance("Folder");
		container.Name = `${this.prefix}${loaded}`;
		container.Parent = ServerScriptService;
		this.made.push(container);
		const model = harness.loadModel("build/StaffOps.rbxm", container) as ModuleScript;
		model.SetAttribute("BaseUrl", harness.serviceUrl);
		model.SetAttribute("ApiKey", harness.serviceKey);
		for (const [name, value] of pairs(this.attributes)) model.SetAttribute(name, value);
		const [ok, problem] = harness.runScript(model.FindFirstChild("Bootstrap") as Script);
		if (!ok) error(`Bootstrap failed: ${problem}`, 2);
		this.library = require(model) as T;
		return this.library;
	}

	/** Removes `instance` with the models. */
	keep(instance: Instance): void {
		this.made.push(instance);
	}

	drop(): void {
		this.library?.StaffOps.stop();
		this.library = undefined;
		for (const instance of this.made) instance.Destroy();
		this.made.clear();
		ReplicatedStorage.FindFirstChild("StaffOpsClient")?.Destroy();
		ReplicatedStorage.FindFirstChild("StaffOpsRemotes")?.Destroy();
	}
}
