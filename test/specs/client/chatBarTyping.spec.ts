import type { detectActivity } from "../../../src/client/activity";
import type { ActivityState } from "../../../src/shared/privacyProtocol";
import { clientPart, importOnClient } from "../../support/clientLibrary";
import { harness } from "../../support/harness";
import { waitSeconds } from "../../support/waits";

// Typing in TextChatService's default chat bar (issue 30, item 4): the real activity detector, run on a client of the
// two-sided harness with its default (Roblox) sources, sees ChatInputBarConfiguration.IsFocused change. The harness's
// chat bar fires no UserInputService.TextBoxFocused: Roblox's reference does not say that its focus does.

interface ActivityModule {
	detectActivity: typeof detectActivity;
}

export = () => {
	let library: Instance | undefined;

	beforeEach(() => {
		library = clientPart("ChatBarTypingLibrary");
	});
	afterEach(() => {
		library?.Destroy();
		harness.reset();
	});

	describe("typing in the default chat bar", () => {
		it("reports typing while the chat bar has focus, and active when it loses it", () => {
			const client = harness.clients.join(2601);
			const activity = importOnClient(client, library!, "activity") as ActivityModule;
			const sent = new Array<ActivityState>();
			const detector = activity.detectActivity(
				{ altTab: false, altTabSeconds: 0, movement: false, idleSeconds: 60 },
				(state) => sent.push(state),
			);
			harness.chat.focusChatBar(client.player(), true);
			waitSeconds(0.05);
			expect(sent.join(",")).to.equal("typing");
			harness.chat.focusChatBar(client.player(), false);
			waitSeconds(0.05);
			expect(sent.join(",")).to.equal("typing,active");
			detector.Disconnect();
		});
	});
};
