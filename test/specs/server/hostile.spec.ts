import { isClientReportPayload } from "../../../src/shared/reportPayload";
import { StaffOps } from "../../../src/server";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { cleanUp, freshStart, join, joinsOf, recorded, report, startRegistered } from "./support";
import { waitSeconds, waitUntil } from "../../support/waits";

const PLATFORMS = new Set(["Phone", "Tablet", "Console", "Desktop", "unknown"]);

function bigString(size: number): string {
	return string.rep("A", size);
}

/** Payloads an exploiter might send instead of `{ platform, tzOffset }`. */
function hostilePayloads(): Array<unknown> {
	const nan = 0 / 0;
	return [
		nan,
		math.huge,
		42,
		true,
		"Phone",
		bigString(1_000_000),
		new Vector3(1, 2, 3),
		[],
		["Phone", "+00:00"],
		{},
		{ platform: "Phone" },
		{ tzOffset: "+00:00" },
		{ platform: nan, tzOffset: "+00:00" },
		{ platform: "Phone", tzOffset: nan },
		{ platform: 1, tzOffset: "+00:00" },
		{ platform: "phone", tzOffset: "+00:00" },
		{ platform: "UNKNOWN", tzOffset: "+00:00" },
		{ platform: "Phone ", tzOffset: "+00:00" },
		{ platform: bigString(100_000), tzOffset: "+00:00" },
		{ platform: "Phone", tzOffset: bigString(100_000) },
		{ platform: "Phone", tzOffset: "+00:00", extra: true },
		{ platform: "Phone", tzOffset: "+00:00", isStaff: true },
		{ platform: "Phone", tzOffset: "+00:00", [bigString(1000)]: 1 },
		{ platform: { nested: "Phone" }, tzOffset: "+00:00" },
		{ platform: "Phone", tzOffset: "+15:00" },
		{ platform: "Phone", tzOffset: "+14:30" },
		{ platform: "Phone", tzOffset: "-99:99" },
		{ platform: "Phone", tzOffset: "+05:60" },
		{ platform: "Phone", tzOffset: "05:00" },
		{ platform: "Phone", tzOffset: "+5:00" },
		{ platform: "Phone", tzOffset: "+05:00 " },
		{ platform: "Phone", tzOffset: "+0500" },
		{ platform: "Phone", tzOffset: "Z" },
		{ platform: "Phone", tzOffset: "+٠٥:٠٠" },
		{ platform: "Phone", tzOffset: "+05:00\0" },
		setmetatable({}, { __index: () => "Phone" }),
	];
}

/**
 * The Lua heap in KB after a full collection. Lune's Luau allows `collectgarbage("collect")` (Roblox does not, so the
 * typings leave it out); collecting first measures what is retained rather than garbage not yet swept.
 */
function heapAfterCollect(): number {
	(collectgarbage as unknown as (option: string) => number)("collect");
	return collectgarbage("count");
}

// An exploiter fires the ClientReport remote with anything, at any rate: the server stays up, nothing malformed
// reaches the service, and memory stays bounded.
export = () => {
	beforeEach(() => freshStart());
	afterEach(() => cleanUp());

	describe("a hostile client on ClientReport", () => {
		it("refuses every malformed payload (each one checked, none rate-limited) and reports the valid one", () => {
			const started = startRegistered({ clientReportTimeoutSeconds: 60 });
			const payloads = hostilePayloads();
			// Three events per player fit in the rate limit's burst: every payload is looked at, none dropped for rate.
			const senders = new Array<Player>();
			for (let i = 0; i * 3 < payloads.size() + 2; i++) senders.push(harness.players.add(2200 + i));
			task.wait();
			for (let index = 0; index < payloads.size(); index++) {
				report(started, senders[math.floor(index / 3)], payloads[index]);
			}
			// No argument at all, and extra arguments after a valid payload, are refused too.
			const last = senders[senders.size() - 1];
			harness.players.client(last).fire(started.remote);
			harness.players.client(last).fire(started.remote, { platform: "Phone", tzOffset: "+00:00" }, "extra");
			task.wait();
			waitSeconds(0.05);
			const stats = started.server.diagnostics().clientReport;
			expect(stats.rejected).to.equal(payloads.size() + 2);
			expect(stats.rateLimited).to.equal(0);
			expect(stats.accepted).to.equal(0);
			expect(serviceControl.count("playerJoin")).to.equal(0);

			const player = join(2001);
			report(started, player, { platform: "Console", tzOffset: "-09:30" });
			waitUntil(() => joinsOf(2001).size() === 1, "the join");
			expect(joinsOf(2001)[0].platform).to.equal("Console");
			expect(joinsOf(2001)[0].tzOffset).to.equal("-09:30");
			expect(started.server.diagnostics().clientReport.accepted).to.equal(1);
			expect(serviceControl.count("playerJoin")).to.equal(1);
		});

		it("stays up under 1,000 events a second from many players; nothing bad reaches the service; memory stays bounded", () => {
			const started = startRegistered({ clientReportTimeoutSeconds: 60 });
			const players = new Array<Player>();
			for (let userId = 2100; userId < 2110; userId++) players.push(harness.players.add(userId));
			task.wait();
			const payloads = hostilePayloads();
			const valid = { platform: "Tablet", tzOffset: "+05:30" };

			const before = heapAfterCollect();
			let fired = 0;
			const rounds = 2;
			for (let round = 0; round < rounds; round++) {
				// One second of the limiter's clock: 1,000 events from each of 10 players, good ones among them.
				for (let i = 0; i < 1000; i++) {
					started.clock.advance(0.001);
					for (const player of players) {
						const payload = i % 97 === 0 ? valid : payloads[(i + fired) % payloads.size()];
						harness.players.client(player).fire(started.remote, payload);
						fired += 1;
					}
					if (i % 50 === 0) task.wait();
				}
				task.wait();
			}
			// Every event handled (each one counted once, whatever became of it), with a bound, not a fixed wait.
			waitUntil(
				() => started.server.diagnostics().clientReport.received === fired,
				"every event to be handled",
				10,
			);
			const after = heapAfterCollect();

			const stats = started.server.diagnostics().clientReport;
			expect(stats.received).to.equal(fired);
			expect(stats.accepted + stats.rejected + stats.rateLimited + stats.ignored).to.equal(fired);
			expect(stats.accepted <= players.size()).to.equal(true);
			// 3 at once, then one every 2 s: about 4 per player in 2 s, out of 2,000.
			expect(stats.rateLimited >= fired - players.size() * 10).to.equal(true);
			expect(started.server.isStopped()).to.equal(false);
			const diagnostics = started.server.diagnostics();
			expect(diagnostics.joins.players).to.equal(players.size());
			expect(diagnostics.clientReport.limiterKeys <= players.size()).to.equal(true);

			// Everyone's join goes out, with only well-formed values (valid reports, or unknown after the wait).
			started.clock.advance(60);
			waitUntil(() => recorded().joins.size() === players.size(), "the joins of every player", 10);
			for (const recordedJoin of recorded().joins) {
				expect(PLATFORMS.has(recordedJoin.platform)).to.equal(true);
				expect(
					isClientReportPayload({ platform: recordedJoin.platform, tzOffset: recordedJoin.tzOffset }),
				).to.equal(true);
			}
			expect(serviceControl.count("playerJoin")).to.equal(players.size());

			// Everyone leaves: nothing per player is kept.
			for (const player of players) harness.players.remove(player);
			// Under load the leaves may take more than one frame to be handled: wait for them, with a bound.
			waitUntil(
				() => {
					const left = started.server.diagnostics();
					return left.joins.players === 0 && left.clientReport.limiterKeys === 0;
				},
				"nothing to be kept of the players who left",
				10,
			);
			expect(started.server.diagnostics().joins.players).to.equal(0);
			expect(started.server.diagnostics().clientReport.limiterKeys).to.equal(0);

			print(
				`[hostile] fired ${fired}, accepted ${stats.accepted}, rejected ${stats.rejected}, ` +
					`rate-limited ${stats.rateLimited}, ignored ${stats.ignored}; ` +
					`Lua heap ${math.floor(before)} KB before, ${math.floor(after)} KB after`,
			);
			// Retained memory: 20,000 events of up to 1 MB each leave less than 1 MB behind.
			expect(after - before < 1024).to.equal(true);
			expect(StaffOps.getServer()).to.equal(started.server);
		});

		it("ignores events from players who left and from players it does not track", () => {
			const started = startRegistered();
			const player = join(2001);
			harness.players.remove(player);
			task.wait();
			report(started, player, { platform: "Phone", tzOffset: "+00:00" });
			task.wait();
			expect(started.server.diagnostics().clientReport.ignored).to.equal(1);
			expect(started.server.diagnostics().clientReport.limiterKeys).to.equal(0);
			expect(started.server.diagnostics().joins.players).to.equal(0);

			// A Player object that is parented but not in the server's player list (never added, so never tracked).
			const stranger = (Instance as unknown as { new: (className: string) => Player }).new("Player");
			const writable = stranger as unknown as { Name: string; UserId: number };
			writable.Name = "Stranger";
			writable.UserId = 2099;
			stranger.Parent = game.GetService("Workspace");
			report(started, stranger, { platform: "Phone", tzOffset: "+00:00" });
			task.wait();
			waitSeconds(0.05);
			expect(started.server.diagnostics().clientReport.ignored).to.equal(2);
			expect(started.server.diagnostics().clientReport.accepted).to.equal(0);
			expect(started.server.diagnostics().clientReport.limiterKeys).to.equal(0);
			expect(started.server.diagnostics().joins.players).to.equal(0);
			expect(serviceControl.count("playerJoin")).to.equal(0);
			stranger.Destroy();
		});
	});
};
