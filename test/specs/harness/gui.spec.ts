import { harness } from "../../support/harness";

// Lune's instances have no input events; the harness gives buttons an Activated signal that specs fire.
export = () => {
	describe("GuiButton.Activated (fake)", () => {
		it("fires a TextButton's and an ImageButton's Activated like a click, inline or deferred as the signal behaviour says", () => {
			for (const className of ["TextButton", "ImageButton"] as const) {
				const button = new Instance(className);
				let clicks = 0;
				const connection = button.Activated.Connect(() => (clicks += 1));
				harness.gui.activate(button);
				expect(clicks).to.equal(harness.signalBehavior === "Immediate" ? 1 : 0);
				const started = os.clock();
				while (clicks === 0 && os.clock() - started < 2) task.wait();
				expect(clicks).to.equal(1);
				connection.Disconnect();
				harness.gui.activate(button);
				task.wait();
				task.wait();
				expect(clicks).to.equal(1);
				button.Destroy();
			}
		});

		it("refuses anything that is not a button", () => {
			expect(() => harness.gui.activate(new Instance("Frame") as unknown as GuiButton)).to.throw();
		});
	});
};
