import { StaffOps } from "../../../src/server";
import type { StaffOpsConfig } from "../../../src/server/config";
import { JOIN_BATCH_SECONDS } from "../../../src/server/commands/permissions";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { lastOffer, results, use } from "./commandsSupport";
import { allOutput, cleanUp, freshStart, join, Started, startDeployed } from "./support";

// `/rank` (issue 31, item 1: "rank only where the game gives the separate ranking key") against the reference
// service's deployed profile: built in only with the ranking key, which goes to the ranking route alone, in its
// `api-key` header. Counts are of requests the service received.

const MOD = 1003; // seeded staff
const RANKING_KEY = "ranking-key-spec-0001";
const RANKING_SECRET = "staffops_ranking_key";

/** One ranking request as the reference service recorded it (`GET /_control/rankings`), never a key's value. */
interface RankCall {
	userId: string;
	rank: string;
	accepted: boolean;
	apiKey: "ranking" | "loader-id" | "unknown" | "missing";
	loaderIdSent: boolean;
}

const rankCalls = () => (serviceControl.call("GET", "/_control/rankings") as { calls: Array<RankCall> }).calls;
const count = (operation: "registerCommands" | "commandPermissions" | "setRank") => serviceControl.count(operation);

function grant(commandId: string, userId: number): void {
	serviceControl.call("POST", "/_control/commands/permissions", { commandId, userId: tostring(userId), on: true });
}

const has = (text: string, part: string) => text.find(part, 1, true)[0] !== undefined;
const contains = (list: ReadonlyArray<string>, part: string) => list.some((line) => has(line, part));

/** The registered command ids, from the one registration the service received. */
function registeredIds(): string {
	const registration = serviceControl.requests().requests.find((request) => request.operation === "registerCommands");
	const body = registration?.body as { commands: Array<{ id: string; paramaters: Array<string> }> } | undefined;
	return (body?.commands ?? []).map((command) => `${command.id}(${command.paramaters.join(",")})`).join(" ");
}

/** Starts with `config`, waits for the one registration, grants `grants` ([commandId, userId]) as an admin would. */
function startWithGrants(config: Partial<StaffOpsConfig>, grants: Array<[string, number]>): Started {
	const started = startDeployed(config);
	waitUntil(() => count("registerCommands") === 1, "the commands' registration");
	for (const [commandId, userId] of grants) grant(commandId, userId);
	return started;
}

/** The staff member joins; their permissions are read with the join wave's. */
function staffJoins(started: Started, userId: number, name: string): Player {
	const player = join(userId, name);
	waitUntil(() => StaffOps.isStaff(player), `${name}'s join answer`);
	started.clock.advance(JOIN_BATCH_SECONDS);
	waitUntil(() => lastOffer(player) !== undefined, `${name}'s offer`);
	return player;
}

export = () => {
	beforeEach(() => {
		freshStart("deployed");
		serviceControl.call("POST", "/_control/ranking-keys", { key: RANKING_KEY });
	});
	afterEach(() => cleanUp());
	afterAll(() => serviceControl.reset());

	describe("/rank", () => {
		it("with the ranking key's Secret and a grant, ranks the target: one request, the ranking key in api-key only", () => {
			harness.http.defineSecret(RANKING_SECRET, RANKING_KEY);
			const started = startWithGrants({ rankingKeySecret: RANKING_SECRET }, [["rank", MOD]]);
			expect(has(registeredIds(), "rank(player,rank)")).to.equal(true);
			const mod = staffJoins(started, MOD, "ModMarco");
			expect(lastOffer(mod)!.join(",")).to.equal("rank");
			const target = join(4801, "Newcomer");
			waitUntil(() => StaffOps.getSession(target) !== undefined, "the target's join answer");

			use(mod, "/rank newc Head Moderator");
			waitUntil(() => results(mod).size() === 1, "the rank's result");
			expect(results(mod)[0]).to.equal("Ranked Newcomer (@Newcomer) to Head Moderator.");
			// The service logs a request as it answers, maybe after the client read the answer: wait, bounded.
			waitUntil(() => count("setRank") === 1, "the ranking request in the service's log");
			waitSeconds(0.2);
			expect(count("setRank")).to.equal(1);
			const calls = rankCalls();
			expect(calls.size()).to.equal(1);
			expect(calls[0].userId).to.equal("4801");
			expect(calls[0].rank).to.equal("Head Moderator");
			expect(calls[0].apiKey).to.equal("ranking");
			expect(calls[0].accepted).to.equal(true);
			expect(calls[0].loaderIdSent).to.equal(false);
			expect(harness.players.kickMessage(target)).to.equal(undefined);
		});

		it("without the ranking key, registers no rank and offers none; a client firing /rank gets nothing", () => {
			const started = startWithGrants({}, [["kick", MOD]]);
			expect(has(registeredIds(), "rank")).to.equal(false);
			expect(registeredIds()).to.equal(
				"kick(player,reason) find(player) ban(player,days,reason) warn(player,reason) " +
					"suspend(player,days,reason) terminate(player,reason) promote(player,reason) demote(player,reason) " +
					"verify(code)",
			);
			const mod = staffJoins(started, MOD, "ModMarco");
			expect(lastOffer(mod)!.join(",")).to.equal("kick");
			join(4802, "Newcomer");
			use(mod, "/rank Newcomer Moderator");
			waitSeconds(0.5);
			expect(results(mod).size()).to.equal(0);
			expect(count("setRank")).to.equal(0);
			expect(started.server.diagnostics().commands.uses!.ran).to.equal(0);
		});

		it("refuses a staff member without the rank permission: nothing reaches the ranking route", () => {
			const started = startWithGrants({ rankingKey: RANKING_KEY }, [["kick", MOD]]);
			expect(has(registeredIds(), "rank(player,rank)")).to.equal(true);
			const mod = staffJoins(started, MOD, "ModMarco");
			expect(lastOffer(mod)!.join(",")).to.equal("kick");
			join(4803, "Newcomer");
			use(mod, "/rank Newcomer Moderator");
			waitUntil(() => results(mod).size() === 1, "the refusal");
			expect(results(mod)[0]).to.equal("You may not use /rank.");
			waitSeconds(0.3);
			expect(count("setRank")).to.equal(0);
		});

		it("refuses an over-long rank and a missing one with a sentence, sending nothing", () => {
			const started = startWithGrants({ rankingKey: RANKING_KEY }, [["rank", MOD]]);
			const mod = staffJoins(started, MOD, "ModMarco");
			join(4804, "Newcomer");
			use(mod, `/rank Newcomer ${string.rep("r", 101)}`);
			waitUntil(() => results(mod).size() === 1, "the first refusal");
			use(mod, "/rank Newcomer");
			waitUntil(() => results(mod).size() === 2, "the second refusal");
			expect(results(mod)[0]).to.equal("That rank cannot be used: rank must be at most 100 characters.");
			expect(results(mod)[1]).to.equal("Usage: /rank <player> <rank>");
			waitSeconds(0.3);
			expect(count("setRank")).to.equal(0);
		});

		it("with a wrong ranking key, tells the staff member clearly and shows neither key anywhere", () => {
			const wrongKey = "ranking-key-wrong-0009";
			const started = startWithGrants({ rankingKey: wrongKey, logLevel: "verbose" }, [["rank", MOD]]);
			const mod = staffJoins(started, MOD, "ModMarco");
			join(4805, "Newcomer");
			use(mod, "/rank Newcomer Moderator");
			waitUntil(() => results(mod).size() === 1, "the refusal's result");
			const shown = results(mod)[0];
			expect(has(shown, "refused the game's ranking key (HTTP 401)")).to.equal(true);
			expect(has(shown, "RankingKeySecret")).to.equal(true);
			// A 401 is not an unknown outcome: sent once, not repeated.
			waitUntil(() => count("setRank") === 1, "the ranking request in the service's log");
			waitSeconds(0.2);
			expect(count("setRank")).to.equal(1);
			expect(rankCalls()[0].apiKey).to.equal("unknown");
			expect(rankCalls()[0].loaderIdSent).to.equal(false);
			const everything = [shown, ...allOutput()];
			for (const key of [wrongKey, RANKING_KEY, harness.serviceKey]) {
				expect(contains(everything, key)).to.equal(false);
			}
			// The verbose log did print the request (so the check above read the lines that could have leaked).
			expect(contains(allOutput(), "PUT /ranking/users/4805/role/Moderator: 401")).to.equal(true);
		});

		it("a ranking Secret that cannot be read leaves /rank off with one warning, and the rest runs", () => {
			startWithGrants({ rankingKeySecret: "staffops_no_such_secret" }, []);
			expect(has(registeredIds(), "rank")).to.equal(false);
			expect(registeredIds().size() > 0).to.equal(true);
			const warned = allOutput().filter((line) => has(line, "rankingKeySecret"));
			expect(warned.size()).to.equal(1);
			expect(has(warned[0], "/rank is off")).to.equal(true);
		});
	});
};
