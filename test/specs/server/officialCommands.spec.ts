import { StaffOps } from "../../../src/server";
import type { StaffOpsConfig } from "../../../src/server/config";
import { JOIN_BATCH_SECONDS } from "../../../src/server/features/commands/permissions";
import type { StaffCommand } from "../../../src/server/features/commands/types";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { cleanUpCommands, lastOffer, results, say } from "./commandsSupport";
import { allOutput, cleanUp, DEFAULT_INFO, freshStart, join, linesWith, Started, startDeployed } from "./support";

// A game moving over from the official module (issue 38, items 1 and 2) against the reference service's deployed
// profile, which keeps commands by id as the deployed service does: the built-ins register under the official
// module's ids, so the grants a workspace made for it work at once; each parameter is an object the website shows;
// StaffOps says once that it took the official commands over, and what of the official module is off here.

const MOD = 1003; // seeded staff
const OFFICIAL_IDS = [
	"readmin_kick",
	"readmin_ban",
	"readmin_suspend",
	"readmin_terminate",
	"readmin_warn",
	"readmin_rank",
	"readmin_promote",
	"readmin_find",
	"readmin_demote",
	"readmin_verify",
];

/** A command as `/_control/commands` shows it: `shown` is the website page's view of each parameter (null: blank). */
interface StoredCommand {
	id: string;
	detected: boolean;
	allowed: Array<string>;
	/** A null (blank entry) reads as a hole. */
	shown: Array<{ id: string; paramaterType: string }>;
	paramaters: Array<unknown>;
}

const stored = () => (serviceControl.call("GET", "/_control/commands") as { commands: Array<StoredCommand> }).commands;
const byId = (id: string) => stored().find((command) => command.id === id);

/** As a server of the official module would have: its ten commands registered for this game and place, and granted. */
function officialModuleRan(grants: Record<string, Array<string>>): void {
	serviceControl.call("POST", "/_control/commands/official", {
		gameId: DEFAULT_INFO.GameId,
		placeId: DEFAULT_INFO.PlaceId,
		grants,
	});
}

/** Starts, waits for the one registration; the staff member joins and is offered what their grants allow. */
function startAndJoin(config: Partial<StaffOpsConfig> = {}): [Started, Player] {
	const started = startDeployed(config);
	waitUntil(() => serviceControl.count("registerCommands") === 1, "the commands' registration");
	const mod = join(MOD, "ModMarco");
	waitUntil(() => StaffOps.isStaff(mod), "the staff member's join answer");
	started.clock.advance(JOIN_BATCH_SECONDS);
	// Answered and handled (an offer is sent only when something is granted).
	waitUntil(() => started.server.diagnostics().commands.permissions!.answered >= 1, "the join's permission read");
	return [started, mod];
}

const has = (text: string, part: string) => text.find(part, 1, true)[0] !== undefined;

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUpCommands());
	afterAll(() => serviceControl.reset());

	describe("moving over from the official module", () => {
		it("the grants made for the official module's commands work at once: no grant made again, none hidden", () => {
			officialModuleRan({ [tostring(MOD)]: ["readmin_kick", "readmin_ban", "readmin_find", "readmin_warn"] });
			const [, mod] = startAndJoin();
			// Offered by the name typed, from the grants of the official ids (in the order of the built-ins).
			waitUntil(() => lastOffer(mod) !== undefined, "the offer");
			expect(lastOffer(mod)!.join(",")).to.equal("kick,find,ban,warn");
			const target = join(4901, "Spammer");
			waitUntil(() => StaffOps.getSession(target) !== undefined, "the target's join answer");
			say(mod, "/kick spam flooding");
			waitUntil(() => harness.players.kickMessage(target) !== undefined, "the kick");
			// At the service: one registration, under the official ids only; nine seen (no /rank without its key),
			// none hidden but rank, every grant kept, nothing else registered.
			expect(serviceControl.count("registerCommands")).to.equal(1);
			const commands = stored();
			expect(commands.size()).to.equal(10);
			for (const id of OFFICIAL_IDS) expect(byId(id) !== undefined).to.equal(true);
			expect(commands.filter((command) => command.detected).size()).to.equal(9);
			expect(byId("readmin_rank")!.detected).to.equal(false);
			expect(byId("readmin_kick")!.allowed.join(",")).to.equal(tostring(MOD));
			expect(byId("readmin_warn")!.allowed.join(",")).to.equal(tostring(MOD));
		});

		it("registers every parameter as an object the website shows with its type, never a blank entry", () => {
			startAndJoin();
			let parameters = 0;
			for (const command of stored()) {
				expect(command.shown.size()).to.equal(command.paramaters.size());
				for (let i = 0; i < command.paramaters.size(); i++) {
					parameters += 1;
					expect((command.shown[i] as unknown) !== undefined).to.equal(true);
				}
			}
			expect(parameters).to.equal(18);
			const ban = byId("readmin_ban")!;
			expect(ban.shown.map((shown) => `${shown.id}:${shown.paramaterType}`).join(",")).to.equal(
				"player:player,days:number,reason:long_text",
			);
			expect(byId("readmin_verify")!.shown[0].paramaterType).to.equal("text");
		});

		it("a game's own command keeps its lowercase name as id, and a name starting readmin_ is left out", () => {
			const ping: StaffCommand = { name: "Ping", run: () => "pong" };
			const impostor: StaffCommand = { name: "readmin_Kick", run: () => "not the official kick" };
			startAndJoin({ gameCommands: [ping, impostor] });
			const ids = stored().map((command) => command.id);
			expect(ids.includes("ping")).to.equal(true);
			expect(ids.filter((id) => id.lower() === "readmin_kick").size()).to.equal(1);
			expect(byId("readmin_kick")!.shown.size()).to.equal(2);
			expect(linesWith(allOutput(), "readmin_Kick is left out").size()).to.equal(1);
		});

		it("a game command named like a Roblox default chat command (/mute, /w, /t, /help) is left out, one warning each", () => {
			const named = (name: string): StaffCommand => ({ name, run: () => name });
			startAndJoin({ gameCommands: [named("Mute"), named("w"), named("t"), named("help"), named("Ping")] });
			const ids = stored().map((command) => command.id);
			expect(ids.includes("ping")).to.equal(true);
			for (const alias of ["mute", "w", "t", "help"]) {
				expect(ids.includes(alias)).to.equal(false);
				const said = linesWith(allOutput(), `/${alias} is an alias of one of Roblox's default chat commands`);
				expect(said.size()).to.equal(1);
			}
			expect(linesWith(allOutput(), "Roblox's default chat commands").size()).to.equal(4);
		});

		it("says once that it took the official commands over, naming the chat log that is off here", () => {
			officialModuleRan({ [tostring(MOD)]: ["readmin_kick"] });
			const [started] = startAndJoin();
			started.clock.advance(600);
			waitSeconds(0.3);
			expect(serviceControl.count("commandPermissions") >= 2).to.equal(true);
			const said = linesWith(allOutput(), "took over the official module's staff commands");
			expect(said.size()).to.equal(1);
			expect(has(said[0], "ChatLogging is off")).to.equal(true);
			expect(has(said[0], "ActivityForEveryone is off")).to.equal(true);
			expect(started.server.diagnostics().commands.tookOver).to.equal(true);
		});

		it("says nothing of a take-over where no official grant exists, nor names the chat log when it is on", () => {
			const [started] = startAndJoin();
			waitSeconds(0.2);
			expect(linesWith(allOutput(), "took over").size()).to.equal(0);
			expect(started.server.diagnostics().commands.tookOver).to.equal(false);
			cleanUp();
			freshStart("deployed");
			officialModuleRan({ [tostring(MOD)]: ["readmin_find"] });
			startAndJoin({ activity: { chatMessages: true } });
			const said = linesWith(allOutput(), "took over the official module's staff commands");
			expect(said.size()).to.equal(1);
			expect(has(said[0], "ChatLogging")).to.equal(false);
		});
	});

	describe("/verify", () => {
		it("answers each refusal with a sentence, never the service's code", () => {
			officialModuleRan({ [tostring(MOD)]: ["readmin_verify"] });
			const [started, mod] = startAndJoin();
			const make = (body: object) =>
				(
					serviceControl.call("POST", "/_control/verify-codes", { linkedTo: "marco@cafe", ...body }) as {
						code: string;
					}
				).code;
			const used = make({});
			const old = make({ expiresInSeconds: -1 });
			const verify = (code: string, answers: number) => {
				started.clock.advance(3);
				say(mod, `/verify ${code}`);
				waitUntil(() => results(mod).size() === answers, `the answer to /verify ${code}`);
				return results(mod)[answers - 1];
			};
			expect(has(verify(used, 1), "marco@cafe")).to.equal(true);
			const texts = [verify(used, 2), verify("NOSUCHCODE", 3), verify(old, 4)];
			serviceControl.fault({ operation: "verifyLink", kind: "success-false", times: 1 });
			texts.push(verify("ANOTHER1", 5));
			expect(texts[0]).to.equal("That code has been used already. Get a new code on the website.");
			expect(texts[1]).to.equal(
				"That code does not exist. Check it on the website and type it exactly as it is shown there.",
			);
			expect(texts[2]).to.equal("That code has expired. Get a new code on the website.");
			expect(texts[3]).to.equal(
				"The website did not accept that code. Get a new code on the website and try again.",
			);
			for (const text of texts) {
				// (`expired` is also a word of its sentence: the sentences are compared whole above.)
				for (const code of ["not_found", "already_used", "Injected failure"]) {
					expect(has(text, code)).to.equal(false);
				}
			}
			expect(serviceControl.count("verifyLink")).to.equal(5);
		});
	});
};
