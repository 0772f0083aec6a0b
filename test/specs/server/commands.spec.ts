import { StaffOps } from "../../../src/server";
import type { ServerSeams } from "../../../src/server/seams";
import {
	JOIN_BATCH_SECONDS,
	REFRESH_SECONDS,
	USE_FRESH_SECONDS,
} from "../../../src/server/features/commands/permissions";
import type { StaffCommand } from "../../../src/server/features/commands/types";
import { harness } from "../../support/harness";
import { LoggedRequest, serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { cleanUp, freshStart, join, Started, startDeployed, startRegistered } from "./support";
import {
	cleanUpCommands,
	fireRemote,
	grant,
	lastOffer,
	notingClient,
	results,
	say,
	startGranted,
} from "./commandsSupport";

// Staff commands (issue 31, item 1) against the reference service's deployed profile: registration, permissions read
// in batches and at a bounded rate, every use checked on the server. Counts are of requests the service received.

const MOD = 1003; // seeded staff
const CASHIER = 1004; // seeded staff, granted nothing

function logged(operation: string): Array<LoggedRequest> {
	return serviceControl.requests().requests.filter((request) => request.operation === operation);
}

const count = (operation: string) => logged(operation).size();

function contains(list: ReadonlyArray<string>, text: string): boolean {
	return list.some((line) => line.find(text, 1, true)[0] !== undefined);
}

/** Starts, waits for the one registration, grants `grants` ([commandId, userId]) as a website admin would. */
function startWithGrants(
	grants: Array<[string, number]>,
	gameCommands?: Array<StaffCommand>,
	seams: Partial<ServerSeams> = {},
): Started {
	return startGranted(grants, gameCommands !== undefined ? { gameCommands } : {}, seams);
}

/** A staff member joins; their permissions are read with the join wave's. */
function staffJoins(started: Started, userId: number, name: string): Player {
	const player = join(userId, name);
	waitUntil(() => StaffOps.isStaff(player), `${name}'s join answer`);
	const answered = started.server.diagnostics().commands.permissions!.answered;
	started.clock.advance(JOIN_BATCH_SECONDS);
	waitUntil(
		() => started.server.diagnostics().commands.permissions!.answered > answered,
		`${name}'s permission read`,
	);
	return player;
}

function reads(started: Started): number {
	return started.server.diagnostics().commands.permissions!.reads;
}

/** A game command with no argument and no effect: a use of it is only its permission check. */
const PING: StaffCommand = { name: "ping", run: () => "pong" };

/** How many of `player`'s uses of PING ran. */
function pongs(player: Player): number {
	return results(player)
		.filter((text) => text === "pong")
		.size();
}

/** `player` uses PING after `seconds` more of fake time; returns its result. */
function pingAfter(started: Started, player: Player, seconds: number): string {
	const before = results(player).size();
	started.clock.advance(seconds);
	say(player, "/ping");
	waitUntil(() => results(player).size() > before, `the /ping's result ${seconds} s on`);
	return results(player)[before];
}

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUpCommands());
	afterAll(() => serviceControl.reset());

	describe("staff commands", () => {
		it("a staff member with permission kicks and bans: the player is kicked, one ban is recorded", () => {
			const started = startWithGrants([
				["readmin_kick", MOD],
				["readmin_ban", MOD],
			]);
			const mod = staffJoins(started, MOD, "ModMarco");
			waitUntil(() => lastOffer(mod) !== undefined, "the offer");
			expect(lastOffer(mod)!.join(",")).to.equal("kick,ban");
			const spammer = join(4101, "Spammer");
			const griefer = join(4102, "Griefer");

			say(mod, "/kick spam flooding the chat");
			waitUntil(() => harness.players.kickMessage(spammer) !== undefined, "the kick");
			expect(contains([harness.players.kickMessage(spammer)!], "flooding the chat")).to.equal(true);
			waitUntil(() => contains(results(mod), "Kicked"), "the kick's result");

			say(mod, "/ban 4102 3 griefing");
			waitUntil(() => harness.players.kickMessage(griefer) !== undefined, "the ban's kick");
			waitUntil(() => contains(results(mod), "Banned"), "the ban's result");
			const bans = logged("createBan");
			expect(bans.size()).to.equal(1);
			const body = bans[0].body as {
				userId: unknown;
				bannedByUserId: unknown;
				expiresInDays: unknown;
				reason: unknown;
			};
			expect(tostring(body.userId)).to.equal("4102");
			expect(tostring(body.bannedByUserId)).to.equal(tostring(MOD));
			expect(body.expiresInDays).to.equal(3);
			expect(body.reason).to.equal("griefing");
			// Both uses were decided on the join's read: no other request.
			expect(count("commandPermissions")).to.equal(1);
			expect(count("registerCommands")).to.equal(1);
		});

		it("is off with commands = false and with the interface profile: nothing registered, no permission read, no offer", () => {
			// README settings (C12): on with the deployed service, off otherwise; false turns it off.
			startDeployed({ commands: false });
			const staffOff = join(MOD, "ModOff");
			waitUntil(() => StaffOps.getSession(staffOff) !== undefined, "the join (deployed, commands off)");
			waitSeconds(2.5);
			expect(count("registerCommands")).to.equal(0);
			expect(count("commandPermissions")).to.equal(0);
			expect(lastOffer(staffOff)).to.equal(undefined);
			cleanUp();
			freshStart("default");
			const started = startRegistered({ clientReportTimeoutSeconds: 0 });
			const staffInterface = join(MOD, "ModInterface");
			waitUntil(() => StaffOps.getSession(staffInterface) !== undefined, "the join (interface profile)");
			started.clock.advance(10);
			waitSeconds(2.5);
			expect(count("registerCommands")).to.equal(0);
			expect(count("commandPermissions")).to.equal(0);
			expect(lastOffer(staffInterface)).to.equal(undefined);
		});

		it("refuses a staff member without permission: nothing is sent beyond the permission read", () => {
			const started = startWithGrants([["readmin_kick", MOD]]);
			const cashier = staffJoins(started, CASHIER, "CashierAmy");
			const mod = staffJoins(started, MOD, "ModMarco");
			const target = join(4111, "Target");
			waitUntil(() => StaffOps.getSession(target) !== undefined, "the target's join answer");
			waitSeconds(0.2);
			const before = serviceControl.requests().requests.size();

			say(cashier, "/kick Target");
			// A client firing the remote for a command it was not offered (an exploiter, or a stale offer).
			fireRemote(mod, "/ban Target");
			waitUntil(() => contains(results(mod), "You may not use /ban"), "the refusal");
			waitSeconds(0.3);
			expect(harness.players.kickMessage(target)).to.equal(undefined);
			expect(results(cashier).size()).to.equal(0);
			const after = serviceControl.requests().requests;
			const sent = new Array<string>();
			for (let i = before; i < after.size(); i++) sent.push(after[i].operation);
			expect(sent.filter((operation) => operation !== "sendData").size()).to.equal(0);
			expect(count("createBan")).to.equal(0);
		});

		it("a permission removed on the website works until its read is 150 s old and not after; a grant is offered within 300 s", () => {
			expect(USE_FRESH_SECONDS).to.equal(150);
			const started = startWithGrants([["ping", MOD]], [PING]);
			// The join's read is sent as the clock moves past the join wave's 2 s: fake time stands still after.
			const mod = staffJoins(started, MOD, "ModMarco");
			grant("ping", MOD, false);
			const readsBefore = count("commandPermissions");
			// Every use up to 149 s after the read is decided on it, without a request: the rate of re-reads.
			for (let i = 0; i < 14; i++) expect(pingAfter(started, mod, 10)).to.equal("pong");
			expect(pingAfter(started, mod, 9)).to.equal("pong");
			waitSeconds(0.2);
			expect(count("commandPermissions")).to.equal(readsBefore);
			// 150 s after the read, the use reads again first and is refused: the removal has stopped working.
			expect(pingAfter(started, mod, 1)).to.equal("You may not use /ping.");
			waitUntil(() => count("commandPermissions") === readsBefore + 1, "the use's read at the service");
			expect(lastOffer(mod)!.size()).to.equal(0);

			grant("ping", MOD);
			grant("readmin_warn", MOD);
			started.clock.advance(REFRESH_SECONDS);
			waitUntil(() => (lastOffer(mod) ?? []).size() === 2, "the grants offered");
			expect(lastOffer(mod)!.join(",")).to.equal("warn,ping");
		});

		it("refuses a use whose re-read fails though the last read allowed it, and allows it once reads answer again", () => {
			const started = startWithGrants([["ping", MOD]], [PING]);
			const mod = staffJoins(started, MOD, "ModMarco");
			expect(pingAfter(started, mod, 10)).to.equal("pong");
			serviceControl.fault({ operation: "commandPermissions", status: 503 });
			const readsBefore = count("commandPermissions");
			// The read it was decided on is now 150 s old: the use reads again, the read fails, the use is refused.
			const refused = pingAfter(started, mod, USE_FRESH_SECONDS);
			waitUntil(() => count("commandPermissions") === readsBefore + 1, "the failed re-read at the service");
			expect(refused).never.to.equal("pong");
			expect(pongs(mod)).to.equal(1);
			serviceControl.clearFaults();
			expect(pingAfter(started, mod, 10)).to.equal("pong");
			expect(count("commandPermissions")).to.equal(readsBefore + 2);
		});

		it("five permitted staff each running a command every 10 s for 10 minutes send at most 4 permission reads", () => {
			const ids = [1001, 1002, 1003, 1004, 1005];
			const started = startWithGrants(
				ids.map((userId): [string, number] => ["ping", userId]),
				[PING],
			);
			const staff = ids.map((userId) => join(userId, `Staff${userId}`));
			waitUntil(() => staff.every((player) => StaffOps.isStaff(player)), "the staff joins");
			started.clock.advance(JOIN_BATCH_SECONDS);
			waitUntil(() => staff.every((player) => lastOffer(player) !== undefined), "the join wave's offers");
			const joinReads = count("commandPermissions");
			expect(joinReads).to.equal(1);
			for (let step = 1; step <= 60; step++) {
				started.clock.advance(10);
				for (const player of staff) say(player, "/ping");
				waitUntil(() => staff.every((player) => pongs(player) === step), `the uses of step ${step}`);
			}
			// Every use was allowed; the service logs a read when it answers it, and each use waited for its answer.
			waitUntil(() => count("commandPermissions") === reads(started), "the reads at the service");
			expect(count("commandPermissions") - joinReads <= 4).to.equal(true);
		});

		it("registers the built-ins and the game's own once per server, even after an unknown outcome", () => {
			serviceControl.fault({ operation: "registerCommands", kind: "drop-after", times: 1 });
			const heal: StaffCommand = {
				name: "Heal",
				parameters: [{ name: "player", type: "player" }],
				run: (used) => `Healed ${(used.args[0] as Player).Name}.`,
			};
			const started = startWithGrants([["heal", MOD]], [heal]);
			started.clock.advance(REFRESH_SECONDS * 3);
			waitSeconds(0.3);
			expect(count("registerCommands")).to.equal(1);
			const body = logged("registerCommands")[0].body as { commands: Array<{ id: string }> };
			const ids = body.commands.map((command) => command.id).join(",");
			expect(ids).to.equal(
				"readmin_kick,readmin_find,readmin_ban,readmin_warn,readmin_suspend,readmin_terminate,readmin_promote," +
					"readmin_demote,readmin_verify,heal",
			);

			const mod = staffJoins(started, MOD, "ModMarco");
			join(4131, "Hurt");
			say(mod, "/heal hurt");
			waitUntil(() => contains(results(mod), "Healed Hurt."), "the game command's result");
		});

		it("reads a join wave's permissions in one request, and the others' with the next periodic read", () => {
			const asked = new Array<Array<number>>();
			const started = startWithGrants([["readmin_kick", MOD]], undefined, { client: notingClient(asked) });
			const staff = [1001, 1002, 1003, 1004, 1005].map((userId) => join(userId, `Staff${userId}`));
			for (let i = 0; i < 10; i++) join(4200 + i, `Player${i}`);
			waitUntil(() => staff.every((player) => StaffOps.isStaff(player)), "the staff joins");
			expect(count("commandPermissions")).to.equal(0);
			started.clock.advance(JOIN_BATCH_SECONDS);
			waitUntil(() => count("commandPermissions") === 1, "the join wave's read");
			waitSeconds(0.3);
			expect(asked[0].size()).to.equal(5);
			for (const userId of [1001, 1002, 1003, 1004, 1005]) expect(asked[0].includes(userId)).to.equal(true);
			started.clock.advance(REFRESH_SECONDS);
			waitUntil(() => count("commandPermissions") === 2, "the periodic read");
			// The periodic read: the staff, the one with a grant, and the ten never read.
			expect(asked[1].size()).to.equal(15);
		});

		it("sends no permission request while no player present may use a command (after each one's first read)", () => {
			const started = startWithGrants([]);
			started.clock.advance(REFRESH_SECONDS * 2);
			waitSeconds(0.2);
			expect(count("commandPermissions")).to.equal(0);
			for (let i = 0; i < 3; i++) join(4300 + i, `Player${i}`);
			started.clock.advance(REFRESH_SECONDS);
			// Answered and handled, not only logged by the service: a read still on its way when the clock jumps
			// 20 minutes would be its periodic reads' (each takes those never read), 5 in one CI run.
			waitUntil(() => started.server.diagnostics().commands.permissions!.answered === 1, "their first read");
			started.clock.advance(REFRESH_SECONDS * 4);
			waitSeconds(0.3);
			expect(count("commandPermissions")).to.equal(1);
		});

		it("refuses an ambiguous name, yourself and a reason over 200 characters, and kicks nobody", () => {
			const started = startWithGrants([["readmin_kick", MOD]]);
			const mod = staffJoins(started, MOD, "ModMarco");
			const first = join(4601, "Alex1");
			const second = join(4602, "Alex2");
			say(mod, "/kick alex");
			waitUntil(() => results(mod).size() === 1, "the first refusal");
			say(mod, "/kick modmarco");
			waitUntil(() => results(mod).size() === 2, "the second refusal");
			say(mod, `/kick Alex1 ${string.rep("x", 201)}`);
			waitUntil(() => results(mod).size() === 3, "the third refusal");
			const [ambiguous, yourself, long] = [results(mod)[0], results(mod)[1], results(mod)[2]];
			expect(contains([ambiguous], "more than one player")).to.equal(true);
			expect(contains([yourself], "yourself")).to.equal(true);
			expect(contains([long], "too long")).to.equal(true);
			expect(harness.players.kickMessage(first)).to.equal(undefined);
			expect(harness.players.kickMessage(second)).to.equal(undefined);
			expect(harness.players.kickMessage(mod)).to.equal(undefined);
		});

		it("records a warning once and links a verify code, answering a used code with a sentence", () => {
			const started = startWithGrants([
				["readmin_warn", MOD],
				["readmin_verify", MOD],
			]);
			const { code } = serviceControl.call("POST", "/_control/verify-codes", { linkedTo: "marco@cafe" }) as {
				code: string;
			};
			const mod = staffJoins(started, MOD, "ModMarco");
			const late = join(4701, "LateLarry");
			say(mod, "/warn Late came late twice");
			waitUntil(() => contains(results(mod), "Recorded a warning for"), "the warning's result");
			const entries = logged("recordHistory");
			expect(entries.size()).to.equal(1);
			const entry = entries[0].body as {
				userId: unknown;
				type: unknown;
				reason: unknown;
				actioningUser: unknown;
			};
			expect(tostring(entry.userId)).to.equal("4701");
			expect(entry.type).to.equal("writeup");
			expect(entry.reason).to.equal("came late twice");
			expect(tostring(entry.actioningUser)).to.equal(tostring(MOD));
			expect(harness.players.kickMessage(late)).to.equal(undefined);

			say(mod, `/verify ${code}`);
			waitUntil(() => contains(results(mod), "marco@cafe"), "the link's result");
			started.clock.advance(2);
			say(mod, `/verify ${code}`);
			waitUntil(() => contains(results(mod), "has been used already"), "the sentence for a used code");
			expect(count("verifyLink")).to.equal(2);
			expect(count("recordHistory")).to.equal(1);
		});

		it("gives a hostile client nothing, and the server runs on", () => {
			const started = startWithGrants([["readmin_kick", MOD]]);
			const mod = staffJoins(started, MOD, "ModMarco");
			const stranger = join(4401, "Stranger");
			const junk: Array<Array<unknown>> = [
				[],
				[42],
				[{ text: "/kick ModMarco" }],
				["/kick ModMarco"],
				[string.rep("x", 100_000)],
				["/ban ModMarco", "extra"],
				[0 / 0],
			];
			for (const args of junk) fireRemote(stranger, ...args);
			for (let i = 0; i < 200; i++) fireRemote(stranger, "/kick ModMarco");
			// The permitted staff member's client, hostile: unknown commands, huge text, then over the rate.
			fireRemote(mod, "/nuke everyone");
			fireRemote(mod, `/kick ${string.rep("a", 5000)}`);
			for (let i = 0; i < 50; i++) fireRemote(mod, "/kick Stranger " + i);
			waitSeconds(0.5);
			expect(results(stranger).size()).to.equal(0);
			expect(harness.players.kickMessage(mod)).to.equal(undefined);
			const uses = started.server.diagnostics().commands.uses!;
			expect(uses.ran + uses.refused <= 3).to.equal(true);
			expect(count("createBan")).to.equal(0);
			expect(started.server.isStopped()).to.equal(false);
			expect(started.server.isRegistered()).to.equal(true);
		});

		it("records a ban whose answer was lost once, and says it may be recorded", () => {
			const started = startWithGrants([["readmin_ban", MOD]]);
			serviceControl.fault({ operation: "createBan", kind: "drop-after", times: 1 });
			const mod = staffJoins(started, MOD, "ModMarco");
			const cheater = join(4501, "Cheater");
			say(mod, "/ban Cheater speed hacks");
			waitUntil(() => contains(results(mod), "may be recorded"), "the unknown outcome's result");
			expect(harness.players.kickMessage(cheater) !== undefined).to.equal(true);
			started.clock.advance(REFRESH_SECONDS * 2);
			waitSeconds(0.5);
			expect(count("createBan")).to.equal(1);
			const bans = (serviceControl.call("GET", "/_control/bans") as { bans: Array<{ userId: string }> }).bans;
			expect(bans.filter((ban) => ban.userId === "4501").size()).to.equal(1);
		});
	});
};
