import { StaffOps } from "../../../src/server";
import type { StaffOpsConfig } from "../../../src/server/config";
import { harness } from "../../support/harness";
import { waitUntil } from "../../support/waits";
import { FAKE_KEY, FakeStarted, ONE_SYNC, run, startAgainstFake } from "./deployedFake";
import { cleanUp, freshStart, join, linesWith, report, Started, startRegistered, warnings } from "./support";

// What StaffOps prints in Studio's output (issue 35, the LogLevel setting): one line per notable event at the
// default level, none at `quiet`, and never the key or the service's text at any level.

/** The lines printed (not warned) since the output was last cleared. */
function printed(): Array<string> {
	return harness
		.output()
		.filter((line) => line.kind === "print")
		.map((line) => line.text);
}

/** A few frames for anything printed after the awaited moment (a second line would show up by then). */
function settle(): void {
	for (let i = 0; i < 5; i++) task.wait();
}

/** The reference service's staff member (seeded): joins and waits for the staff mark. */
function staffJoins(started: Started): void {
	const staff = join(1002, "HeadModHana");
	report(started, staff, { platform: "Tablet", tzOffset: "+09:30" });
	waitUntil(() => StaffOps.isStaff(staff), "the staff mark");
	settle();
}

/** The reference service's banned player (seeded, reason "Exploiting"): joins and waits for the kick. */
function bannedJoins(started: Started): void {
	const banned = join(666, "Exploiter");
	report(started, banned, { platform: "Desktop", tzOffset: "+00:00" });
	waitUntil(() => harness.players.kickMessage(banned) !== undefined, "the kick");
	settle();
}

/** A dashboard kick of a present player through the sync; waits for it. */
function dashboardKicks(started: FakeStarted, message: string): void {
	const target = join(1001, "RuleBreaker");
	waitUntil(() => StaffOps.getSession(target) !== undefined, "the join");
	settle();
	harness.clearOutput();
	started.fake.queued.push({ type: "kick", userId: 1001, message });
	run(started, ONE_SYNC);
	waitUntil(() => harness.players.kickMessage(target) !== undefined, "the kick");
	settle();
}

/** The service's text the lines must never carry: the seeded ban reason, a dashboard message. */
const SERVICE_TEXTS = ["Exploiting", "Rule 3 told in private"];

function carriesSecretOrServiceText(lines: Array<string>): Array<string> {
	return lines.filter((line) =>
		[harness.serviceKey, FAKE_KEY, ...SERVICE_TEXTS].some((text) => line.find(text, 1, true)[0] !== undefined),
	);
}

export = () => {
	beforeEach(() => freshStart());
	afterEach(() => cleanUp());

	describe("logLevel info (the default)", () => {
		it("a staff member found prints exactly one line, naming them", () => {
			const started = startRegistered();
			harness.clearOutput();
			staffJoins(started);
			expect(printed().size()).to.equal(1);
			expect(linesWith(printed(), "HeadModHana (1002)").size()).to.equal(1);
			expect(warnings().size()).to.equal(0);
		});

		it("a banned player kicked prints exactly one line, without the ban reason or the key", () => {
			const started = startRegistered();
			harness.clearOutput();
			bannedJoins(started);
			expect(printed().size()).to.equal(1);
			expect(linesWith(printed(), "kicked Exploiter (666)").size()).to.equal(1);
			expect(carriesSecretOrServiceText(harness.output().map((line) => line.text)).size()).to.equal(0);
		});

		it("a dashboard kick prints exactly one line, without its message or the key", () => {
			const started = startAgainstFake();
			dashboardKicks(started, "Rule 3 told in private");
			expect(printed().size()).to.equal(1);
			expect(linesWith(printed(), "dashboard kick").size()).to.equal(1);
			expect(linesWith(printed(), "RuleBreaker (1001)").size()).to.equal(1);
			expect(carriesSecretOrServiceText(harness.output().map((line) => line.text)).size()).to.equal(0);
		});

		it("ordinary joins answered together are one line, not one per player", () => {
			const started = startRegistered({ clientReportTimeoutSeconds: 0 });
			harness.clearOutput();
			const players = [3001, 3002, 3003, 3004].map((userId) => harness.players.add(userId));
			waitUntil(() => players.every((player) => StaffOps.getSession(player) !== undefined), "the joins");
			settle();
			const reported = linesWith(printed(), "reported ");
			// One wave, or a few if the answers straggled past a quiet queue: never a line per player.
			expect(reported.size() >= 1 && reported.size() < players.size()).to.equal(true);
			expect(started.server.isRegistered()).to.equal(true);
		});
	});

	describe("logLevel quiet", () => {
		it("prints none of them, from the start to a dashboard kick", () => {
			const started = startRegistered({ logLevel: "quiet" });
			staffJoins(started);
			bannedJoins(started);
			expect(printed().size()).to.equal(0);
			StaffOps.stop();
			const fake = startAgainstFake({ logLevel: "quiet" });
			dashboardKicks(fake, "Rule 3 told in private");
			expect(printed().size()).to.equal(0);
		});

		it("still warns", () => {
			startRegistered({ logLevel: "quiet" });
			StaffOps.start({ baseUrl: harness.serviceUrl, apiKey: harness.serviceKey });
			expect(linesWith(warnings(), "StaffOps.start was called again").size()).to.equal(1);
		});
	});

	describe("logLevel verbose", () => {
		it("adds the join's decisions and each request's route and status, never the key or the ban reason", () => {
			const started = startRegistered({ logLevel: "verbose" });
			bannedJoins(started);
			const lines = harness.output().map((line) => line.text);
			expect(linesWith(lines, "sending the join of Exploiter (666)").size()).to.equal(1);
			expect(linesWith(lines, "the join of Exploiter (666) is answered: banned").size()).to.equal(1);
			expect(linesWith(lines, "POST /activity/playerJoin: 200").size()).to.equal(1);
			expect(linesWith(lines, "kicked Exploiter (666)").size()).to.equal(1);
			expect(carriesSecretOrServiceText(lines).size()).to.equal(0);
		});
	});

	describe("a wrong logLevel", () => {
		it("falls back to the default with one warning", () => {
			const started = startRegistered({ logLevel: "loud" } as unknown as Partial<StaffOpsConfig>);
			expect(linesWith(warnings(), "config.logLevel must be").size()).to.equal(1);
			expect(warnings().size()).to.equal(1);
			harness.clearOutput();
			staffJoins(started);
			expect(printed().size()).to.equal(1);
		});
	});
};
