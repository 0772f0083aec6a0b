import {
	Players,
	ReplicatedFirst,
	ReplicatedStorage,
	ServerScriptService,
	StarterGui,
	StarterPlayer,
} from "@rbxts/services";
import { HarnessClient, harness } from "../../support/harness";
import { waitSeconds } from "../../support/waits";

// The two-sided harness: each rule of Roblox it models, with the sentence of Roblox's reference it stands for.
const made = new Array<Instance>();

function make<T extends keyof CreatableInstances>(className: T, name: string, parent: Instance): CreatableInstances[T] {
	const instance = new Instance(className);
	instance.Name = name;
	instance.Parent = parent;
	made.push(instance);
	return instance;
}

/** A script of `className` whose source prints `ran <name>` (and then runs `body`). */
function scriptIn(
	className: "Script" | "LocalScript",
	name: string,
	parent: Instance,
	options: { runContext?: Enum.RunContext; enabled?: boolean; body?: string } = {},
): Script {
	const created = new Instance(className) as Script;
	created.Name = name;
	(created as unknown as { Source: string }).Source = `print("ran ${name}")\n${options.body ?? ""}`;
	if (options.runContext !== undefined)
		(created as unknown as { RunContext: Enum.RunContext }).RunContext = options.runContext;
	created.Enabled = options.enabled ?? true;
	created.Parent = parent;
	made.push(created);
	return created;
}

/** How many times `client` printed `ran <name>`. */
function runs(client: HarnessClient, name: string): number {
	return client
		.output()
		.filter((line) => line.kind === "print" && line.text === `ran ${name}`)
		.size();
}

function starterScripts(): Instance {
	return StarterPlayer.FindFirstChild("StarterPlayerScripts")!;
}

export = () => {
	afterEach(() => {
		harness.reset();
		for (const instance of made) instance.Destroy();
		made.clear();
	});

	describe("two-sided harness: what a client sees", () => {
		// ReplicatedStorage: "Objects parented to this service are fully replicated to clients".
		it("replicates ReplicatedStorage, later changes too, and never ServerScriptService or ServerStorage", () => {
			const folder = make("Folder", "HarnessShared", ReplicatedStorage);
			make("StringValue", "Greeting", folder).Value = "hello";
			const secret = make("Folder", "HarnessServerOnly", ServerScriptService);
			const client = harness.clients.join(7101);
			const mirror = client.game().GetService("ReplicatedStorage").FindFirstChild("HarnessShared");
			expect(mirror).to.be.ok();
			expect((mirror!.FindFirstChild("Greeting") as StringValue).Value).to.equal("hello");
			expect(mirror === folder).to.equal(false);
			const clientGame = client.game();
			expect(clientGame.FindFirstChildOfClass("ServerScriptService")).to.equal(undefined);
			expect(clientGame.FindFirstChildOfClass("ServerStorage")).to.equal(undefined);
			expect(secret.Parent).to.equal(ServerScriptService);

			// Later changes on the server reach the client; a removal too.
			make("Folder", "Later", folder);
			(folder.FindFirstChild("Greeting") as StringValue).Value = "bye";
			folder.SetAttribute("Mood", "good");
			client.sync();
			expect(mirror!.FindFirstChild("Later")).to.be.ok();
			expect((mirror!.FindFirstChild("Greeting") as StringValue).Value).to.equal("bye");
			expect(mirror!.GetAttribute("Mood")).to.equal("good");
			folder.FindFirstChild("Later")!.Destroy();
			client.sync();
			expect(mirror!.FindFirstChild("Later")).to.equal(undefined);
		});

		// RunService:IsClient "returns whether the current environment is running on the client"; LocalPlayer is
		// "the Player to whom the client is connected" (nil on the server).
		it("answers IsClient() true and LocalPlayer as its own player, only on the client", () => {
			const client = harness.clients.join(7102, "Ana");
			const facts = client.run(`
				local Players = game:GetService("Players")
				local RunService = game:GetService("RunService")
				return { client = RunService:IsClient(), server = RunService:IsServer(), userId = Players.LocalPlayer.UserId,
					name = Players.LocalPlayer.Name, players = #Players:GetPlayers() }
			`) as { client: boolean; server: boolean; userId: number; name: string; players: number };
			expect(facts.client).to.equal(true);
			expect(facts.server).to.equal(false);
			expect(facts.userId).to.equal(7102);
			expect(facts.name).to.equal("Ana");
			expect(facts.players).to.equal(1);
			expect(game.GetService("RunService").IsClient()).to.equal(false);
			expect(Players.LocalPlayer).to.equal(undefined);
			// A client cannot reach the web.
			const [ok] = pcall(() =>
				client.run(`return game:GetService("HttpService"):RequestAsync({ Url = "http://127.0.0.1:9/" })`),
			);
			expect(ok).to.equal(false);
		});
	});

	describe("two-sided harness: remotes between server and clients", () => {
		// RemoteEvent: FireServer "fires OnServerEvent on the server ... with the Player who fired it" first;
		// FireClient fires OnClientEvent for that player only. Values follow Roblox's serialisation.
		it("carries events both ways, each to its own player, with Roblox's value rules", () => {
			const remote = make("RemoteEvent", "HarnessRemote", ReplicatedStorage);
			const heard = new Array<[Player, unknown, unknown]>();
			remote.OnServerEvent.Connect((player, value, fn) => heard.push([player, value, fn]));
			const ana = harness.clients.join(7103);
			const bo = harness.clients.join(7104);
			for (const client of [ana, bo]) {
				client.run(`
					local remote = game:GetService("ReplicatedStorage"):WaitForChild("HarnessRemote")
					remote.OnClientEvent:Connect(function(kind, payload)
						print("got " .. kind .. " " .. tostring(payload.n) .. " " .. tostring(payload.f) .. " " .. tostring(payload.who == game:GetService("Players").LocalPlayer))
					end)
					remote:FireServer({ from = game:GetService("Players").LocalPlayer.UserId }, function() end)
				`);
			}
			waitSeconds(0.1);
			expect(heard.size()).to.equal(2);
			expect(heard[0][0]).to.equal(ana.player());
			expect((heard[0][1] as { from: number }).from).to.equal(7103);
			expect(heard[0][2]).to.equal(undefined);
			expect(heard[1][0]).to.equal(bo.player());

			remote.FireClient(ana.player(), "hello", { n: 0 / 0, f: () => 1, who: ana.player() });
			waitSeconds(0.1);
			const lines = (client: HarnessClient) => client.output().filter((line) => line.text.sub(1, 4) === "got ");
			expect(lines(ana).size()).to.equal(1);
			// NaN passes, the function arrives as nil, the server's Player arrives as the client's own Player.
			expect(lines(ana)[0].text).to.equal("got hello nan nil true");
			expect(lines(bo).size()).to.equal(0);
		});

		it("refuses the server side's calls on a client and the client's on the server", () => {
			const remote = make("RemoteEvent", "HarnessRemote2", ReplicatedStorage);
			const client = harness.clients.join(7105);
			expect(pcall(() => remote.FireServer())[0]).to.equal(false);
			const [ok, problem] = pcall(() =>
				client.run(
					`game:GetService("ReplicatedStorage").HarnessRemote2:FireClient(game:GetService("Players").LocalPlayer)`,
				),
			);
			expect(ok).to.equal(false);
			expect(tostring(problem).find("can only be called from the server", 1, true)[0]).to.be.ok();
		});
	});

	describe("two-sided harness: players, characters and PlayerGui", () => {
		// "StarterPlayerScripts is copied into a player's PlayerScripts once, when they join; the server cannot see
		// PlayerScripts" (docs/roblox.md#starterplayerscripts-is-copied-once).
		it("copies StarterPlayerScripts into PlayerScripts once, at join, out of the server's sight", () => {
			scriptIn("LocalScript", "HarnessStarterLocal", starterScripts());
			const client = harness.clients.join(7106);
			waitSeconds(0.1);
			const playerScripts = client.localPlayer().FindFirstChildOfClass("PlayerScripts")!;
			expect(playerScripts.FindFirstChild("HarnessStarterLocal")).to.be.ok();
			expect(runs(client, "HarnessStarterLocal")).to.equal(1);
			expect(client.player().FindFirstChildOfClass("PlayerScripts")).to.equal(undefined);
			// Respawns do not copy it again; what StarterPlayerScripts gets later reaches only later players.
			client.respawn();
			scriptIn("LocalScript", "HarnessLateLocal", starterScripts());
			client.sync();
			waitSeconds(0.1);
			expect(runs(client, "HarnessStarterLocal")).to.equal(1);
			expect(playerScripts.FindFirstChild("HarnessLateLocal")).to.equal(undefined);
			const later = harness.clients.join(7107);
			waitSeconds(0.1);
			expect(runs(later, "HarnessLateLocal")).to.equal(1);
		});

		// "PlayerGui is emptied on every respawn (ScreenGuis with ResetOnSpawn = false stay)" (docs/roblox.md#playergui-is-emptied-on-respawn);
		// StarterGui is copied into PlayerGui each time the character spawns.
		it("empties PlayerGui at respawn but for ResetOnSpawn-false ScreenGuis, and copies StarterGui again", () => {
			const resetting = make("ScreenGui", "HarnessResetting", StarterGui);
			scriptIn("LocalScript", "HarnessGuiLocal", resetting);
			make("ScreenGui", "HarnessKept", StarterGui).ResetOnSpawn = false;
			const client = harness.clients.join(7108);
			waitSeconds(0.1);
			const gui = client.localPlayer().FindFirstChildOfClass("PlayerGui")!;
			expect(gui.FindFirstChild("HarnessResetting")).to.be.ok();
			expect(gui.FindFirstChild("HarnessKept")).to.be.ok();
			expect(runs(client, "HarnessGuiLocal")).to.equal(1);
			gui.FindFirstChild("HarnessResetting")!.SetAttribute("Old", true);
			gui.FindFirstChild("HarnessKept")!.SetAttribute("Old", true);
			const own = new Instance("ScreenGui");
			own.Name = "OwnResetting";
			own.Parent = gui;
			const ownKept = new Instance("ScreenGui");
			ownKept.Name = "OwnKept";
			ownKept.ResetOnSpawn = false;
			ownKept.Parent = gui;
			const firstCharacter = client.localPlayer().Character;

			client.respawn();
			waitSeconds(0.1);
			expect(client.spawns()).to.equal(2);
			expect(client.localPlayer().Character === firstCharacter).to.equal(false);
			expect(gui.FindFirstChild("OwnResetting")).to.equal(undefined);
			expect(gui.FindFirstChild("OwnKept")).to.be.ok();
			expect(gui.FindFirstChild("HarnessKept")!.GetAttribute("Old")).to.equal(true);
			expect(
				gui
					.GetChildren()
					.filter((child) => child.Name === "HarnessKept")
					.size(),
			).to.equal(1);
			expect(gui.FindFirstChild("HarnessResetting")!.GetAttribute("Old")).to.equal(undefined);
			// The fresh copy's LocalScript runs again.
			expect(runs(client, "HarnessGuiLocal")).to.equal(2);
		});
	});

	describe("two-sided harness: where scripts run", () => {
		// LocalScript: "A LocalScript will only run Lua code if it is a descendant of one of the following objects:
		// A Player's Backpack, A Player's character model, A Player's PlayerGui, A Player's PlayerScripts,
		// The ReplicatedFirst service".
		it("runs a LocalScript only in PlayerScripts, PlayerGui, Backpack, the character or ReplicatedFirst", () => {
			scriptIn("LocalScript", "HarnessLocalInStorage", ReplicatedStorage);
			scriptIn("LocalScript", "HarnessLocalInFirst", ReplicatedFirst);
			scriptIn(
				"LocalScript",
				"HarnessLocalInCharacter",
				StarterPlayer.FindFirstChild("StarterCharacterScripts")!,
			);
			const client = harness.clients.join(7109);
			waitSeconds(0.1);
			expect(runs(client, "HarnessLocalInStorage")).to.equal(0);
			expect(runs(client, "HarnessLocalInFirst")).to.equal(1);
			expect(runs(client, "HarnessLocalInCharacter")).to.equal(1);
			client.respawn();
			waitSeconds(0.1);
			// The character is new, and so are its scripts.
			expect(runs(client, "HarnessLocalInCharacter")).to.equal(2);
			const backpack = client.localPlayer().FindFirstChildOfClass("Backpack")!;
			const tool = new Instance("LocalScript");
			tool.Name = "HarnessLocalInBackpack";
			(tool as unknown as { Source: string }).Source = `print("ran HarnessLocalInBackpack")`;
			tool.Parent = backpack;
			client.sync();
			waitSeconds(0.1);
			expect(runs(client, "HarnessLocalInBackpack")).to.equal(1);
		});

		// Script types and locations: "If you change the script's run context to Client, it can run in
		// ReplicatedStorage"; a Legacy Script "only runs if it is in a server container"; RunContext "Runs on the
		// client" for every client, including those already present when it replicates.
		it("runs a RunContext Client Script wherever it replicates, on present and later clients, never a Legacy one", () => {
			const early = harness.clients.join(7110);
			scriptIn("Script", "HarnessLegacy", ReplicatedStorage);
			scriptIn("Script", "HarnessClientContext", ReplicatedStorage, { runContext: Enum.RunContext.Client });
			early.sync();
			waitSeconds(0.1);
			expect(runs(early, "HarnessClientContext")).to.equal(1);
			expect(runs(early, "HarnessLegacy")).to.equal(0);
			const late = harness.clients.join(7111);
			waitSeconds(0.1);
			expect(runs(late, "HarnessClientContext")).to.equal(1);
			// A respawn does not touch it.
			early.respawn();
			waitSeconds(0.1);
			expect(runs(early, "HarnessClientContext")).to.equal(1);
		});

		// Issue 12's first finding: a loader copied into a present player's PlayerGui is destroyed at their first
		// respawn ("PlayerGui is emptied on every respawn"); a ResetOnSpawn-false window it made stays on screen, but
		// the script's connections die with it.
		it("stops a PlayerGui LocalScript at respawn: its window stays, its connections are cut", () => {
			const remote = make("RemoteEvent", "HarnessGuiPing", ReplicatedStorage);
			const client = harness.clients.join(7114);
			const gui = client.localPlayer().FindFirstChildOfClass("PlayerGui")!;
			const loader = new Instance("LocalScript");
			loader.Name = "OldStyleLoader";
			(loader as unknown as { Source: string }).Source = `
				local window = Instance.new("ScreenGui")
				window.Name = "OldStyleWindow"
				window.ResetOnSpawn = false
				window.Parent = game:GetService("Players").LocalPlayer.PlayerGui
				game:GetService("ReplicatedStorage"):WaitForChild("HarnessGuiPing").OnClientEvent:Connect(function()
					print("heard")
				end)
			`;
			loader.Parent = gui;
			client.sync();
			waitSeconds(0.1);
			const heard = () =>
				client
					.output()
					.filter((line) => line.text === "heard")
					.size();
			remote.FireAllClients();
			waitSeconds(0.1);
			expect(heard()).to.equal(1);
			client.respawn();
			waitSeconds(0.1);
			expect(gui.FindFirstChild("OldStyleLoader")).to.equal(undefined);
			expect(gui.FindFirstChild("OldStyleWindow")).to.be.ok();
			remote.FireAllClients();
			waitSeconds(0.1);
			expect(heard()).to.equal(1);
		});

		// "the starter containers are copied to the client, so both the original script and the copy run".
		it("runs a RunContext Client Script in StarterPlayerScripts twice: the original and the copy", () => {
			scriptIn("Script", "HarnessStarterClientContext", starterScripts(), { runContext: Enum.RunContext.Client });
			const client = harness.clients.join(7112);
			waitSeconds(0.1);
			expect(runs(client, "HarnessStarterClientContext")).to.equal(2);
		});

		// BaseScript.Enabled: a disabled script does not run; enabling it starts it; disabling or destroying a running
		// script stops it, with the connections it made.
		it("honours Enabled, and stops a disabled or destroyed script with its threads and connections", () => {
			const remote = make("RemoteEvent", "HarnessPing", ReplicatedStorage);
			const toggled = scriptIn("Script", "HarnessToggled", ReplicatedStorage, {
				runContext: Enum.RunContext.Client,
				enabled: false,
				body: `
					game:GetService("ReplicatedStorage"):WaitForChild("HarnessPing").OnClientEvent:Connect(function()
						print("ping")
					end)
					task.spawn(function() while true do task.wait(0.02) print("tick") end end)
				`,
			});
			const client = harness.clients.join(7113);
			waitSeconds(0.1);
			expect(runs(client, "HarnessToggled")).to.equal(0);
			toggled.Enabled = true;
			client.sync();
			waitSeconds(0.1);
			expect(runs(client, "HarnessToggled")).to.equal(1);
			remote.FireAllClients();
			waitSeconds(0.1);
			const count = (text: string) =>
				client
					.output()
					.filter((line) => line.text === text)
					.size();
			expect(count("ping")).to.equal(1);
			toggled.Enabled = false;
			client.sync();
			const ticks = count("tick");
			expect(ticks > 0).to.equal(true);
			remote.FireAllClients();
			waitSeconds(0.1);
			expect(count("ping")).to.equal(1);
			expect(count("tick")).to.equal(ticks);
		});
	});
};
