import { harness } from "../../support/harness";

// "WaitForChild without a timeout yields forever" (docs/roblox.md#waitforchild-without-a-timeout-yields-forever); Roblox warns
// `Infinite yield possible on '<parent>:WaitForChild("<name>")'` once it has waited 5 s.
export = () => {
	afterEach(() => harness.clearOutput());

	describe("Instance:WaitForChild (fake)", () => {
		it("returns the child as soon as it appears", () => {
			const parent = new Instance("Folder");
			parent.Name = "WaitParent";
			task.delay(0.1, () => {
				const child = new Instance("Folder");
				child.Name = "Late";
				child.Parent = parent;
			});
			expect(parent.WaitForChild("Late").Name).to.equal("Late");
			parent.Destroy();
		});

		it("returns nil when a timeout is given and passes", () => {
			const parent = new Instance("Folder");
			const started = os.clock();
			expect(parent.WaitForChild("Never", 0.2)).to.equal(undefined);
			expect(os.clock() - started >= 0.2).to.equal(true);
			parent.Destroy();
		});

		it("yields forever without a timeout, warning after 5 s", () => {
			const parent = new Instance("Folder");
			parent.Name = "WaitForever";
			let returned = false;
			const thread = task.spawn(() => {
				parent.WaitForChild("Never");
				returned = true;
			});
			task.wait(5.3);
			expect(returned).to.equal(false);
			const warnings = harness.output().filter((line) => line.kind === "warn");
			expect(
				warnings
					.filter((line) => line.text === `Infinite yield possible on 'WaitForever:WaitForChild("Never")'`)
					.size(),
			).to.equal(1);
			// Still waiting: the child arrives late and the wait ends then.
			const child = new Instance("Folder");
			child.Name = "Never";
			child.Parent = parent;
			// After its warning the fake polls four times a second (a wait that never ends must not spin the run).
			const arrived = os.clock();
			while (!returned && os.clock() - arrived < 1) task.wait(0.02);
			expect(returned).to.equal(true);
			task.cancel(thread);
			parent.Destroy();
		});
	});
};
