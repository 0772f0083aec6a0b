import { ReplicatedFirst, ReplicatedStorage } from "@rbxts/services";
import { HarnessClient, harness } from "../../support/harness";
import { waitSeconds } from "../../support/waits";

// Client load time: "ReplicatedFirst is a container whose contents are replicated to all clients (but not back to
// the server) before anything else" (ReplicatedFirst reference page); the rest of the place, and the scripts in
// it, come once the client has loaded (docs/roblox.md#client-scripts-run-after-loading).
const made = new Array<Instance>();

function scriptIn(className: "Script" | "LocalScript", name: string, parent: Instance): void {
	const created = new Instance(className) as Script;
	created.Name = name;
	(created as unknown as { Source: string }).Source = `print("ran ${name}")`;
	if (className === "Script")
		(created as unknown as { RunContext: Enum.RunContext }).RunContext = Enum.RunContext.Client;
	created.Parent = parent;
	made.push(created);
}

function runs(client: HarnessClient, name: string): number {
	return client
		.output()
		.filter((line) => line.kind === "print" && line.text === `ran ${name}`)
		.size();
}

export = () => {
	afterEach(() => {
		harness.reset();
		for (const instance of made) instance.Destroy();
		made.clear();
	});

	describe("two-sided harness: client load time", () => {
		it("runs only ReplicatedFirst's scripts until the client has loaded, then the rest once", () => {
			scriptIn("LocalScript", "HarnessLoadFirst", ReplicatedFirst);
			scriptIn("Script", "HarnessLoadStorage", ReplicatedStorage);
			const client = harness.clients.join(7201, undefined, { keyboardEnabled: true, loadSeconds: math.huge });
			client.sync();
			waitSeconds(0.1);
			expect(client.loaded()).to.equal(false);
			expect(runs(client, "HarnessLoadFirst")).to.equal(1);
			expect(runs(client, "HarnessLoadStorage")).to.equal(0);
			client.finishLoading();
			waitSeconds(0.1);
			expect(client.loaded()).to.equal(true);
			expect(runs(client, "HarnessLoadStorage")).to.equal(1);
			expect(runs(client, "HarnessLoadFirst")).to.equal(1);
		});

		it("loads after the device's loadSeconds, and at once without them", () => {
			scriptIn("Script", "HarnessLoadTimed", ReplicatedStorage);
			const slow = harness.clients.join(7202, undefined, { keyboardEnabled: true, loadSeconds: 0.4 });
			const quick = harness.clients.join(7203);
			waitSeconds(0.1);
			expect(runs(quick, "HarnessLoadTimed")).to.equal(1);
			expect(runs(slow, "HarnessLoadTimed")).to.equal(0);
			waitSeconds(0.6);
			expect(slow.loaded()).to.equal(true);
			expect(runs(slow, "HarnessLoadTimed")).to.equal(1);
		});

		it("never runs a client's scripts after it left while loading", () => {
			scriptIn("Script", "HarnessLoadLeft", ReplicatedStorage);
			const client = harness.clients.join(7204, undefined, { keyboardEnabled: true, loadSeconds: 0.2 });
			client.leave();
			waitSeconds(0.4);
			expect(client.loaded()).to.equal(false);
			expect(runs(client, "HarnessLoadLeft")).to.equal(0);
		});
	});
};
