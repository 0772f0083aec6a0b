import { HarnessClient, harness, phoneAt } from "../../support/harness";
import { DropInModels } from "../../support/dropInModel";
import { deskControl, ControlTicket } from "../../support/deskControl";
import { serviceControl } from "../../support/serviceControl";
import { cleanUp, freshStart } from "../server/support";
import { waitSeconds, waitUntil } from "../../support/waits";

const PHONE = phoneAt(60);
const CLOSING = "The call was ended by a staff member.";

function gui(client: HarnessClient, name: string): Instance | undefined {
	return client.localPlayer().FindFirstChildOfClass("PlayerGui")?.FindFirstChild(name);
}

/** Finds a descendant by a path of names; errors (failing the spec) when one is missing. */
function at<T extends Instance>(root: Instance | undefined, ...names: Array<string>): T {
	let item = root;
	for (const name of names) item = item?.FindFirstChild(name);
	if (item === undefined) error(`missing ${names.join(".")}`, 2);
	return item as T;
}

function entryShown(client: HarnessClient): boolean {
	const entry = gui(client, "StaffOpsCallStaff") as ScreenGui | undefined;
	const button = entry?.FindFirstChild("CallStaff") as TextButton | undefined;
	return entry !== undefined && entry.Enabled && button !== undefined && button.Visible;
}

/** A click or tap on a button, then a few frames for it to act. */
function press(button: GuiButton): void {
	harness.gui.activate(button);
	waitSeconds(0.1);
}

function windowOf(client: HarnessClient): Instance | undefined {
	return gui(client, "StaffOpsCallChat")?.FindFirstChild("Window");
}

function shownTexts(client: HarnessClient): Array<string> {
	const list = windowOf(client)?.FindFirstChild("Messages");
	if (list === undefined) return [];
	const entries = list.GetChildren().filter((child): child is Frame => child.IsA("Frame"));
	entries.sort((a, b) => a.LayoutOrder < b.LayoutOrder);
	return entries.map((entry) => (entry.FindFirstChild("Text") as TextLabel).Text);
}

function ticketOf(userId: number): ControlTicket | undefined {
	return deskControl.tickets().find((ticket) => tostring(ticket.callerId) === tostring(userId));
}

const count = (operation: string) => serviceControl.count(operation as never);

/** A player joins with a real client (the model delivers its client part by itself). */
function joinClient(userId: number, name: string): HarnessClient {
	const client = harness.clients.join(userId, name, PHONE);
	return client;
}

/** Opens the form from the entry, writes `reason` and presses Send; waits for the chat window of the call. */
function callStaff(client: HarnessClient, reason: string): ControlTicket {
	waitUntil(() => entryShown(client), "the Call staff entry", 20);
	press(at(gui(client, "StaffOpsCallStaff"), "CallStaff"));
	const form = gui(client, "StaffOpsCallForm");
	at<TextBox>(form, "Form", "Reason").Text = reason;
	press(at(form, "Form", "Buttons", "Send"));
	waitUntil(() => ticketOf(client.userId) !== undefined, "the ticket", 10);
	waitUntil(() => windowOf(client) !== undefined, "the call's chat window", 10);
	return ticketOf(client.userId)!;
}

// The player's side of calling staff, end to end: the drop-in model on the server, its client part in real clients,
// the reference service's deployed profile storing tickets and its control API playing the agent.
export = () => {
	const models = new DropInModels("SupportCallsSpec");

	afterEach(() => {
		models.drop();
		cleanUp();
	});

	describe("calling staff from a real client", () => {
		it("shows no Call staff entry with the interface profile", () => {
			freshStart();
			const client = joinClient(2301, "Interface");
			models.boot();
			waitUntil(() => serviceControl.count("playerJoin" as never) >= 1, "the join");
			waitUntil(() => gui(client, "StaffOpsCallStaff") !== undefined, "the entry's ScreenGui", 10);
			waitSeconds(1.5);
			expect(entryShown(client)).to.equal(false);
			expect(gui(client, "StaffOpsCallForm")).to.equal(undefined);
		});

		it("with the workspace's moderation off, shows no Call staff entry though calls are available (issue 31)", () => {
			freshStart("deployed");
			deskControl.settings({ moderation: false });
			const client = joinClient(2303, "NoMenu");
			models.boot();
			waitUntil(() => serviceControl.count("playerJoin" as never) >= 1, "the join");
			waitUntil(() => gui(client, "StaffOpsCallStaff") !== undefined, "the entry's ScreenGui", 10);
			waitSeconds(1.5);
			expect(entryShown(client)).to.equal(false);
			expect(count("supportCreate")).to.equal(0);
		});

		it("opens the form, sends one support/create, writes in the chat window once, and ends the call", () => {
			freshStart("deployed");
			const client = joinClient(2302, "Caller");
			models.boot();
			// docs/support-calls.md (SC31): the entry is a 44 px tall button, shown while calling is available.
			waitUntil(() => entryShown(client), "the Call staff entry", 20);
			const entryButton = at<TextButton>(gui(client, "StaffOpsCallStaff"), "CallStaff");
			expect(entryButton.Size.Y.Scale).to.equal(0);
			expect(entryButton.Size.Y.Offset).to.equal(44);
			const ticket = callStaff(client, "  My bike vanished  ");
			expect(count("supportCreate")).to.equal(1);
			expect(ticket.callType).to.equal("support");
			const form = gui(client, "StaffOpsCallForm");
			if (form !== undefined) {
				expect(at<TextLabel>(form, "Form", "Status").Text).to.equal(
					"Your call was sent. A staff member will answer here.",
				);
			}
			// The entry hides while the form is open and comes back after it closed.
			waitUntil(() => gui(client, "StaffOpsCallForm") === undefined, "the form to close after the call", 5);

			const window = windowOf(client)!;
			waitUntil(() => window.FindFirstChild("InputBar") !== undefined, "the text box", 5);
			at<TextBox>(window, "InputBar", "Input").Text = "It was red";
			press(at(window, "InputBar", "Send"));
			expect(at<TextBox>(window, "InputBar", "Input").Text).to.equal("");
			const mine = () => ticketOf(2302)!.messages.filter((message) => message.origin === "user");
			waitUntil(() => mine().size() === 1, "the message in the transcript", 15);
			expect(mine()[0].message).to.equal("It was red");
			// Two more syncs (fast mode: every 3 s) do not store it again, and the window shows it once.
			waitSeconds(6.5);
			expect(mine().size()).to.equal(1);
			expect(
				shownTexts(client)
					.filter((text) => text === "It was red")
					.size(),
			).to.equal(1);

			press(at(window, "TitleBar", "End"));
			waitUntil(() => count("supportEnd") === 1, "support/end", 10);
			waitUntil(() => ticketOf(2302)!.status === "closed", "the closed ticket", 5);
			expect(ticketOf(2302)!.closedReason).to.equal("closedByUser");
			waitUntil(() => windowOf(client) === undefined, "the window to close", 5);
			waitSeconds(3.5);
			expect(count("supportEnd")).to.equal(1);
			expect(count("supportCreate")).to.equal(1);
		});

		it("keeps the window open with the closing message after an agent ends the call", () => {
			freshStart("deployed");
			const client = joinClient(2303, "Waiting");
			models.boot();
			const ticket = callStaff(client, "Stuck in a wall");
			deskControl.reply(ticket._id, "Try respawning.");
			waitUntil(() => shownTexts(client).includes("Try respawning."), "the agent's reply", 10);
			deskControl.end(ticket._id);
			waitUntil(() => shownTexts(client).includes(CLOSING), "the closing message", 10);
			const window = windowOf(client)!;
			waitUntil(() => window.FindFirstChild("InputBar") === undefined, "the text box to go", 5);
			// The close is delivered after the closing message; the window stays, marked ended, without End.
			waitSeconds(4);
			expect(windowOf(client)).to.equal(window);
			expect(shownTexts(client).includes(CLOSING)).to.equal(true);
			expect(window.FindFirstChild("TitleBar")!.FindFirstChild("End")).to.equal(undefined);
			expect(at<TextLabel>(window, "TitleBar", "Title").Text.find("(ended)", 1, true)[0]).to.be.ok();
			// The player closes it; nothing more is sent for the ended call.
			press(at(window, "TitleBar", "Close"));
			expect(windowOf(client)).to.equal(undefined);
			expect(count("supportEnd")).to.equal(0);
		});

		it("gives a player whose chat settings forbid chat preset reasons only and no text box", () => {
			freshStart("deployed");
			harness.text.setCanChat(2304, false);
			const client = joinClient(2304, "Quiet");
			models.boot();
			waitUntil(() => entryShown(client), "the Call staff entry", 20);
			press(at(gui(client, "StaffOpsCallStaff"), "CallStaff"));
			const form = at(gui(client, "StaffOpsCallForm"), "Form");
			expect(form.FindFirstChild("Reason")).to.equal(undefined);
			const presets = at(form, "Presets")
				.GetChildren()
				.filter((child): child is TextButton => child.IsA("TextButton"));
			expect(presets.size()).to.equal(4);
			// Send without a pick is refused on the client, in words.
			press(at(form, "Buttons", "Send"));
			expect(at<TextLabel>(form, "Status").Text).to.equal("Please pick a reason.");
			expect(count("supportCreate")).to.equal(0);
			press(at(form, "Presets", "Preset2"));
			press(at(form, "Buttons", "Send"));
			waitUntil(() => ticketOf(2304) !== undefined, "the ticket", 10);
			expect(ticketOf(2304)!.callType).to.equal("support");
			waitUntil(() => windowOf(client)?.FindFirstChild("TitleBar")?.FindFirstChild("End") !== undefined, "End");
			waitSeconds(0.5);
			expect(windowOf(client)!.FindFirstChild("InputBar")).to.equal(undefined);
			expect(count("supportCreate")).to.equal(1);
		});

		it("reports a player picked from the others in the server, never yourself", () => {
			freshStart("deployed");
			const other = harness.clients.join(2306, "Rude", PHONE);
			const client = joinClient(2305, "Reporter");
			models.boot();
			waitUntil(() => entryShown(client), "the Call staff entry", 20);
			press(at(gui(client, "StaffOpsCallStaff"), "CallStaff"));
			const form = at(gui(client, "StaffOpsCallForm"), "Form");
			expect(at<Frame>(form, "Players").Visible).to.equal(false);
			press(at(form, "Kind", "Report"));
			expect(at<Frame>(form, "Players").Visible).to.equal(true);
			expect(form.FindFirstChild("Players")!.FindFirstChild("Player2305")).to.equal(undefined);
			at<TextBox>(form, "Reason").Text = "Calling names";
			press(at(form, "Buttons", "Send"));
			expect(at<TextLabel>(form, "Status").Text).to.equal("Please pick the player you are reporting.");
			press(at(form, "Players", `Player${other.userId}`));
			press(at(form, "Buttons", "Send"));
			waitUntil(() => ticketOf(2305) !== undefined, "the report", 10);
			expect(ticketOf(2305)!.callType).to.equal("report");
			expect(ticketOf(2305)!.reporting).to.equal("Rude");
			expect(count("supportCreate")).to.equal(1);
		});
	});
};
