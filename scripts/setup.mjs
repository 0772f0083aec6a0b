// Brings a fresh clone up to date before a command runs: the npm packages (when node_modules is missing or older than
// package-lock.json) and the tools that command needs, and only those (scripts/install-tools.sh: a no-op once they
// are installed or when PATH has them at the pinned versions). `npm run build` needs Rojo; `npm start` Rojo and
// Lune; `npm test` all five (StyLua and selene for the Luau lint, the Luau type checker for the Luau types suite).
// So that each works as the first command in a fresh clone, a command's script imports (statically) only Node's own
// modules and local scripts that do the same, and loads what needs node_modules (typescript, say) with `await
// import()` after its ensureSetup; scripts/fresh-commands.mjs (a suite of npm test) checks every documented command.
import { existsSync, statSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { relative } from "node:path";
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
	// scripts/fresh-commands.mjs runs each documented command in a copy of the repo without node_modules, with this
	// set: reaching this line proves the command loaded nothing that needs an install first; it stops here.
	if (process.env.STAFFOPS_SETUP_PROBE === "1") {
		console.log(
			`[setup] probe: ${relative(process.cwd(), process.argv[1])} reached its set-up (${tools.join(", ")})`,
		);
		process.exit(0);
	}
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
