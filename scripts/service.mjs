// Compiles the reference Staff Operations Service (service/) with tsc, then runs it in this process with the
// remaining arguments. With --build-only it stops after compiling (scripts/service-process.mjs); with --test it runs
// the service's contract tests (node:test) after compiling instead (`npm run test:service`).
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureSetup } from "./setup.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const buildOnly = args.includes("--build-only");
const test = args.includes("--test");

// The npm packages (typescript, fastify); no Roblox tool.
ensureSetup([]);
const tsc = spawnSync(
	process.execPath,
	[join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "service/tsconfig.json")],
	{ stdio: "inherit" },
);
if (tsc.status !== 0) {
	console.error("service: the TypeScript build failed (see above)");
	process.exit(tsc.status ?? 1);
}

if (test) {
	const tests = spawnSync(process.execPath, ["--test", "build/service/test/"], { cwd: root, stdio: "inherit" });
	process.exit(tests.status ?? 1);
}
if (!buildOnly) {
	const { runCli } = createRequire(import.meta.url)(join(root, "build/service/src/main.js"));
	runCli(args);
}
