import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { SeedError, defaultSeed, loadSeedFile, validateSeed } from "../src/seed.js";
import { startService } from "../src/server.js";
import { BANNED, DEPLOYED_CALL_ID, DEV_KEY, OTHER_KEY, STAFF_IDS } from "../test-support/fixtures.js";

test("the default seed holds what the README documents", () => {
	const seed = defaultSeed();
	const [dev, other] = seed.workspaces;
	assert.equal(dev.key, DEV_KEY);
	assert.equal(other.key, OTHER_KEY);
	assert.deepEqual(
		dev.staff.map((s) => s.userId),
		STAFF_IDS,
	);
	assert.deepEqual(dev.bans[0], { userId: String(BANNED.userId), reason: BANNED.reason, bannedBy: "1002" });
	assert.deepEqual(
		dev.calls.map((c) => [c.callId, c.status]),
		[
			["call-demo", "open"],
			["call-closed", "closed"],
			[DEPLOYED_CALL_ID, "open"],
		],
	);
	const [demo, , deployedDemo] = dev.calls;
	const withoutIds = (call: typeof demo) => call.messages.map((message) => ({ ...message, id: "" }));
	assert.deepEqual(withoutIds(deployedDemo), withoutIds(demo), "the 24-hex call repeats call-demo's messages");
	assert.ok(dev.timeOff.every((r) => r.approvalChain.length > 0));
	assert.ok(dev.teams.length > 0 && dev.activity.length > 0 && dev.history.length > 0);
});

test("validateSeed lists every problem with its path", () => {
	const seed = defaultSeed() as unknown as { workspaces: Record<string, unknown>[] };
	seed.workspaces[0].staff = [{ userId: 1001, username: "x", rank: "y" }];
	seed.workspaces[1].extra = true;
	assert.throws(
		() => validateSeed(seed, "test"),
		(error: unknown) => {
			assert.ok(error instanceof SeedError);
			assert.deepEqual(error.problems, [
				"seed.workspaces[0].staff[0].userId must be a string (got number)",
				"seed.workspaces[1].extra is not a documented field",
			]);
			return true;
		},
	);
});

test("validateSeed refuses shared keys and call ids without printing the key", () => {
	const seed = defaultSeed();
	seed.workspaces[1].key = seed.workspaces[0].key;
	seed.workspaces[1].calls[0].callId = "call-demo";
	assert.throws(
		() => validateSeed(seed, "test"),
		(error: unknown) => {
			assert.ok(error instanceof SeedError);
			assert.ok(!error.message.includes(DEV_KEY));
			assert.match(error.message, /share a key/);
			assert.match(error.message, /call id "call-demo" is used twice/);
			return true;
		},
	);
	assert.throws(() => validateSeed({ workspaces: [] }, "test"), /at least one workspace/);
});

test("loadSeedFile explains unreadable and non-JSON files", () => {
	const dir = mkdtempSync(join(tmpdir(), "staffops-seed-"));
	const bad = join(dir, "bad.json");
	writeFileSync(bad, "{ not json");
	assert.throws(() => loadSeedFile(bad), /not valid JSON/);
	assert.throws(() => loadSeedFile(join(dir, "missing.json")), /cannot read the file/);
	const good = join(dir, "good.json");
	writeFileSync(good, JSON.stringify(defaultSeed()));
	assert.equal(loadSeedFile(good).workspaces.length, 2);
});

test("startService refuses an invalid seed", async () => {
	await assert.rejects(startService({ seed: { workspaces: "none" } }), SeedError);
});
