import { ReplicatedStorage } from "@rbxts/services";
import { StaffOps } from "../../../src/server";
import { resolveConfig } from "../../../src/server/configCheck";
import type { StaffOpsConfig } from "../../../src/server/config";
import { RequestBudget } from "../../../src/transport/budget";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { allOutput, cleanUp, freshStart, join, joinsOf, linesWith, startRegistered, warnings } from "./support";
import { waitSeconds, waitUntil } from "../../support/waits";

function base(): Record<string, unknown> {
	return {
		baseUrl: harness.serviceUrl,
		apiKey: harness.serviceKey,
		budget: new RequestBudget({ perMinute: 100_000, burst: 10_000 }),
		retry: { maxAttempts: 1 },
	};
}

/** Starts with a configuration that should be refused; returns the one warning it printed. */
function refused(config: unknown): string {
	harness.clearOutput();
	let server: unknown;
	const [ok, thrown] = pcall(() => {
		server = StaffOps.start(config as StaffOpsConfig);
	});
	if (!ok) error(`StaffOps.start threw: ${tostring(thrown)}`, 2);
	if (server !== undefined) error("StaffOps.start accepted the configuration", 2);
	const lines = warnings();
	if (lines.size() !== 1) error(`expected one warning, got ${lines.size()}: ${lines.join(" | ")}`, 2);
	if (lines[0].sub(1, 11) !== "[StaffOps] ") error(`the warning lacks the prefix: ${lines[0]}`, 2);
	if (lines[0].find(harness.serviceKey, 1, true)[0] !== undefined) error("the warning shows the key", 2);
	return lines[0];
}

/**
 * Starts with a configuration whose one bad setting is optional: StaffOps runs on its default (issue 32, point 7).
 * Returns the one warning it printed, then stops.
 */
function fellBack(config: unknown): string {
	harness.clearOutput();
	const server = StaffOps.start(config as StaffOpsConfig);
	StaffOps.stop();
	if (server === undefined) error("StaffOps.start refused a configuration whose bad setting is optional", 2);
	const lines = warnings();
	if (lines.size() !== 1) error(`expected one warning, got ${lines.size()}: ${lines.join(" | ")}`, 2);
	if (lines[0].find("; StaffOps uses its default", 1, true)[0] === undefined) error(`no fallback: ${lines[0]}`, 2);
	if (lines[0].find(harness.serviceKey, 1, true)[0] !== undefined) error("the warning shows the key", 2);
	return lines[0];
}

/** Whether the compiler takes `T` as a StaffOpsConfig. */
type Accepts<T> = T extends StaffOpsConfig ? true : false;

function mentions(text: string, part: string): boolean {
	return text.find(part, 1, true)[0] !== undefined;
}

// Configuration: wrong or missing settings get one clear warning, the game keeps running, nothing is sent.
export = () => {
	beforeEach(() => freshStart());
	afterEach(() => cleanUp());

	describe("StaffOps.start configuration", () => {
		it("delivers no client part from StaffOps.start unless deliverClient is true (an npm game's own client starts it)", () => {
			// README "Quick start: roblox-ts": deliverClient defaults to false there. Turned on where no drop-in model is
			// (as here, and in an npm game), delivery warns that it is for the model: so no warning, nothing delivered.
			startRegistered();
			expect(ReplicatedStorage.FindFirstChild("StaffOpsClient")).to.equal(undefined);
			expect(linesWith(allOutput(), "deliverClient").size()).to.equal(0);
		});

		it("with deliverClient true outside the drop-in model, says it is for the model and delivers nothing", () => {
			startRegistered({ deliverClient: true });
			waitUntil(
				() => linesWith(allOutput(), "deliverClient is for the drop-in model").size() === 1,
				"the warning",
			);
			expect(ReplicatedStorage.FindFirstChild("StaffOpsClient")).to.equal(undefined);
		});

		it("refuses a missing or bad baseUrl, naming it", () => {
			const config = base();
			config.baseUrl = undefined;
			expect(mentions(refused(config), "config.baseUrl is required")).to.equal(true);
			expect(
				mentions(refused({ ...base(), baseUrl: "http://staff.example.com" }), "baseUrl must use https://"),
			).to.equal(true);
			expect(mentions(refused({ ...base(), baseUrl: 5 }), "baseUrl")).to.equal(true);
		});

		it("reads the default Secret when a Luau caller gives no key, refuses both keys and an empty key", () => {
			// The Secret store is the harness's for the whole run: read it through a reader that has no such Secret.
			const [ok, problem] = resolveConfig({ baseUrl: harness.serviceUrl } as unknown as StaffOpsConfig, (name) =>
				error(`Can't find secret with given key (${name})`),
			);
			expect(ok).to.equal(false);
			const line = problem as string;
			expect(mentions(line, `"staffops_api_key" (config.apiKeySecret)`)).to.equal(true);
			expect(mentions(line, "File > Experience Settings > Security > Secrets")).to.equal(true);
			expect(mentions(line, "Game Settings")).to.equal(false);
			// Where the game's secrets are, as Roblox's docs name it (docs/roblox.md#where-http-and-secrets-are-turned-on).
			expect(mentions(line, "Creator Dashboard")).to.equal(true);
			expect(mentions(line, "Creator Hub")).to.equal(false);
			expect(mentions(refused({ ...base(), apiKeySecret: "staffops" }), "both set")).to.equal(true);
			expect(mentions(refused({ ...base(), apiKey: "" }), "config.apiKey must be")).to.equal(true);
		});

		it("starts from the default Secret when neither key is given (the Luau path)", () => {
			harness.http.defineSecret("staffops_api_key", harness.serviceKey);
			const config = base();
			config.apiKey = undefined;
			const server = StaffOps.start(config as unknown as StaffOpsConfig);
			expect(server).to.be.ok();
			waitUntil(() => server!.isRegistered(), "registration with the default Secret");
		});

		it("names the setting as the owner spells it (the drop-in model's attributes)", () => {
			harness.clearOutput();
			const server = StaffOps.start(
				{ ...base(), baseUrl: "http://staff.example.com" } as unknown as StaffOpsConfig,
				{
					settingNames: { baseUrl: "attribute BaseUrl" },
				},
			);
			expect(server).to.equal(undefined);
			const lines = warnings();
			expect(lines.size()).to.equal(1);
			expect(mentions(lines[0], "attribute BaseUrl must use https://")).to.equal(true);
			expect(mentions(lines[0], "config.")).to.equal(false);
		});

		it("refuses at compile time a configuration without a key source, or with both", () => {
			// Checked by the compiler when the build compiles this spec: were StaffOpsConfig to accept a configuration
			// without a key (or with both), a `false` below would not be assignable and the build would fail.
			const withoutKey: Accepts<{ baseUrl: string }> = false;
			const withBoth: Accepts<{ baseUrl: string; apiKeySecret: string; apiKey: string }> = false;
			const withSecret: Accepts<{ baseUrl: string; apiKeySecret: string }> = true;
			const withKey: Accepts<{ baseUrl: string; apiKey: string }> = true;
			expect([withoutKey, withBoth, withSecret, withKey].join(",")).to.equal("false,false,true,true");
		});

		it("refuses unknown fields; a wrong optional value falls back to its default, naming the field", () => {
			expect(mentions(refused({ ...base(), heartbeatSecond: 60 }), "unknown field `heartbeatSecond`")).to.equal(
				true,
			);
			expect(
				mentions(fellBack({ ...base(), heartbeatSeconds: "60" }), "config.heartbeatSeconds must be"),
			).to.equal(true);
			expect(mentions(fellBack({ ...base(), heartbeatSeconds: 0 / 0 }), "config.heartbeatSeconds")).to.equal(
				true,
			);
			expect(mentions(fellBack({ ...base(), heartbeatSeconds: 1 }), "from 5 to 600")).to.equal(true);
			expect(mentions(fellBack({ ...base(), callSyncSeconds: 1 }), "config.callSyncSeconds")).to.equal(true);
			expect(mentions(fellBack({ ...base(), callSyncSeconds: 11 }), "from 2 to 10")).to.equal(true);
			expect(
				mentions(fellBack({ ...base(), shutdownDeadlineSeconds: 30 }), "config.shutdownDeadlineSeconds"),
			).to.equal(true);
			expect(mentions(fellBack({ ...base(), kickBanned: "yes" }), "config.kickBanned")).to.equal(true);
			expect(mentions(fellBack({ ...base(), kickMessage: 5 }), "config.kickMessage")).to.equal(true);
			expect(mentions(fellBack({ ...base(), budget: { perMinut: 5 } }), "config.budget")).to.equal(true);
			expect(mentions(fellBack({ ...base(), retry: { maxAttempts: "3" } }), "config.retry")).to.equal(true);
			expect(mentions(refused("https://staff.example.com"), "configuration table")).to.equal(true);
			expect(mentions(refused(undefined), "configuration table")).to.equal(true);
		});

		it("sends nothing and tracks nobody after a refused configuration", () => {
			refused({ ...base(), baseUrl: "http://staff.example.com" });
			join(2001);
			waitSeconds(0.05);
			expect(StaffOps.getServer()).to.equal(undefined);
			expect(StaffOps.getClient()).to.equal(undefined);
			expect(serviceControl.count("createServer") + serviceControl.count("playerJoin")).to.equal(0);
		});

		it("reads the key from a Roblox Secret", () => {
			harness.http.defineSecret("staffops_spec_key", harness.serviceKey);
			const config = base();
			config.apiKey = undefined;
			config.apiKeySecret = "staffops_spec_key";
			const server = StaffOps.start(config as unknown as StaffOpsConfig);
			expect(server).to.be.ok();
			waitUntil(() => server!.isRegistered(), "registration");
			expect(serviceControl.count("createServer")).to.equal(1);
		});

		it("names a missing Secret and says where to add it, quoting only the default name", () => {
			const [ok, problem] = resolveConfig({ baseUrl: harness.serviceUrl, apiKeySecret: "staffops_api_key" }, () =>
				error("Can't find secret with given key"),
			);
			expect(ok).to.equal(false);
			expect(mentions(problem as string, `"staffops_api_key"`)).to.equal(true);
			expect(mentions(problem as string, "Secrets")).to.equal(true);
		});

		it("never quotes a Secret name of the user's own: it may be a key pasted into the wrong setting", () => {
			const pasted = "sk_live_0123456789abcdef";
			const config = base();
			config.apiKey = undefined;
			config.apiKeySecret = pasted;
			const line = refused(config);
			expect(mentions(line, pasted)).to.equal(false);
			expect(mentions(line, "24 characters")).to.equal(true);
			expect(mentions(line, "Secrets")).to.equal(true);
		});

		it("never prints the key, even when the service refuses it", () => {
			const wrongKey = "staffops-wrong-key-9999";
			const server = StaffOps.start({ ...base(), apiKey: wrongKey } as unknown as StaffOpsConfig);
			expect(server).to.be.ok();
			waitUntil(() => linesWith(warnings(), "refused the API key").size() === 1, "the registration warning");
			const line = linesWith(warnings(), "refused the API key")[0];
			expect(mentions(line, "401")).to.equal(true);
			for (const text of allOutput()) {
				expect(mentions(text, wrongKey)).to.equal(false);
				expect(mentions(text, harness.serviceKey)).to.equal(false);
			}
		});

		it("uses the default kick message when a kickMessage function fails", () => {
			const server = StaffOps.start({
				...base(),
				kickMessage: () => error("bad template"),
			} as unknown as StaffOpsConfig);
			waitUntil(() => server!.isRegistered(), "registration");
			const banned = join(666);
			harness.players
				.client(banned)
				.fire(
					(game.GetService("ReplicatedStorage").FindFirstChild("StaffOpsRemotes") as Folder).FindFirstChild(
						"ClientReport",
					) as RemoteEvent,
					{ platform: "Desktop", tzOffset: "+00:00" },
				);
			waitUntil(() => harness.players.kickMessage(banned) !== undefined, "the kick");
			expect(harness.players.kickMessage(banned)).to.equal("You are banned from this experience: Exploiting");
			expect(linesWith(warnings(), "kickMessage failed").size()).to.equal(1);
		});
	});

	describe("Studio (empty JobId)", () => {
		it("registers with a studio- jobId of its own (the deployed service refuses an empty one) and says so", () => {
			harness.server.setStudio(true);
			harness.server.setInfo({ JobId: "" });
			const server = StaffOps.start(base() as unknown as StaffOpsConfig);
			waitUntil(() => server!.isRegistered(), "registration");
			expect(linesWith(allOutput(), "Studio playtest (empty JobId)").size()).to.equal(1);
			const log = serviceControl.requests().requests;
			const jobId = (log[0].body as { jobId: string }).jobId;
			expect(jobId.match("^studio%-%x+%-%x+%-%x+%-%x+%-%x+$")[0]).to.be.ok();
			// The same id for the whole playtest: a second registration (after the service forgot) reuses it.
			StaffOps.stop();
			const again = StaffOps.start(base() as unknown as StaffOpsConfig);
			waitUntil(() => again!.isRegistered(), "registration again");
			const second = serviceControl.requests().requests.filter((entry) => entry.operation === "createServer");
			expect((second[1].body as { jobId: string }).jobId).to.equal(jobId);
		});

		it("stays off with trackStudio = false, and says so", () => {
			harness.server.setStudio(true);
			harness.server.setInfo({ JobId: "" });
			const server = StaffOps.start({ ...base(), trackStudio: false } as unknown as StaffOpsConfig);
			expect(server).to.equal(undefined);
			expect(linesWith(allOutput(), "trackStudio is false").size()).to.equal(1);
			waitSeconds(0.05);
			expect(serviceControl.count("createServer") + serviceControl.count("playerJoin")).to.equal(0);
		});

		it("does not report Studio's local test players (negative UserIds)", () => {
			const server = StaffOps.start(base() as unknown as StaffOpsConfig);
			waitUntil(() => server!.isRegistered(), "registration");
			join(-1, "Player1");
			waitSeconds(0.05);
			expect(server!.diagnostics().joins.players).to.equal(0);
			expect(joinsOf(-1).size()).to.equal(0);
			expect(linesWith(allOutput(), "Studio test UserId (-1)").size()).to.equal(1);
		});
	});
};
