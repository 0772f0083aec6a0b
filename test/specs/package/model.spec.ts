import { harness } from "../../support/harness";

// The drop-in model must work in a place that holds nothing else: its runtime and @rbxts
// dependencies travel inside it.
export = () => {
	describe("the drop-in model build/StaffOps.rbxm", () => {
		it("loads alone and can be required", () => {
			const container = new Instance("Folder");
			container.Name = "EmptyPlaceStandIn";
			const model = harness.loadModel("build/StaffOps.rbxm", container);
			expect(model.IsA("ModuleScript")).to.equal(true);
			expect(model.FindFirstChild("include")).to.be.ok();
			expect(model.FindFirstChild("node_modules")).to.be.ok();

			const library = require(model as ModuleScript) as { VERSION: string };
			expect(library.VERSION).to.equal("0.2.0");
		});

		it("carries no specs", () => {
			const container = new Instance("Folder");
			const model = harness.loadModel("build/StaffOps.rbxm", container);
			const specs = model
				.GetDescendants()
				.filter((descendant) => descendant.Name.match("%.spec$")[0] !== undefined);
			expect(specs.size()).to.equal(0);
		});
	});
};
