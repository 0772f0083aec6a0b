import { KICK_MESSAGE_SECONDS } from "../../../src/server/features/joins/announce";
import { GAME_COMMAND_SECONDS } from "../../../src/server/features/commands/runner";
import type { StaffCommand } from "../../../src/server/features/commands/types";
import { harness } from "../../support/harness";
import { LoggedRequest, serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { cleanUpCommands, results, say, staffReady } from "./commandsSupport";
import { freshStart, join, linesWith, Started, startDeployed, warnings } from "./support";

// Staff input as staff type it (issue 41, items 1 to 3) against the reference service's deployed profile: lengths
// written `3d`, `1w`, `24h` or as a number of days reach the service as the end asked for, or are refused with the
// accepted forms; text is measured in characters; game code that never returns costs its own result only.

const BANNED = 666; // banned in the seed

const logged = (operation: string): Array<LoggedRequest> =>
	serviceControl.requests().requests.filter((request) => request.operation === operation);
const count = (operation: string) => logged(operation).size();
const has = (text: string, part: string) => text.find(part, 1, true)[0] !== undefined;

/** The staff member types `line` (3 s of fake time after the last, within the rate); returns its one answer. */
function typed(started: Started, mod: Player, line: string): string {
	const before = results(mod).size();
	started.clock.advance(3);
	say(mod, line);
	waitUntil(() => results(mod).size() > before, `the answer to ${line.sub(1, 40)}`);
	return results(mod)[before];
}

/** `n` Cyrillic letters (2 bytes each in UTF-8). */
const cyrillic = (n: number) => string.rep("ж", n);

interface BanBody {
	readonly userId: unknown;
	readonly reason: unknown;
	readonly expiresInDays?: unknown;
}

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUpCommands());
	afterAll(() => serviceControl.reset());

	describe("lengths as staff write them", () => {
		it("/ban and /suspend take 3d, 1w, 24h and a number of days: the service gets that end, the answer says it", () => {
			const [started, mod] = staffReady(["readmin_ban", "readmin_suspend"]);
			const lengths: Array<[string, number]> = [
				["3d", 3],
				["1w", 7],
				["24h", 1],
				["2", 2],
				["2Weeks", 14],
			];
			for (let i = 0; i < lengths.size(); i++) {
				const [length, days] = lengths[i];
				const target = join(4400 + i, `Griefer${i}`);
				const answer = typed(started, mod, `/ban Griefer${i} ${length} griefing the spawn`);
				const span = `for ${days} day${days === 1 ? "" : "s"}, until 20`;
				expect(answer.find(`Banned Griefer${i} (@Griefer${i}) ${span}`, 1, true)[0]).to.equal(1);
				expect(has(answer, " UTC.")).to.equal(true);
				expect(harness.players.kickMessage(target) !== undefined).to.equal(true);
			}
			waitUntil(() => count("createBan") === lengths.size(), "the bans in the service's log");
			const bans = logged("createBan").map((request) => request.body as BanBody);
			for (let i = 0; i < lengths.size(); i++) {
				expect(bans[i].expiresInDays).to.equal(lengths[i][1]);
				expect(bans[i].reason).to.equal("griefing the spawn");
			}
			join(4410, "LateTrainee");
			const suspended = typed(started, mod, "/suspend LateTrainee 3d missed three shifts");
			expect(has(suspended, "Recorded a suspension for LateTrainee (@LateTrainee) for 3 days, until")).to.equal(
				true,
			);
			waitUntil(() => count("recordHistory") === 1, "the suspension in the service's log");
			const entry = logged("recordHistory")[0].body as { reason: unknown; expiresInDays?: unknown };
			expect(entry.expiresInDays).to.equal(3);
			expect(entry.reason).to.equal("missed three shifts");
			// Left out, the ban has no end, and the answer says so.
			join(4411, "Spammer");
			expect(typed(started, mod, "/ban Spammer spam")).to.equal("Banned Spammer (@Spammer) with no end.");
			waitUntil(() => count("createBan") === lengths.size() + 1, "the ban with no end");
			const open = logged("createBan")[lengths.size()].body as BanBody;
			expect(open.expiresInDays).to.equal(undefined);
			expect(open.reason).to.equal("spam");
		});

		it("refuses a length it cannot keep exactly (30m, 0, 1.5, 36h, 2nd, -1, 100000d) naming the forms: nothing sent", () => {
			const [started, mod] = staffReady(["readmin_ban", "readmin_suspend"]);
			const target = join(4420, "Griefer");
			const refused = ["30m", "0", "0d", "1.5", "36h", "2nd", "-1", "100000d", "3x"];
			for (const length of refused) {
				const answer = typed(started, mod, `/ban Griefer ${length} griefing`);
				expect(has(answer, "Give the length as 3d, 2w, 48h or a number of days")).to.equal(true);
			}
			const suspension = typed(started, mod, "/suspend Griefer 30m late");
			expect(has(suspension, "Give the length as 3d, 2w, 48h")).to.equal(true);
			waitSeconds(0.3);
			expect(count("createBan")).to.equal(0);
			expect(count("recordHistory")).to.equal(0);
			expect(harness.players.kickMessage(target)).to.equal(undefined);
			expect(results(mod).size()).to.equal(refused.size() + 1);
		});
	});

	describe("text measured in characters", () => {
		it("keeps a 120-character Cyrillic reason, refuses 201 characters, and answers every long line", () => {
			const [started, mod] = staffReady(["readmin_warn"]);
			join(4430, "Trainee");
			// 120 characters, 240 bytes: within the 200 characters a reason may have.
			expect(typed(started, mod, `/warn Trainee ${cyrillic(120)}`)).to.equal(
				"Recorded a warning for Trainee (@Trainee).",
			);
			waitUntil(() => count("recordHistory") === 1, "the warning in the service's log");
			expect((logged("recordHistory")[0].body as { reason: unknown }).reason).to.equal(cyrillic(120));
			expect(typed(started, mod, `/warn Trainee ${cyrillic(201)}`)).to.equal(
				"The reason is too long (at most 200 characters).",
			);
			// A 183-character line (366 bytes), as Roblox's chat lets a staff member type it, runs.
			const line = `/warn Trainee ${cyrillic(183 - 14)}`;
			expect(utf8.len(line)[0]).to.equal(183);
			expect(typed(started, mod, line)).to.equal("Recorded a warning for Trainee (@Trainee).");
			// A line over 300 characters is answered, not dropped.
			expect(typed(started, mod, `/warn Trainee ${cyrillic(300)}`)).to.equal(
				"That command line is too long (at most 300 characters).",
			);
			waitSeconds(0.3);
			expect(count("recordHistory")).to.equal(2);
			expect(results(mod).size()).to.equal(4);
		});
	});

	describe("game code with a deadline", () => {
		it("a game command that never returns costs its own result: after 30 s the staff member's /kick works", () => {
			const stuck: StaffCommand = {
				name: "stuck",
				run: () => {
					coroutine.yield();
					return "never";
				},
			};
			expect(GAME_COMMAND_SECONDS).to.equal(30);
			const [started, mod] = staffReady(["stuck", "readmin_kick"], { gameCommands: [stuck] });
			const target = join(4440, "Spammer");
			say(mod, "/stuck");
			waitSeconds(0.2);
			// One use at a time still holds while it runs.
			expect(typed(started, mod, "/kick Spammer spam")).to.equal("Your last command is still running.");
			started.clock.advance(GAME_COMMAND_SECONDS);
			waitUntil(() => results(mod).size() === 2, "the stuck command's answer");
			expect(results(mod)[1]).to.equal("/stuck did not finish within 30 s; its result will not be shown.");
			expect(typed(started, mod, "/kick Spammer spam")).to.equal("Kicked Spammer (@Spammer).");
			expect(harness.players.kickMessage(target) !== undefined).to.equal(true);
			expect(started.server.diagnostics().commands.uses!.late).to.equal(1);
			expect(linesWith(warnings(), "/stuck of").size()).to.equal(1);
		});

		it("a kickMessage that never returns: the banned player is kicked with the default message after 5 s", () => {
			expect(KICK_MESSAGE_SECONDS).to.equal(5);
			startDeployed({
				kickMessage: () => {
					coroutine.yield();
					return "never";
				},
			});
			const banned = join(BANNED, "Exploiter");
			waitUntil(() => count("playerJoin") === 1, "the banned player's join at the service");
			waitUntil(() => harness.players.kickMessage(banned) !== undefined, "the kick", KICK_MESSAGE_SECONDS + 10);
			expect(has(harness.players.kickMessage(banned)!, "You are banned from this experience")).to.equal(true);
			expect(linesWith(warnings(), "kickMessage did not return within 5 s").size()).to.equal(1);
		});
	});
};
