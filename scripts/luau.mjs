// The Luau half of `npm run lint` and `npm run format`: StyLua (stylua.toml) and selene over every hand-written
// Luau file of the repo. Compiled or installed Luau (node_modules/, out/, build/, include/, a Wally ServerPackages/)
// is not ours and is skipped.
//
// Two sides, two selene standard libraries: the Roblox side (the drop-in model, the Wally consumer's game script)
// runs in Roblox and is checked against Roblox's API, generated offline by scripts/selene-std.luau into
// build/selene/roblox.yml; everything else runs in Lune and is checked against lune/lune.yml.
//
// usage: node scripts/luau.mjs lint     StyLua --check, then selene on both sides; exits 1 on any finding
//        node scripts/luau.mjs format   StyLua rewrites the files
import { readdirSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { requireTool, seleneRobloxBase } from "./tools.mjs";

const SKIPPED = new Set(["node_modules", "out", "build", "include", ".git", "ServerPackages"]);
const ROBLOX_SIDE = ["model/", "test/wally-consumer/src/", "test/luau-types/", "examples/"];
const ROBLOX_STD = "build/selene/roblox.yml";

/** Every .lua/.luau file under `dir`, relative to the repo root, in a stable order. */
function luauFiles(dir = ".") {
	const files = [];
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const path = dir === "." ? entry.name : join(dir, entry.name);
		if (entry.isDirectory()) {
			if (!SKIPPED.has(entry.name)) files.push(...luauFiles(path));
		} else if (/\.luau?$/.test(entry.name) && !entry.name.endsWith(".d.luau")) {
			// Definitions files (`declare ...`, for the type checker) are not runnable Luau: neither tool parses them.
			files.push(path);
		}
	}
	return files.sort();
}

function run(label, command, args) {
	console.log(`[luau] ${label}`);
	const result = spawnSync(command, args, { encoding: "utf8" });
	const output = `${result.stdout ?? ""}${result.stderr ?? ""}`.trim();
	if (output !== "") console.log(output);
	return { status: result.status ?? 1, output };
}

const mode = process.argv[2];
if (mode !== "lint" && mode !== "format") {
	console.error("usage: node scripts/luau.mjs lint|format");
	process.exit(2);
}
const files = luauFiles();
const stylua = requireTool("stylua");

if (mode === "format") {
	process.exit(run(`stylua: formatting ${files.length} files`, stylua, files).status);
}

let failed = false;
const format = run(`stylua --check: ${files.length} files`, stylua, ["--check", ...files]);
if (format.status !== 0) {
	failed = true;
	console.log("[luau] StyLua would reformat the files above: npm run format");
}

const lune = requireTool("lune");
const selene = requireTool("selene");
mkdirSync("build/selene", { recursive: true });
const std = run("Roblox standard library for selene (offline)", lune, [
	"run",
	"scripts/selene-std.luau",
	seleneRobloxBase(),
	ROBLOX_STD,
]);
if (std.status !== 0) process.exit(1);
const robloxSide = files.filter((file) => ROBLOX_SIDE.some((prefix) => file.startsWith(prefix)));
const luneSide = files.filter((file) => !robloxSide.includes(file));
for (const [side, config, sideFiles] of [
	["Roblox side", "selene.toml", robloxSide],
	["Lune side", "lune/selene.toml", luneSide],
]) {
	const lint = run(`selene (${side}, ${config}): ${sideFiles.length} files`, selene, [
		"--config",
		config,
		"--no-summary",
		...sideFiles,
	]);
	// Without --allow-warnings selene fails on warnings too: the repo keeps none.
	if (lint.status !== 0) failed = true;
}
console.log(failed ? "[luau] lint failed" : `[luau] ${files.length} Luau files formatted and lint-clean`);
process.exit(failed ? 1 : 0);
