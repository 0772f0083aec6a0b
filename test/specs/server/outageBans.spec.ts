import { MemoryStoreService } from "@rbxts/services";
import { OUTAGE_BANS_MAP, OutageBanStore } from "../../../src/server/features/outageBans";
import type { MemoryStoreLike } from "../../../src/roblox/memoryStore";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { must, waitSeconds, waitUntil } from "../../support/waits";
import { cleanUp, freshStart, join, joinsOf, linesWith, specClient, Started, startDeployed, warnings } from "./support";

// Issue 34, item 2: a ban the service reported is remembered for an hour in the game's MemoryStore (the harness
// universe's fake, shared by every server of the game), so a banned player who joins while the service is unreachable
// is still kicked; the service's answer wins as soon as it gives one (docs/many-servers.md#bans-that-hold-through-an-outage).

const BANNED = 666; // banned in the reference service's seed, reason "Exploiting"
const BANNED_TEXT = "You are banned from this experience: Exploiting";
const ONE_HOUR = 3600;

/** The remembered ban of `userId` in the game's MemoryStore, read as any server would. */
function remembered(userId: number): unknown {
	return MemoryStoreService.GetHashMap(OUTAGE_BANS_MAP).GetAsync(`u${userId}`);
}

/** The service stops answering: every request gets a 503 (a busy or failing service). */
function outage(): void {
	serviceControl.fault({ operation: "*", status: 503 });
}

/** Waits until the server's outage-bans lookups reach `count` and lets a kick that follows one land. */
function waitForLookups(started: Started, count: number): void {
	waitUntil(() => started.server.diagnostics().outageBans.lookups >= count, `${count} remembered-ban lookup(s)`);
	waitSeconds(0.2);
}

/** A MemoryStore whose every call fails, as Roblox's does when it throttles or is down. */
const failingMemory: MemoryStoreLike = {
	GetHashMap() {
		return {
			GetAsync() {
				error("MemoryStoreHashMap:GetAsync: InternalError");
			},
			SetAsync() {
				error("MemoryStoreHashMap:SetAsync: TotalRequestsOverLimit");
			},
			UpdateAsync() {
				error("MemoryStoreHashMap:UpdateAsync: TotalRequestsOverLimit");
			},
			RemoveAsync() {
				error("MemoryStoreHashMap:RemoveAsync: InternalError");
			},
		};
	},
};

/**
 * The game's MemoryStore, where the first call of one kind is held until `release()`: a write (`SetAsync` or
 * `UpdateAsync`) held before it lands, as any MemoryStore call may be slow; or a read made at once whose answer is
 * held, a lookup still out while the service answers the player's join.
 */
function holdFirst(kind: "write" | "read") {
	let armed = true;
	let holding = false;
	let released = false;
	let landed = 0;
	function hold(): void {
		armed = false;
		holding = true;
		waitUntil(() => released, `the held MemoryStore ${kind} released`, 60);
		holding = false;
	}
	function write<T>(call: () => T): T {
		if (kind !== "write" || !armed) return call();
		hold();
		const result = call();
		landed += 1;
		return result;
	}
	const memory: MemoryStoreLike = {
		GetHashMap(name) {
			const map = MemoryStoreService.GetHashMap(name);
			return {
				GetAsync(key) {
					const item = map.GetAsync(key);
					if (kind === "read" && armed) hold();
					return item;
				},
				SetAsync(key, value, expiration) {
					return write(() => map.SetAsync(key, value, expiration));
				},
				UpdateAsync(key, transform, expiration) {
					return write(() => map.UpdateAsync(key, transform, expiration));
				},
				RemoveAsync(key) {
					map.RemoveAsync(key);
				},
			};
		},
	};
	return { memory, holding: () => holding, landed: () => landed, release: () => (released = true) };
}

/**
 * The sync (the deployed profile's heartbeat) fails with `status` from now on, and the next one goes out: the
 * server's status follows. Joins still get their answers.
 */
function syncsFail(started: Started, status: number): void {
	serviceControl.fault({ operation: "sendData", status });
	started.clock.advance(60);
}

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUp());

	it("kicks a banned player who joins while the service is unreachable, on a ban another server remembered", () => {
		const started = startDeployed();
		// Another server of the game heard the service report the ban and remembered it.
		new OutageBanStore(MemoryStoreService).remember(BANNED, "Exploiting");
		outage();
		const banned = join(BANNED, "Exploiter");
		const other = join(4242, "Fine");
		waitUntil(() => harness.players.kickMessage(banned) !== undefined, "the remembered ban's kick");
		waitForLookups(started, 2);
		expect(harness.players.kickMessage(banned)).to.equal(BANNED_TEXT);
		expect(harness.players.kickMessage(other)).to.equal(undefined);
		expect(started.server.diagnostics().outageBans.kicked).to.equal(1);
		// Nothing reached the service's records: the kick came from the game's memory alone.
		expect(joinsOf(BANNED).size()).to.equal(0);
	});

	it("an unban on the service wins: its answer replaces the remembered ban, and the player gets in during the next outage", () => {
		const started = startDeployed();
		const first = join(BANNED, "Exploiter");
		waitUntil(() => harness.players.kickMessage(first) !== undefined, "the service's ban kick");
		waitUntil(() => remembered(BANNED) !== undefined, "the ban remembered");
		harness.players.remove(first);
		must(specClient().commands.unban(tostring(BANNED)));
		// Back with the service up: it answers the player is not banned, and the game forgets the ban.
		const second = join(BANNED, "Exploiter");
		waitUntil(() => joinsOf(BANNED).size() >= 2, "the second join answered");
		waitUntil(() => typeIs(remembered(BANNED), "number"), "the remembered ban replaced by the unban's time");
		expect(harness.players.kickMessage(second)).to.equal(undefined);
		harness.players.remove(second);
		// The service goes down: the player joins again and is let in.
		outage();
		const third = join(BANNED, "Exploiter");
		waitForLookups(started, 1);
		expect(harness.players.kickMessage(third)).to.equal(undefined);
		expect(started.server.diagnostics().outageBans.kicked).to.equal(0);
		expect(joinsOf(BANNED).size()).to.equal(2);
	});

	it("an unban wins over an older ban whose MemoryStore write lands after it: the next outage kicks no one", () => {
		const slow = holdFirst("write");
		const started = startDeployed({}, { memoryStore: slow.memory });
		const first = join(BANNED, "Exploiter");
		waitUntil(() => harness.players.kickMessage(first) !== undefined, "the service's ban kick");
		waitUntil(() => slow.holding(), "the ban's MemoryStore write on its way");
		harness.players.remove(first);
		must(specClient().commands.unban(tostring(BANNED)));
		// The service answers the next join as not banned, and that answer reaches MemoryStore first.
		const second = join(BANNED, "Exploiter");
		waitUntil(() => joinsOf(BANNED).size() >= 2, "the second join answered");
		waitUntil(() => started.server.diagnostics().outageBans.forgotten >= 1, "the unban written");
		expect(harness.players.kickMessage(second)).to.equal(undefined);
		harness.players.remove(second);
		// Only now does the older ban's write land.
		slow.release();
		waitUntil(() => slow.landed() >= 1, "the ban's late write landed");
		outage();
		const third = join(BANNED, "Exploiter");
		waitForLookups(started, 1);
		expect(harness.players.kickMessage(third)).to.equal(undefined);
		const outageBans = started.server.diagnostics().outageBans;
		expect(outageBans.kicked).to.equal(0);
		expect(outageBans.remembered).to.equal(0);
		expect(outageBans.stale).to.equal(1);
		expect(typeIs(remembered(BANNED), "number")).to.equal(true);
		expect(joinsOf(BANNED).size()).to.equal(2);
	});

	it("a ban answered after an unban still wins over it, whichever write lands first", () => {
		const started = startDeployed();
		const store = new OutageBanStore(MemoryStoreService);
		const now = DateTime.now().UnixTimestampMillis;
		// Another server heard the ban later than this one heard the unban, but its write landed first.
		store.remember(BANNED, "Exploiting", now);
		store.forget(BANNED, now - 1000);
		expect(store.counts.stale).to.equal(1);
		outage();
		const banned = join(BANNED, "Exploiter");
		waitUntil(() => harness.players.kickMessage(banned) !== undefined, "the remembered ban's kick");
		expect(harness.players.kickMessage(banned)).to.equal(BANNED_TEXT);
		expect(started.server.diagnostics().outageBans.kicked).to.equal(1);
	});

	// Issue 42: the memory may kick only while the service is unreachable, only a player the service has not answered,
	// and only with kickBanned on (docs/many-servers.md#bans-that-hold-through-an-outage).
	describe("when a remembered ban may kick", () => {
		/** After a moment for a kick to land: `player` is still in, after `lookups` memory reads and no kick. */
		function expectLetIn(started: Started, player: Player, lookups: number): void {
			waitSeconds(0.3);
			expect(harness.players.kickMessage(player)).to.equal(undefined);
			const outageBans = started.server.diagnostics().outageBans;
			expect(outageBans.lookups).to.equal(lookups);
			expect(outageBans.kicked).to.equal(0);
		}

		it("not while the service answers but refuses other work: degraded for a refusal is no outage", () => {
			const started = startDeployed();
			// A ban remembered on another server; the service says the player is not banned (any more).
			new OutageBanStore(MemoryStoreService).remember(4242, "Old ban");
			syncsFail(started, 405);
			waitUntil(() => started.server.getStatus().state === "degraded", "degraded by refused syncs");
			expect(started.server.getStatus().reason).never.to.equal("unreachable");
			// The join's answer is slow, not lost: the service is up.
			serviceControl.fault({ operation: "playerJoin", kind: "late", latencyMs: 1500, times: 1 });
			const player = join(4242, "Fine");
			waitUntil(() => joinsOf(4242).size() === 1, "the slow join answered");
			expectLetIn(started, player, 0);
		});

		it("never a player whose join the service answered, when a later ban is remembered and the service goes down", () => {
			const started = startDeployed();
			const player = join(4242, "Fine");
			waitUntil(() => joinsOf(4242).size() === 1, "the join answered");
			waitUntil(() => started.server.diagnostics().outageBans.forgotten >= 1, "the answer remembered");
			// Another server hears of a ban on this player afterwards; then the service stops answering.
			new OutageBanStore(MemoryStoreService).remember(4242, "Later ban");
			outage();
			started.clock.advance(60);
			waitUntil(() => started.server.getStatus().reason === "unreachable", "the service unreachable");
			expectLetIn(started, player, 0);
		});

		it("never a player the service answered while the memory's read was out", () => {
			const slow = holdFirst("read");
			const started = startDeployed({}, { memoryStore: slow.memory });
			new OutageBanStore(MemoryStoreService).remember(4242, "Old ban");
			// Unreachable for the sync, while joins still get their answers.
			syncsFail(started, 503);
			waitUntil(() => started.server.getStatus().reason === "unreachable", "the service unreachable");
			serviceControl.fault({ operation: "playerJoin", kind: "late", latencyMs: 500, times: 1 });
			const player = join(4242, "Fine");
			waitUntil(() => slow.holding(), "the remembered ban read, its answer on its way");
			waitUntil(() => joinsOf(4242).size() === 1, "the join answered: not banned");
			waitUntil(() => started.server.diagnostics().outageBans.forgotten >= 1, "the answer remembered");
			slow.release();
			waitUntil(() => !slow.holding(), "the read's answer back");
			expectLetIn(started, player, 1);
		});

		it("never with kickBanned off: nothing is remembered, read or kicked", () => {
			const started = startDeployed({ kickBanned: false });
			new OutageBanStore(MemoryStoreService).remember(BANNED, "Exploiting");
			const before = harness.universe.memoryUsage().requests;
			outage();
			const banned = join(BANNED, "Exploiter");
			waitUntil(() => started.server.getStatus().reason === "unreachable", "the join failing: unreachable");
			waitSeconds(0.3);
			expect(harness.players.kickMessage(banned)).to.equal(undefined);
			const outageBans = started.server.diagnostics().outageBans;
			expect(outageBans.lookups + outageBans.kicked + outageBans.remembered + outageBans.forgotten).to.equal(0);
			expect(harness.universe.memoryUsage().requests).to.equal(before);
		});
	});

	it("a remembered ban lasts an hour: kicked 59 minutes after it was remembered, let in after 61", () => {
		const started = startDeployed();
		new OutageBanStore(MemoryStoreService).remember(BANNED, "Exploiting");
		outage();
		harness.universe.advance(ONE_HOUR - 60);
		const early = join(BANNED, "Exploiter");
		waitUntil(() => harness.players.kickMessage(early) !== undefined, "the kick within the hour");
		harness.players.remove(early);
		harness.universe.advance(120);
		const late = join(BANNED, "Exploiter");
		waitForLookups(started, 2);
		expect(harness.players.kickMessage(late)).to.equal(undefined);
		expect(started.server.diagnostics().outageBans.kicked).to.equal(1);
	});

	it("a failing MemoryStore breaks no join: bans still come from the service, failures are counted and warned once", () => {
		const started = startDeployed({}, { memoryStore: failingMemory });
		const banned = join(BANNED, "Exploiter");
		const fine = join(4242, "Fine");
		waitUntil(() => harness.players.kickMessage(banned) !== undefined, "the service's ban kick");
		waitUntil(() => joinsOf(4242).size() === 1, "the other join answered");
		waitUntil(() => started.server.diagnostics().outageBans.errors >= 2, "the failed writes counted");
		expect(started.server.isTracked(fine)).to.equal(true);
		expect(harness.players.kickMessage(fine)).to.equal(undefined);
		outage();
		const later = join(5151, "Later");
		waitForLookups(started, 1);
		const outageBans = started.server.diagnostics().outageBans;
		expect(outageBans.errors).to.equal(3);
		expect(outageBans.remembered + outageBans.forgotten + outageBans.kicked).to.equal(0);
		expect(harness.players.kickMessage(later)).to.equal(undefined);
		expect(linesWith(warnings(), "MemoryStore failed for remembered bans").size()).to.equal(1);
		expect(linesWith(warnings(), "internal error").size()).to.equal(0);
	});

	it("costs one MemoryStore request (two units) per answered join and one read (one unit) per join in an outage; an item stays under 512 bytes", () => {
		const started = startDeployed();
		const before = harness.universe.memoryUsage().requests;
		const unitsBefore = harness.universe.memoryUsage().units;
		const banned = join(BANNED, "Exploiter");
		join(4242, "Fine");
		waitUntil(() => harness.players.kickMessage(banned) !== undefined, "the service's ban kick");
		waitUntil(() => joinsOf(4242).size() === 1, "the other join answered");
		waitUntil(() => harness.universe.memoryUsage().requests - before >= 2, "the write and the removal");
		outage();
		join(5151, "Later");
		waitForLookups(started, 1);
		expect(harness.universe.memoryUsage().requests - before).to.equal(3);
		// Roblox charges an UpdateAsync at least two request units.
		expect(harness.universe.memoryUsage().units - unitsBefore).to.equal(5);
		// The longest reason, in multi-byte characters, with control characters: cut, and the item stays small.
		const used = harness.universe.memoryUsage().usedBytes;
		new OutageBanStore(MemoryStoreService).remember(1, string.rep("é\n", 400));
		const reason = (remembered(1) as { reason: string }).reason;
		expect(utf8.len(reason)[0]).to.be.ok();
		expect(reason.size() <= 200 && reason.find("%c")[0] === undefined).to.equal(true);
		expect(harness.universe.memoryUsage().usedBytes - used < 512).to.equal(true);
	});

	it("sends nothing to MemoryStore with outageBans off", () => {
		const started = startDeployed({ outageBans: false });
		const before = harness.universe.memoryUsage().requests;
		const banned = join(BANNED, "Exploiter");
		waitUntil(() => harness.players.kickMessage(banned) !== undefined, "the service's ban kick");
		waitSeconds(0.2);
		expect(harness.universe.memoryUsage().requests).to.equal(before);
		expect(started.server.diagnostics().outageBans.remembered).to.equal(0);
	});
};
