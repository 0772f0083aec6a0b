import { ReplicatedStorage, StarterPlayer } from "@rbxts/services";
import { ClientDevice, HarnessClient, harness, phoneAt } from "../../support/harness";
import { DropInLibrary, DropInModels } from "../../support/dropInModel";
import { serviceControl } from "../../support/serviceControl";
import { cleanUp, freshStart } from "./support";
import { waitSeconds, waitUntil } from "../../support/waits";

interface ModelLibrary extends DropInLibrary {
	StaffOps: DropInLibrary["StaffOps"] & { openCall: (this: void, player: Player, callId: string) => unknown };
}

// A call of the reference service's seed whose transcript is there from the start (opened by setCallStatus).
const CALL = "call-closed";
const FIRST = "Hello, how can I help?";
const SECOND = "Glad that is sorted. Closing this call now.";

const PHONE = phoneAt(330);
const CONSOLE: ClientDevice = {
	gamepadEnabled: true,
	preferredInput: "Gamepad",
	displaySize: "Large",
	viewport: { x: 1920, y: 1080 },
	tzOffsetMinutes: -300,
};

/** The bodies of the playerJoin requests the reference service logged for `userId`. */
function joinRequests(userId: number): Array<{ platform: string; tzOffset: string }> {
	return serviceControl
		.requests()
		.requests.filter((request) => request.operation === "playerJoin")
		.map((request) => request.body as { playerId: unknown; platform: string; tzOffset: string })
		.filter((body) => tostring(body.playerId) === tostring(userId));
}

/** Counts the ClientReport events the server receives per player, from now on (call right after booting). */
function countReports(): Map<number, number> {
	const counts = new Map<number, number>();
	const remote = ReplicatedStorage.WaitForChild("StaffOpsRemotes", 5)!.WaitForChild("ClientReport", 5) as RemoteEvent;
	remote.OnServerEvent.Connect((player) => counts.set(player.UserId, (counts.get(player.UserId) ?? 0) + 1));
	return counts;
}

function chatWindows(client: HarnessClient): Array<Instance> {
	const gui = client.localPlayer().FindFirstChildOfClass("PlayerGui")!;
	return gui.GetChildren().filter((child) => child.Name === "StaffOpsCallChat");
}

/** The texts of the messages shown in the client's only chat window, in order. */
function shownTexts(client: HarnessClient): Array<string> {
	const windows = chatWindows(client);
	if (windows.size() !== 1) return [];
	const list = windows[0].FindFirstChild("Window")?.FindFirstChild("Messages");
	if (list === undefined) return [];
	const entries = list.GetChildren().filter((child) => child.Name.sub(1, 7) === "Message");
	entries.sort((a, b) => (a as Frame).LayoutOrder < (b as Frame).LayoutOrder);
	return entries.map((entry) => (entry.FindFirstChild("Text") as TextLabel).Text);
}

// The drop-in model end to end in the two-sided harness: Bootstrap on the server, its client part in real clients.
export = () => {
	const models = new DropInModels<ModelLibrary>("DropInClientsSpec", { ClientReportTimeoutSeconds: 15 });

	beforeEach(() => freshStart());
	afterEach(() => {
		models.drop();
		cleanUp();
	});

	describe("the drop-in model with real clients", () => {
		it("reports each client's platform and offset, present at start or joining later, exactly once", () => {
			// In a Studio playtest the player is usually there before server scripts run.
			const present = harness.clients.join(2201, "Present", PHONE);
			models.boot();
			// The remotes exist once Bootstrap returns; no client can have seen them yet (replication needs a frame).
			const reports = countReports();
			const later = harness.clients.join(2202, "Later", CONSOLE);

			waitUntil(() => joinRequests(2201).size() === 1 && joinRequests(2202).size() === 1, "both joins");
			expect(joinRequests(2201)[0].platform).to.equal("Phone");
			expect(joinRequests(2201)[0].tzOffset).to.equal("+05:30");
			expect(joinRequests(2202)[0].platform).to.equal("Console");
			expect(joinRequests(2202)[0].tzOffset).to.equal("-05:00");
			waitSeconds(0.3);
			// One loader run and one report per client.
			for (const client of [present, later]) {
				const loaderRuns = client
					.started()
					.filter((name) => name.find("StaffOpsClientLoader", 1, true)[0] !== undefined);
				expect(loaderRuns.size()).to.equal(1);
				expect(reports.get(client.userId)).to.equal(1);
				expect(
					client
						.output()
						.filter((line) => line.kind !== "print")
						.size(),
				).to.equal(0);
			}
		});

		it("shows a support call in the client's ChatWindow, and keeps receiving after two respawns", () => {
			serviceControl.setCallStatus(CALL, "open");
			const client = harness.clients.join(2203, "Caller", PHONE);
			const library = models.boot();
			waitUntil(() => ReplicatedStorage.FindFirstChild("StaffOpsRemotes") !== undefined, "the remotes");
			// The chat listens before the call opens (its loader started at delivery).
			waitUntil(
				() => client.started().some((name) => name.find("StaffOpsClientLoader", 1, true)[0] !== undefined),
				"the client loader",
			);
			waitSeconds(0.3);
			library.StaffOps.openCall(client.player(), CALL);
			waitUntil(() => shownTexts(client).size() === 2, "the transcript in the ChatWindow", 10);
			expect(shownTexts(client).join("|")).to.equal(`${FIRST}|${SECOND}`);

			client.respawn();
			client.respawn();
			waitSeconds(0.2);
			expect(client.spawns()).to.equal(3);
			// The window survived (ResetOnSpawn false) and was not duplicated.
			expect(chatWindows(client).size()).to.equal(1);
			serviceControl.addCallMessage(CALL, { username: "ModMarco", userId: 1003, message: "Still there?" });
			waitUntil(() => shownTexts(client).size() === 3, "a message after two respawns", 20);
			expect(shownTexts(client)[2]).to.equal("Still there?");
		});

		it("opens exactly one chat window per client, even when another copy of the client code runs", () => {
			serviceControl.setCallStatus(CALL, "open");
			// A second starter of the chat, as a game might add by hand: both copies must share one chat.
			const extra = new Instance("LocalScript");
			extra.Name = "HandMadeChatStarter";
			(extra as unknown as { Source: string }).Source = `
				local folder = game:GetService("ReplicatedStorage"):WaitForChild("StaffOpsClient")
				local TS = require(folder:WaitForChild("include"):WaitForChild("RuntimeLib"))
				local client = folder:WaitForChild("lib"):WaitForChild("client")
				TS.import(script, client:WaitForChild("report")).startClientReport()
				TS.import(script, client:WaitForChild("chat"):WaitForChild("mount")).startCallChat()
			`;
			extra.Parent = StarterPlayer.FindFirstChild("StarterPlayerScripts")!;
			models.keep(extra);

			const present = harness.clients.join(2204, "Present", PHONE);
			const library = models.boot();
			const reports = countReports();
			const later = harness.clients.join(2205, "Later", CONSOLE);
			waitUntil(() => joinRequests(2204).size() === 1 && joinRequests(2205).size() === 1, "both joins");
			for (const client of [present, later]) {
				expect(
					client.started().some((name) => name.find("HandMadeChatStarter", 1, true)[0] !== undefined),
				).to.equal(true);
			}
			waitSeconds(0.3);
			library.StaffOps.openCall(present.player(), CALL);
			library.StaffOps.openCall(later.player(), CALL);
			waitUntil(() => shownTexts(present).size() === 2 && shownTexts(later).size() === 2, "both transcripts", 10);
			waitSeconds(0.3);
			expect(chatWindows(present).size()).to.equal(1);
			expect(chatWindows(later).size()).to.equal(1);
			// Each message once, not once per starter.
			expect(shownTexts(present).join("|")).to.equal(`${FIRST}|${SECOND}`);
			// One report per client, although two scripts started the reporter there.
			expect(reports.get(2204)).to.equal(1);
			expect(reports.get(2205)).to.equal(1);
		});

		it("keeps the model and its attributes out of every client", () => {
			const client = harness.clients.join(2206, "Watcher", PHONE);
			models.boot();
			waitUntil(() => joinRequests(2206).size() === 1, "the join");
			client.sync();
			const clientGame = client.game();
			expect(clientGame.FindFirstChildOfClass("ServerScriptService")).to.equal(undefined);
			expect(clientGame.GetService("ReplicatedStorage").FindFirstChild("StaffOpsClient")).to.be.ok();
			const names = ["BaseUrl", "ApiKey", "ApiKeySecret", "KickMessage", "ClientReportTimeoutSeconds"];
			let seen = 0;
			for (const item of clientGame.GetDescendants()) {
				seen += 1;
				for (const [name, value] of item.GetAttributes()) {
					expect(names.includes(name)).to.equal(false);
					expect(tostring(value).find(harness.serviceKey, 1, true)[0]).to.equal(undefined);
					expect(tostring(value).find(harness.serviceUrl, 1, true)[0]).to.equal(undefined);
				}
				expect(item.Name.find("DropInClientsSpec", 1, true)[0]).to.equal(undefined);
			}
			// The walk looked at the replicated client part, not an empty tree.
			expect(seen > 20).to.equal(true);
		});
	});
};
