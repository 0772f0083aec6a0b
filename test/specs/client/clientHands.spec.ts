import type { detectActivity } from "../../../src/client/activity";
import type { ActivityState } from "../../../src/shared/privacyProtocol";
import { clientPart, importOnClient } from "../../support/clientLibrary";
import { harness } from "../../support/harness";
import { waitSeconds } from "../../support/waits";

// The player's hands on a harness client (issue 30, item 6: npm start drives staff activity through them): a key
// press, the character walking and the window losing focus reach the real activity detector's Roblox sources
// (UserInputService.InputBegan, the Humanoid's MoveDirection, WindowFocusReleased / WindowFocused).

interface ActivityModule {
	detectActivity: typeof detectActivity;
}

export = () => {
	let library: Instance | undefined;

	beforeEach(() => {
		library = clientPart("ClientHandsLibrary");
	});
	afterEach(() => {
		library?.Destroy();
		harness.reset();
	});

	describe("a client's hands", () => {
		it("goes idle without input, and active again on a key press, a walk and the window's focus", () => {
			const client = harness.clients.join(2602);
			const activity = importOnClient(client, library!, "activity") as ActivityModule;
			const sent = new Array<ActivityState>();
			const detector = activity.detectActivity(
				{ altTab: true, altTabSeconds: 0, movement: true, idleSeconds: 1 },
				(state) => sent.push(state),
			);
			waitSeconds(2.5);
			expect(sent.join(",")).to.equal("idle");
			client.press("W");
			waitSeconds(0.05);
			expect(sent.join(",")).to.equal("idle,active");
			client.focusWindow(false);
			waitSeconds(0.05);
			expect(sent.join(",")).to.equal("idle,active,idle");
			client.focusWindow(true);
			waitSeconds(0.05);
			expect(sent.join(",")).to.equal("idle,active,idle,active");
			// Walking keeps the player active past the idle time; standing still lets it come.
			client.walk(true);
			waitSeconds(2.5);
			expect(sent.join(",")).to.equal("idle,active,idle,active");
			client.walk(false);
			waitSeconds(3);
			expect(sent.join(",")).to.equal("idle,active,idle,active,idle");
			detector.Disconnect();
		});
	});
};
