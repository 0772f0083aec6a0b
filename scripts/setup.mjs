// Brings a fresh clone up to date before a build: npm packages (when node_modules is missing or older than
// package-lock.json) and the Rojo, Lune, StyLua and selene pinned in rokit.toml (scripts/install-tools.sh: a no-op
// once installed or when PATH has them at those versions).
import { existsSync, statSync } from "node:fs";
import { spawnSync } from "node:child_process";

function run(label, command, args) {
	console.log(`[setup] ${label}`);
	const result = spawnSync(command, args, { stdio: "inherit" });
	if (result.status !== 0) {
		console.error(`[setup] failed: ${label}`);
		process.exit(result.status ?? 1);
	}
}

/** Installs what is missing; quick when everything is already there. */
export function ensureSetup() {
	// Once per command: scripts that set up and then run the build pass this to it through the environment.
	if (process.env.STAFFOPS_SETUP_DONE === "1") return;
	const marker = "node_modules/.package-lock.json";
	const stale = !existsSync(marker) || statSync("package-lock.json").mtimeMs > statSync(marker).mtimeMs;
	if (stale) run("installing npm packages (npm ci)", "npm", ["ci", "--no-audit", "--no-fund"]);
	// Streams its progress: the first build of the tools takes minutes.
	run("Rojo, Lune, StyLua and selene (pinned in rokit.toml; from PATH, or built from crates.io)", "bash", [
		"scripts/install-tools.sh",
	]);
	process.env.STAFFOPS_SETUP_DONE = "1";
}
