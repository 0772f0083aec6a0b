import { ReplicatedStorage } from "@rbxts/services";
import { HarnessClient, harness } from "./harness";

let copies = 0;

/**
 * The client part of build/StaffOps.rbxm (the same build as the npm package, with relative imports) in a new folder
 * of ReplicatedStorage, so a client of the two-sided harness can import it and run it against its own services.
 * Returns the folder; destroy it after the spec.
 */
export function clientPart(prefix: string): Instance {
	copies += 1;
	const holder = new Instance("Folder");
	const model = harness.loadModel("build/StaffOps.rbxm", holder);
	const folder = new Instance("Folder");
	folder.Name = `${prefix}${copies}`;
	model.FindFirstChild("include")!.Clone().Parent = folder;
	model.FindFirstChild("node_modules")!.Clone().Parent = folder;
	const lib = new Instance("Folder");
	lib.Name = "lib";
	model.FindFirstChild("lib")!.FindFirstChild("client")!.Clone().Parent = lib;
	model.FindFirstChild("lib")!.FindFirstChild("shared")!.Clone().Parent = lib;
	lib.Parent = folder;
	holder.Destroy();
	folder.Parent = ReplicatedStorage;
	return folder;
}

/** Imports `lib/client/<module>` of a `clientPart` folder in `client`'s environment (its own services). */
export function importOnClient(client: HarnessClient, part: Instance, module: string): unknown {
	return client.run(`
		local folder = game:GetService("ReplicatedStorage"):WaitForChild("${part.Name}", 5)
		local TS = require(folder:WaitForChild("include"):WaitForChild("RuntimeLib"))
		return TS.import(script, folder:WaitForChild("lib"):WaitForChild("client"):WaitForChild("${module}"))
	`);
}
