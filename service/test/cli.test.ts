import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { test } from "node:test";
import { defaultSeed } from "../src/seed.js";
import { DEV_KEY } from "../test-support/fixtures.js";

const MAIN = join(__dirname, "..", "src", "main.js");

function run(args: string[]): ChildProcess {
	return spawn(process.execPath, [MAIN, ...args], { stdio: ["ignore", "pipe", "pipe"] });
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; stderr: string; stdout: string }> {
	let stderr = "";
	let stdout = "";
	child.stderr?.on("data", (chunk) => (stderr += chunk));
	child.stdout?.on("data", (chunk) => (stdout += chunk));
	return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stderr, stdout })));
}

async function firstLines(child: ChildProcess, count: number): Promise<string[]> {
	const lines: string[] = [];
	const reader = createInterface({ input: child.stdout! });
	for await (const line of reader) {
		lines.push(line);
		if (lines.length === count) break;
	}
	return lines;
}

test("the CLI prints base_url and key, serves, and exits 0 on SIGTERM", async () => {
	const child = run(["--port", "0"]);
	const [baseLine, keyLine] = await firstLines(child, 2);
	const exited = exitOf(child);
	assert.match(baseLine, /^base_url=http:\/\/127\.0\.0\.1:\d+$/);
	assert.equal(keyLine, `key=${DEV_KEY}`);
	const baseUrl = baseLine.slice("base_url=".length);
	assert.notEqual(new URL(baseUrl).port, "0", "the real port");
	const answer = await fetch(`${baseUrl}/teams/users/1001`, { headers: { "loader-id": DEV_KEY } });
	assert.equal(answer.status, 200);
	assert.equal(((await answer.json()) as { success: boolean }).success, true);
	child.kill("SIGTERM");
	const { code, stderr, stdout } = await exited;
	assert.equal(code, 0);
	assert.equal(stderr, "");
	assert.equal(stdout, "", "nothing more after the two lines");
});

test("the CLI takes --seed and --forget-after, and exits 0 on SIGINT", async () => {
	const dir = mkdtempSync(join(tmpdir(), "staffops-cli-"));
	const file = join(dir, "seed.json");
	const seed = defaultSeed();
	seed.workspaces[0].key = "cli-seed-key-4242";
	writeFileSync(file, JSON.stringify(seed));
	const child = run(["--port=0", "--seed", file, "--forget-after", "0.5"]);
	const [baseLine, keyLine] = await firstLines(child, 2);
	const exited = exitOf(child);
	assert.equal(keyLine, "key=cli-seed-key-4242");
	const config = await fetch(`${baseLine.slice("base_url=".length)}/_control/config`);
	assert.equal(((await config.json()) as { forgetAfterSeconds: number }).forgetAfterSeconds, 0.5);
	child.kill("SIGINT");
	assert.equal((await exited).code, 0);
});

test("the CLI takes --profile deployed: config reports it with the 20-minute silence limit", async () => {
	const child = run(["--port", "0", "--profile", "deployed"]);
	const [baseLine, keyLine] = await firstLines(child, 2);
	const exited = exitOf(child);
	assert.equal(keyLine, `key=${DEV_KEY}`);
	const baseUrl = baseLine.slice("base_url=".length);
	const config = (await (await fetch(`${baseUrl}/_control/config`)).json()) as Record<string, unknown>;
	assert.equal(config.profile, "deployed");
	assert.equal(config.forgetAfterSeconds, 1200);
	const orders = await fetch(`${baseUrl}/orders`, { method: "POST", headers: { "loader-id": DEV_KEY } });
	assert.equal(orders.status, 404);
	assert.equal(((await orders.json()) as { message: string }).message, "Cannot POST /orders");
	child.kill("SIGTERM");
	assert.equal((await exited).code, 0);
});

test("the CLI explains a bad seed file and exits 1", async () => {
	const dir = mkdtempSync(join(tmpdir(), "staffops-cli-"));
	const file = join(dir, "seed.json");
	writeFileSync(file, JSON.stringify({ workspaces: [{ key: "k" }] }));
	const { code, stderr, stdout } = await exitOf(run(["--port", "0", "--seed", file]));
	assert.equal(code, 1);
	assert.match(stderr, /invalid seed/);
	assert.match(stderr, /seed\.workspaces\[0\]\.workspace is missing/);
	assert.equal(stdout, "");
});

test("the CLI refuses bad arguments with usage and exit 2", async () => {
	for (const args of [
		["--port", "abc"],
		["--port"],
		["--forget-after", "-1"],
		["--verbose"],
		["--profile", "bogus"],
		["--profile"],
	]) {
		const { code, stderr } = await exitOf(run(args));
		assert.equal(code, 2, args.join(" "));
		assert.match(stderr, /usage: npm run service/);
		assert.match(stderr, /--profile default\|deployed/);
	}
});
