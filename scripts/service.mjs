// Compiles the reference Staff Operations Service (service/) with tsc, then runs it in this process with the
// remaining arguments. With --build-only it stops after compiling (used by `npm run test:service`).
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const buildOnly = args.includes("--build-only");

const tsc = spawnSync(
	process.execPath,
	[join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "service/tsconfig.json")],
	{ stdio: "inherit" },
);
if (tsc.status !== 0) {
	console.error("service: the TypeScript build failed (see above)");
	process.exit(tsc.status ?? 1);
}

if (!buildOnly) {
	const { runCli } = createRequire(import.meta.url)(join(root, "build/service/src/main.js"));
	runCli(args);
}
