import type { StaffOpsApiClient } from "../../../src/api/apiClient";
import type { CommandsApi } from "../../../src/api/resources/commands";
import { StaffOps } from "../../../src/server";
import {
	JOIN_BATCH_SECONDS,
	REFRESH_SECONDS,
	USE_FRESH_SECONDS,
} from "../../../src/server/features/commands/permissions";
import type { StaffCommand } from "../../../src/server/features/commands/types";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import {
	cleanUpCommands,
	fireRemote,
	grant,
	lastOffer,
	notingClient,
	results,
	say,
	staffOffered,
	startGranted,
} from "./commandsSupport";
import { freshStart, join, specClient, Started } from "./support";

// Staff command permissions and uses (issue 42, "staff command permissions") against the reference service's deployed
// profile, as README "Staff commands" promises them: reads shared by a join wave and by the staff using commands, the
// periodic re-read counted from the latest re-read, a newer read never overwritten by an older one, one use at a time
// per staff member, and arguments refused rather than guessed. Counts are of permission reads the service answered,
// of the requests a command would send, and of what the staff member was shown.

const MOD = 1003; // seeded staff
const LEAD = 1001; // seeded staff

const reads = () => serviceControl.count("commandPermissions");
const has = (text: string | undefined, part: string) => text !== undefined && text.find(part, 1, true)[0] !== undefined;

/** The staff member types `line` (3 s of fake time after the last, within the rate) and gets its one answer. */
function answerTo(started: Started, player: Player, line: string): string {
	const before = results(player).size();
	started.clock.advance(3);
	say(player, line);
	waitUntil(() => results(player).size() > before, `the answer to ${line}`);
	return results(player)[before];
}

const PING: StaffCommand = { name: "ping", run: () => "pong" };

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUpCommands());
	afterAll(() => serviceControl.reset());

	describe("command permissions: reads", () => {
		it("an older read answering after a newer one is dropped: a removed permission does not come back", () => {
			// The join's read is held after the service answered it (ping allowed then); the permission is removed,
			// and the periodic re-read, sent later, answers first. Then the older answer arrives.
			const gate = { hold: true, held: 0 };
			const client = specClient();
			const commands = client.commands;
			let first = true;
			(client as unknown as { commands: CommandsApi }).commands = {
				...commands,
				permissions(runningGameId, userIds, options) {
					const read = commands.permissions(runningGameId, userIds, options);
					if (!first) return read;
					first = false;
					return new Promise((resolve, reject) => {
						read.then((answer) => {
							gate.held += 1;
							task.spawn(() => {
								waitUntil(() => !gate.hold, "the held read's release", 60);
								resolve(answer);
							});
						}, reject);
					});
				},
			};
			const started = startGranted(
				[
					["ping", MOD],
					["readmin_warn", MOD],
				],
				{ gameCommands: [PING] },
				{ client: client as StaffOpsApiClient },
			);
			const mod = join(MOD, "ModMarco");
			waitUntil(() => StaffOps.isStaff(mod), "the join answer");
			started.clock.advance(JOIN_BATCH_SECONDS);
			waitUntil(() => gate.held === 1, "the join's read answered at the service, held");
			grant("ping", MOD, false);
			started.clock.advance(REFRESH_SECONDS);
			const permissions = () => started.server.diagnostics().commands.permissions!;
			waitUntil(() => permissions().answered === 1, "the periodic read's answer");
			expect(lastOffer(mod)!.join(",")).to.equal("warn");
			gate.hold = false;
			waitUntil(() => permissions().answered === 2, "the older read's answer");
			waitSeconds(0.2);
			expect(reads()).to.equal(2);
			expect(lastOffer(mod)!.join(",")).to.equal("warn");
			// A client with an older offer that still fires /ping is refused: the newer read decides.
			fireRemote(mod, "/ping");
			waitUntil(() => results(mod).size() === 1, "the refusal");
			expect(results(mod)[0]).to.equal("You may not use /ping.");
		});

		it("staff joining one after another within 2 s share one read", () => {
			const asked = new Array<Array<number>>();
			const client = notingClient(asked);
			const started = startGranted(
				[
					["readmin_kick", MOD],
					["readmin_kick", LEAD],
				],
				{},
				{ client },
			);
			const lead = join(LEAD, "LeadLena");
			waitUntil(() => StaffOps.isStaff(lead), "the first staff join");
			started.clock.advance(1);
			const mod = join(MOD, "ModMarco");
			waitUntil(() => StaffOps.isStaff(mod), "the second staff join");
			started.clock.advance(JOIN_BATCH_SECONDS - 1);
			waitUntil(() => lastOffer(mod) !== undefined && lastOffer(lead) !== undefined, "both offers");
			started.clock.advance(JOIN_BATCH_SECONDS);
			waitSeconds(0.3);
			expect(reads()).to.equal(1);
			expect(asked.size()).to.equal(1);
			expect(asked[0].includes(LEAD) && asked[0].includes(MOD)).to.equal(true);
			expect(lastOffer(mod)!.join(",")).to.equal("kick");
		});

		it("the periodic re-read waits 300 s from a use's re-read instead of going out right after it", () => {
			expect(REFRESH_SECONDS).to.equal(300);
			const started = startGranted([["ping", MOD]], { gameCommands: [PING] });
			const mod = staffOffered(started, MOD, "ModMarco");
			expect(reads()).to.equal(1);
			// The join's read is 150 s old: the use reads everyone again first (the periodic one was due 148 s on).
			started.clock.advance(USE_FRESH_SECONDS - 3);
			expect(answerTo(started, mod, "/ping")).to.equal("pong");
			waitUntil(() => reads() === 2, "the use's re-read at the service");
			for (let passed = 0; passed < REFRESH_SECONDS - 10; passed += 10) {
				started.clock.advance(10);
				task.wait();
			}
			started.clock.advance(9);
			waitSeconds(0.3);
			expect(reads()).to.equal(2);
			started.clock.advance(1);
			waitUntil(() => reads() === 3, "the periodic re-read 300 s after the use's");
			waitSeconds(0.2);
			expect(reads()).to.equal(3);
		});
	});

	describe("command permissions: uses", () => {
		it("a staff member runs one command at a time: a second use while the first runs is refused, not run", () => {
			let runs = 0;
			let open = false;
			const slow: StaffCommand = {
				name: "slow",
				run: () => {
					runs += 1;
					waitUntil(() => open, "the slow command's release", 30);
					return "done";
				},
			};
			const started = startGranted(
				[
					["slow", MOD],
					["readmin_kick", MOD],
				],
				{ gameCommands: [slow] },
			);
			const mod = staffOffered(started, MOD, "ModMarco");
			const target = join(4971, "Spammer");
			say(mod, "/slow");
			waitUntil(() => runs === 1, "the first use running");
			expect(answerTo(started, mod, "/slow")).to.equal("Your last command is still running.");
			expect(answerTo(started, mod, "/kick Spammer spam")).to.equal("Your last command is still running.");
			expect(runs).to.equal(1);
			expect(harness.players.kickMessage(target)).to.equal(undefined);
			open = true;
			waitUntil(() => results(mod).size() === 3, "the first use's result");
			expect(results(mod)[2]).to.equal("done");
			expect(answerTo(started, mod, "/kick Spammer spam")).to.equal("Kicked Spammer (@Spammer).");
		});

		it("a game command's required number given a word is refused with the usage, not skipped", () => {
			const given = new Array<defined>();
			const give: StaffCommand = {
				name: "give",
				parameters: [
					{ name: "player", type: "player" },
					{ name: "amount", type: "number" },
				],
				run: (use) => {
					given.push(use.args[1] as defined);
					return "given";
				},
			};
			const started = startGranted([["give", MOD]], { gameCommands: [give] });
			const mod = staffOffered(started, MOD, "ModMarco");
			join(4972, "Newbie");
			expect(answerTo(started, mod, "/give Newbie lots")).to.equal("Usage: /give <player> <amount>");
			expect(given.size()).to.equal(0);
			expect(answerTo(started, mod, "/give Newbie 25")).to.equal("given");
			expect(given.size()).to.equal(1);
			expect(given[0]).to.equal(25);
		});

		it("a ban or a suspension for 0 days is refused and not sent; the player is not kicked", () => {
			const started = startGranted([
				["readmin_ban", MOD],
				["readmin_suspend", MOD],
			]);
			const mod = staffOffered(started, MOD, "ModMarco");
			const griefer = join(4973, "Griefer");
			const lines = [
				"/ban Griefer 0 griefing",
				"/ban Griefer 0d griefing",
				"/suspend Griefer 0 late",
				"/suspend Griefer 0w late",
			];
			for (const line of lines) {
				const answer = answerTo(started, mod, line);
				expect(has(answer, "would end at once, so nothing was done")).to.equal(true);
			}
			waitSeconds(0.3);
			expect(serviceControl.count("createBan")).to.equal(0);
			expect(serviceControl.count("recordHistory")).to.equal(0);
			expect(harness.players.kickMessage(griefer)).to.equal(undefined);
			expect(results(mod).size()).to.equal(lines.size());
		});
	});
};
