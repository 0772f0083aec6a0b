// Brings a fresh clone up to date before a command runs: the npm packages (when node_modules is missing or older than
// package-lock.json) and the tools that command needs, and only those (scripts/install-tools.sh: a no-op once they
// are installed or when PATH has them at the pinned versions). `npm run build` needs Rojo; `npm start` Rojo and
// Lune; `npm test` all five (StyLua and selene for the Luau lint, the Luau type checker for the Luau types suite).
import { existsSync, statSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { installTools } from "./tools.mjs";

function run(label, command, args) {
	console.log(`[setup] ${label}`);
	const result = spawnSync(command, args, { stdio: "inherit" });
	if (result.status !== 0) {
		console.error(`[setup] failed: ${label}`);
		process.exit(result.status ?? 1);
	}
}

/**
 * Installs what is missing of the npm packages and of `tools` (names from scripts/tools.mjs); quick when everything
 * is already there. A command that sets up and then starts another script that would set up too (npm start starts
 * the build) does it once: the second call finds the first one's mark in the environment it passed on.
 */
export function ensureSetup(tools) {
	const done = new Set((process.env.STAFFOPS_SETUP_DONE ?? "").split(",").filter((name) => name !== ""));
	if (!done.has("npm")) {
		const marker = "node_modules/.package-lock.json";
		const stale = !existsSync(marker) || statSync("package-lock.json").mtimeMs > statSync(marker).mtimeMs;
		// The package has no `prepare` script, so installing its packages compiles nothing: the command's build does that, once.
		if (stale) run("installing npm packages (npm ci)", "npm", ["ci", "--no-audit", "--no-fund"]);
		done.add("npm");
	}
	const needed = tools.filter((name) => !done.has(name));
	if (needed.length > 0) {
		console.log(`[setup] tools this command needs: ${needed.join(", ")}`);
		installTools(needed);
		for (const name of needed) done.add(name);
	}
	process.env.STAFFOPS_SETUP_DONE = [...done].join(",");
}
