// `npm run bench`: builds StaffOps, then runs every benchmark in bench/ with Lune and prints its figures.
// Benchmarks print numbers; they never pass or fail.
import { readdirSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { ensureSetup } from "./setup.mjs";
import { requireTool } from "./tools.mjs";

ensureSetup();
if (spawnSync("node", ["scripts/build.mjs"], { stdio: "inherit" }).status !== 0) process.exit(1);
const lune = requireTool("lune");
const only = process.argv[2];
const benches = readdirSync("bench")
	.filter((name) => name.endsWith(".luau") && name !== "boot.luau")
	.filter((name) => only === undefined || name.startsWith(only));
let failed = false;
for (const bench of benches) {
	console.log(`\n== bench/${bench}`);
	const result = spawnSync(lune, ["run", `bench/${bench}`], { stdio: "inherit" });
	if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
