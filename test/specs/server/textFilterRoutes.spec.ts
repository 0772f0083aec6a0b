import { FILTER_DEADLINE_SECONDS } from "../../../src/roblox/textFilter";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { cleanUpCommands, results, say, staffReady } from "./commandsSupport";
import { freshStart, join, Started, startDeployed } from "./support";

// Issue 42, item 2: every text from outside the game reaches a player only through the one filter with a deadline
// (`filterWithin`), and a text the filter refuses or does not pass in time is never shown. Per route, the filter
// fails (TextService throws) or stays silent past its deadline, and the spec reads what the player saw: the kick text
// of a banned or kicked player, the staff member's command results. The support-call routes are in
// test/specs/bridge/deskFilter.spec.ts.

const BANNED = 666; // banned in the seed, reason "Exploiting"
const RANKING_KEY = "ranking-key-spec-0042";

const has = (text: string | undefined, part: string) => text !== undefined && text.find(part, 1, true)[0] !== undefined;

/** The filter fails for every call from now on (TextService throws), or stays silent (`hang`). */
function breakFilter(how: "fails" | "hangs"): void {
	if (how === "fails") harness.text.failNextFilters(1000);
	else harness.text.hangFilters(true);
}

/**
 * The staff member types `line` with the filter broken `how`; a silent filter's deadline runs on the commands' clock
 * (the spec's), moved past it. Returns the one result.
 */
function typedWithFilter(started: Started, mod: Player, line: string, how: "fails" | "hangs"): string {
	const before = results(mod).size();
	started.clock.advance(3);
	breakFilter(how);
	const calls = harness.text.filterCalls();
	say(mod, line);
	if (how === "hangs") {
		waitUntil(() => harness.text.filterCalls() > calls, "the filter call that hangs");
		started.clock.advance(FILTER_DEADLINE_SECONDS);
	}
	waitUntil(() => results(mod).size() > before, `the answer to ${line}`);
	return results(mod)[before];
}

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUpCommands());
	afterAll(() => serviceControl.reset());

	for (const how of ["fails", "hangs"] as const) {
		describe(`text from outside the game when the filter ${how}`, () => {
			it("a ban reason from the service: the banned player is kicked without it", () => {
				startDeployed();
				breakFilter(how);
				const from = os.clock();
				const banned = join(BANNED, "Exploiter");
				waitUntil(
					() => harness.players.kickMessage(banned) !== undefined,
					"the banned player's kick",
					FILTER_DEADLINE_SECONDS + 10,
				);
				expect(harness.players.kickMessage(banned)).to.equal("You are banned from this experience: ");
				expect(os.clock() - from <= FILTER_DEADLINE_SECONDS + 3).to.equal(true);
				expect(harness.text.filterCalls() >= 1).to.equal(true);
			});

			it("/kick and /ban: the kicked player sees no reason, and the ban is recorded once", () => {
				const [started, mod] = staffReady(["readmin_kick", "readmin_ban"]);
				const spammer = join(4901, "Spammer");
				const griefer = join(4902, "Griefer");
				const kicked = typedWithFilter(started, mod, "/kick Spammer flooding the chat", how);
				expect(kicked).to.equal("Kicked Spammer (@Spammer).");
				expect(harness.players.kickMessage(spammer)).to.equal("You were kicked by a staff member.");
				harness.text.hangFilters(false);
				const banned = typedWithFilter(started, mod, "/ban Griefer griefing the spawn", how);
				expect(banned).to.equal("Banned Griefer (@Griefer) with no end.");
				expect(harness.players.kickMessage(griefer)).to.equal("You are banned from this game.");
				expect(serviceControl.count("createBan")).to.equal(1);
			});

			it("/verify: the linked account's name is left out of the answer", () => {
				const [started, mod] = staffReady(["readmin_verify"]);
				const { code } = serviceControl.call("POST", "/_control/verify-codes", { linkedTo: "marco@cafe" }) as {
					code: string;
				};
				const answer = typedWithFilter(started, mod, `/verify ${code}`, how);
				expect(answer).to.equal("Your account is linked.");
				expect(serviceControl.count("verifyLink")).to.equal(1);
			});

			it("/rank: the website's words in a refusal are left out", () => {
				serviceControl.call("POST", "/_control/ranking-keys", { key: RANKING_KEY });
				const [started, mod] = staffReady(["readmin_rank"], { rankingKey: RANKING_KEY });
				join(4903, "Newcomer");
				// The website refuses with words of its own (the fault's "Injected failure").
				serviceControl.fault({ operation: "setRank", kind: "success-false", status: 400, times: 1 });
				const answer = typedWithFilter(started, mod, "/rank Newcomer 10", how);
				expect(answer).to.equal("Could not rank Newcomer (@Newcomer).");
				expect(has(answer, "Injected")).to.equal(false);
				waitSeconds(0.2);
				expect(serviceControl.count("setRank")).to.equal(1);
			});
		});
	}

	describe("the game's own text filter", () => {
		it("is the one a ban reason goes through: a game filter that fails keeps the reason from the banned player", () => {
			let asked = 0;
			startDeployed(
				{},
				{
					textFilter: () => {
						asked += 1;
						error("the game's filter is down");
					},
				},
			);
			const banned = join(BANNED, "Exploiter");
			waitUntil(() => harness.players.kickMessage(banned) !== undefined, "the banned player's kick");
			expect(harness.players.kickMessage(banned)).to.equal("You are banned from this experience: ");
			expect(asked).to.equal(1);
		});
	});
};
