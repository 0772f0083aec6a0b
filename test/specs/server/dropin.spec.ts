import { ReplicatedStorage, ServerScriptService, StarterPlayer, Workspace } from "@rbxts/services";
import type { StaffOpsApiClient } from "../../../src/api/apiClient";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { allOutput, cleanUp, freshStart, joinsOf, linesWith, warnings } from "./support";
import { waitSeconds, waitUntil } from "../../support/waits";

interface ModelLibrary {
	StaffOps: { stop: (this: void) => void; isStaff: (this: void, player: Player) => boolean };
}

let loaded = 0;
const started = new Array<ModuleScript>();

/** Loads a fresh copy of build/StaffOps.rbxm under a uniquely named folder (the sandbox caches modules by name). */
function loadModel(parent: Instance = ServerScriptService): ModuleScript {
	loaded += 1;
	const container = new Instance("Folder");
	container.Name = `DropInSpec${loaded}`;
	container.Parent = parent;
	return harness.loadModel("build/StaffOps.rbxm", container) as ModuleScript;
}

/** Runs the model's Bootstrap Script as Roblox would when the model sits in ServerScriptService. */
function boot(model: ModuleScript): void {
	const [ok, problem] = harness.runScript(model.FindFirstChild("Bootstrap") as Script);
	if (!ok) error(`Bootstrap failed: ${problem}`, 2);
	started.push(model);
}

function configure(model: ModuleScript): void {
	model.SetAttribute("BaseUrl", harness.serviceUrl);
	model.SetAttribute("ApiKey", harness.serviceKey);
	model.SetAttribute("ClientReportTimeoutSeconds", 0);
}

function starterPlayerScripts(): Instance {
	let scripts = StarterPlayer.FindFirstChild("StarterPlayerScripts");
	if (scripts === undefined) {
		// Not creatable in a game, but Lune builds it; Roblox always has one.
		scripts = new Instance("StarterPlayerScripts" as "Folder");
		scripts.Parent = StarterPlayer;
	}
	return scripts;
}

/** Names of `instance`'s children, sorted. */
function childNames(instance: Instance): string {
	return instance
		.GetChildren()
		.map((child) => child.Name)
		.sort()
		.join(",");
}

// The drop-in model for Luau users: insert into ServerScriptService, set attributes, play.
export = () => {
	beforeEach(() => freshStart());
	afterEach(() => {
		for (const model of started) {
			const [ok, library] = pcall(() => require(model) as ModelLibrary);
			if (ok) library.StaffOps.stop();
		}
		started.clear();
		for (const container of ServerScriptService.GetChildren()) {
			if (container.Name.find("DropInSpec", 1, true)[0] === 1) container.Destroy();
		}
		for (const container of Workspace.GetChildren()) {
			if (container.Name.find("DropInSpec", 1, true)[0] === 1) container.Destroy();
		}
		cleanUp();
		ReplicatedStorage.FindFirstChild("StaffOpsClient")?.Destroy();
		StarterPlayer.FindFirstChild("StarterPlayerScripts")?.FindFirstChild("StaffOpsClientLoader")?.Destroy();
	});

	describe("the drop-in model", () => {
		it("ships a Bootstrap Script, a disabled RunContext-Client ClientLoader and its settings as attributes", () => {
			const model = loadModel();
			expect(model.FindFirstChild("Bootstrap")!.IsA("Script")).to.equal(true);
			const loader = model.FindFirstChild("ClientLoader") as Script;
			// A Script, not a LocalScript: RunContext Client makes it run on every client where it replicates.
			expect(loader.ClassName).to.equal("Script");
			expect(loader.RunContext).to.equal(Enum.RunContext.Client);
			expect(loader.Disabled).to.equal(true);
			const attributes = model.GetAttributes();
			expect(attributes.get("BaseUrl")).to.equal("");
			expect(attributes.get("ApiKeySecret")).to.equal("staffops_api_key");
			expect(attributes.get("ApiKey")).to.equal("");
			expect(attributes.get("KickBanned")).to.equal(true);
			expect(attributes.get("HeartbeatSeconds")).to.equal(60);
			expect(attributes.get("ClientReportTimeoutSeconds")).to.equal(20);
			expect(attributes.get("ShutdownDeadlineSeconds")).to.equal(25);
			expect(attributes.get("TrackStudio")).to.equal(true);
		});

		it("starts from its attributes: registers, reports a player present at boot, kicks a banned one", () => {
			const regular = harness.players.add(2001);
			const banned = harness.players.add(666);
			task.wait();
			const model = loadModel();
			configure(model);
			model.SetAttribute("KickMessage", "Banned: {reason}");
			boot(model);
			waitUntil(
				() => joinsOf(2001).size() === 1 && harness.players.kickMessage(banned) !== undefined,
				"both joins",
			);
			expect(serviceControl.count("createServer")).to.equal(1);
			expect(joinsOf(2001)[0].platform).to.equal("unknown");
			expect(harness.players.kickMessage(banned)).to.equal("Banned: Exploiting");
			expect(regular.Parent).to.be.ok();
			expect(warnings().size()).to.equal(0);
		});

		it("reads the key from the Roblox Secret named by ApiKeySecret", () => {
			harness.http.defineSecret("staffops_api_key", harness.serviceKey);
			const model = loadModel();
			model.SetAttribute("BaseUrl", harness.serviceUrl);
			boot(model);
			waitUntil(() => serviceControl.count("createServer") === 1, "registration");
			waitSeconds(0.05);
			expect(linesWith(allOutput(), "registered this server").size()).to.equal(1);
		});

		it("reads the ranking key from the Secret named by RankingKeySecret: /rank registered, the key in api-key", () => {
			serviceControl.reset("deployed");
			serviceControl.call("POST", "/_control/ranking-keys", { key: "ranking-key-dropin-0001" });
			harness.http.defineSecret("staffops_ranking_key", "ranking-key-dropin-0001");
			const model = loadModel();
			configure(model);
			model.SetAttribute("RankingKeySecret", "staffops_ranking_key");
			boot(model);
			waitUntil(() => serviceControl.count("registerCommands") === 1, "the commands' registration");
			const registration = serviceControl.requests().requests.find((r) => r.operation === "registerCommands");
			const ids = (registration!.body as { commands: Array<{ id: string }> }).commands.map((c) => c.id);
			expect(ids.includes("readmin_rank")).to.equal(true);
			const library = require(model) as { StaffOps: { getClient: () => StaffOpsApiClient } };
			const [ranked] = library.StaffOps.getClient().commands.setRank(2001, "150").await();
			expect(ranked).to.equal(true);
			const calls = (serviceControl.call("GET", "/_control/rankings") as { calls: Array<{ apiKey: string }> })
				.calls;
			expect(calls.size()).to.equal(1);
			expect(calls[0].apiKey).to.equal("ranking");
			expect(warnings().size()).to.equal(0);
		});

		it("takes settings such as a kickMessage function from a Config ModuleScript", () => {
			const model = loadModel();
			configure(model);
			const config = new Instance("ModuleScript");
			config.Name = "Config";
			config.Source = `return { kickMessage = function(reason) return "Config says: " .. reason end }`;
			config.Parent = model;
			const banned = harness.players.add(667);
			task.wait();
			boot(model);
			waitUntil(() => harness.players.kickMessage(banned) !== undefined, "the kick");
			expect(harness.players.kickMessage(banned)).to.equal("Config says: Alternate account of a banned user");
		});

		it("lets attributes win over the Config ModuleScript, which still gives what the attributes leave out", () => {
			// README "Settings": the Config's address points nowhere; the attribute's is the service's, so a
			// registration that reaches the service proves the attribute won. The kick message only Config gives.
			const model = loadModel();
			configure(model);
			const config = new Instance("ModuleScript");
			config.Name = "Config";
			config.Source =
				`return { baseUrl = "http://127.0.0.1:9", apiKey = "not-the-key", ` +
				`kickMessage = function(reason) return "Config says: " .. reason end }`;
			config.Parent = model;
			const banned = harness.players.add(667);
			task.wait();
			boot(model);
			waitUntil(() => harness.players.kickMessage(banned) !== undefined, "the kick");
			expect(serviceControl.count("createServer")).to.equal(1);
			expect(harness.players.kickMessage(banned)).to.equal("Config says: Alternate account of a banned user");
		});

		it("delivers only the client part to ReplicatedStorage, with no configuration or key", () => {
			const scripts = starterPlayerScripts();
			const present = harness.players.add(2002);
			task.wait();
			const model = loadModel();
			configure(model);
			boot(model);
			waitUntil(() => serviceControl.count("createServer") === 1, "registration");

			const delivered = ReplicatedStorage.FindFirstChild("StaffOpsClient")!;
			expect(delivered).to.be.ok();
			expect(childNames(delivered)).to.equal("StaffOpsClientLoader,include,lib,node_modules");
			const lib = delivered.FindFirstChild("lib")!;
			expect(childNames(lib)).to.equal("client,shared");
			expect(lib.FindFirstChild("client")!.FindFirstChild("report")).to.be.ok();
			for (const item of [delivered, ...delivered.GetDescendants()]) {
				expect(item.GetAttributes().size()).to.equal(0);
				expect(
					["Bootstrap", "Config", "ClientLoader", "server", "api", "transport", "bridge"].includes(item.Name),
				).to.equal(false);
				if (item.IsA("LuaSourceContainer")) {
					const source = (item as ModuleScript).Source;
					expect(source.find(harness.serviceKey, 1, true)[0]).to.equal(undefined);
					expect(source.find(harness.serviceUrl, 1, true)[0]).to.equal(undefined);
				}
			}
			// Nothing else of StaffOps in ReplicatedStorage but the remotes, which carry nothing.
			for (const child of ReplicatedStorage.GetChildren()) {
				if (child.Name.find("StaffOps", 1, true)[0] === undefined) continue;
				expect(["StaffOpsClient", "StaffOpsRemotes"].includes(child.Name)).to.equal(true);
			}
			expect(ReplicatedStorage.FindFirstChild("StaffOpsRemotes")!.GetAttributes().size()).to.equal(0);

			// The loader is an enabled RunContext-Client Script inside the replicated folder: it runs on every client
			// there, present ones included, and nothing is copied into StarterPlayerScripts or a PlayerGui any more.
			const loader = delivered.FindFirstChild("StaffOpsClientLoader") as Script;
			expect(loader.ClassName).to.equal("Script");
			expect(loader.RunContext).to.equal(Enum.RunContext.Client);
			expect(loader.Enabled).to.equal(true);
			expect(scripts.FindFirstChild("StaffOpsClientLoader")).to.equal(undefined);
			expect(present.FindFirstChild("StaffOpsClientLoader", true)).to.equal(undefined);
			// The server never runs it: a RunContext-Client Script is client code (the drop-in's client path runs in
			// dropinClients.spec.ts, in real clients of the two-sided harness).
			waitSeconds(0.1);
			expect(linesWith(warnings(), "FireServer").size()).to.equal(0);
		});

		it("warns once and stays off without a BaseUrl; the game keeps running", () => {
			const model = loadModel();
			boot(model);
			waitSeconds(0.05);
			const lines = warnings();
			expect(lines.size()).to.equal(1);
			// It names the attribute the user edits, not the library's field.
			expect(lines[0].find("[StaffOps] attribute BaseUrl is required", 1, true)[0]).to.equal(1);
			expect(serviceControl.count("createServer") + serviceControl.count("playerJoin")).to.equal(0);
			expect(ReplicatedStorage.FindFirstChild("StaffOpsClient")).to.equal(undefined);
		});

		it("names the attribute or Config field the user edited in a warning", () => {
			const model = loadModel();
			configure(model);
			model.SetAttribute("HeartbeatSeconds", 1);
			boot(model);
			waitSeconds(0.05);
			let lines = warnings();
			expect(lines.size()).to.equal(1);
			expect(lines[0].find("attribute HeartbeatSeconds must be a number from 5 to 600", 1, true)[0]).to.be.ok();
			harness.clearOutput();
			const other = loadModel();
			configure(other);
			other.SetAttribute("ApiKey", undefined);
			const config = new Instance("ModuleScript");
			config.Name = "Config";
			config.Source = 'return { apiKeySecret = "x\\n" }';
			config.Parent = other;
			boot(other);
			waitSeconds(0.05);
			lines = warnings();
			expect(lines.size()).to.equal(1);
			expect(lines[0].find("Config.apiKeySecret must be", 1, true)[0]).to.be.ok();
		});

		it("runs on the default of a bad optional attribute, with one warning: bans still kick (issue 32, point 7)", () => {
			const banned = harness.players.add(666);
			task.wait();
			const model = loadModel();
			configure(model);
			model.SetAttribute("HeartbeatSeconds", 2);
			model.SetAttribute("KeepAliveRoute", "getServer please");
			boot(model);
			waitUntil(() => harness.players.kickMessage(banned) !== undefined, "the banned player's kick");
			expect(harness.players.kickMessage(banned)).to.equal("You are banned from this experience: Exploiting");
			expect(serviceControl.count("createServer")).to.equal(1);
			expect(joinsOf(666).size()).to.equal(1);
			const lines = warnings();
			expect(lines.size()).to.equal(2);
			expect(linesWith(lines, "KeepAliveRoute attribute must read like").size()).to.equal(1);
			expect(
				linesWith(
					lines,
					"attribute HeartbeatSeconds must be a number from 5 to 600; StaffOps uses its default (60)",
				).size(),
			).to.equal(1);
			expect(linesWith(lines, "not running").size()).to.equal(0);
		});

		it("takes LogLevel from its attribute: quiet prints nothing but warnings; a bad value warns once, runs on info", () => {
			const banned = harness.players.add(666);
			task.wait();
			const quiet = loadModel();
			configure(quiet);
			quiet.SetAttribute("LogLevel", "quiet");
			boot(quiet);
			waitUntil(() => harness.players.kickMessage(banned) !== undefined, "the banned player's kick");
			task.wait();
			expect(
				harness
					.output()
					.filter((line) => line.kind === "print")
					.size(),
			).to.equal(0);
			(require(quiet) as ModelLibrary).StaffOps.stop();
			harness.clearOutput();
			const loud = loadModel();
			configure(loud);
			loud.SetAttribute("LogLevel", "loud");
			boot(loud);
			waitUntil(() => linesWith(allOutput(), "registered this server").size() === 1, "the registration line");
			expect(linesWith(warnings(), "attribute LogLevel must be").size()).to.equal(1);
			expect(warnings().size()).to.equal(1);
		});

		it("names a misspelt attribute once, with the nearest known name, and runs: a banned player is still kicked", () => {
			const regular = harness.players.add(2001);
			const model = loadModel();
			configure(model);
			// A typo for KickBanned: it must not turn StaffOps (and so ban enforcement) off.
			model.SetAttribute("KickBaned", false);
			boot(model);
			waitUntil(() => serviceControl.count("createServer") === 1, "registration");
			const banned = harness.players.add(666);
			waitUntil(() => harness.players.kickMessage(banned) !== undefined, "the banned player's kick");
			waitUntil(() => joinsOf(2001).size() === 1, "the regular player's join");
			expect(regular.Parent).to.be.ok();
			const lines = warnings();
			expect(lines.size()).to.equal(1);
			expect(
				lines[0].find("attribute StaffOps does not know: KickBaned (did you mean KickBanned?)", 1, true)[0] !==
					undefined,
			).to.equal(true);
			expect(linesWith(allOutput(), "not running").size()).to.equal(0);
			expect(serviceControl.count("createServer")).to.equal(1);
			// The banned player's join reached the service once, and its answer kicked them.
			expect(joinsOf(666).size()).to.equal(1);
			expect(harness.players.kickMessage(banned)).to.equal("You are banned from this experience: Exploiting");
		});

		it("refuses to run outside ServerScriptService", () => {
			const model = loadModel(Workspace);
			configure(model);
			boot(model);
			waitSeconds(0.05);
			const lines = warnings();
			expect(lines.size()).to.equal(1);
			expect(lines[0].find("must sit in ServerScriptService", 1, true)[0] !== undefined).to.equal(true);
			expect(serviceControl.count("createServer") + serviceControl.count("playerJoin")).to.equal(0);
		});
	});
};
