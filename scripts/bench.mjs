// `npm run bench`: builds StaffOps, then runs every benchmark in lune/bench/ (lune/bench/*.luau; their shared parts
// are in lune/bench/support/ and lune/lib/) with Lune on the shipped model and prints its figures. Benchmarks print numbers
// and have no thresholds: the command exits non-zero only when a benchmark crashed or hung (so it printed no
// figures). A part still running says so every 25 s.
//
// A benchmark that needs the reference service says so with a line `-- bench: needs-service` near its top; it
// then gets one on a loopback port through STAFFOPS_SERVICE_URL / STAFFOPS_SERVICE_KEY, as the specs do.
//
// usage: npm run bench [-- PREFIX]   (only the benchmarks whose file name starts with PREFIX)
import { readdirSync, readFileSync } from "node:fs";
import { spawn, spawnSync } from "node:child_process";
import { cpus } from "node:os";
import { ensureSetup } from "./setup.mjs";
import { requireTool, LUNE_VERSION } from "./tools.mjs";
import { buildService, startService } from "./service-process.mjs";

const TIMEOUT_SECONDS = 600;
const BENCH_DIR = "lune/bench";

if (process.argv[2] === "--help") {
	console.log(
		"usage: npm run bench [-- PREFIX]   (only the benchmarks in lune/bench/ whose file name starts with PREFIX)",
	);
	process.exit(0);
}
ensureSetup(["rojo", "lune"]);
if (spawnSync("node", ["scripts/build.mjs"], { stdio: "inherit" }).status !== 0) process.exit(1);
const lune = requireTool("lune");
const only = process.argv[2];
const benches = readdirSync(BENCH_DIR)
	.filter((name) => name.endsWith(".luau"))
	.filter((name) => only === undefined || name.startsWith(only))
	.sort();

const cpu = cpus()[0]?.model?.trim() ?? "unknown CPU";
console.log(
	`\nnpm run bench${only ? ` -- ${only}` : ""} on ${new Date().toISOString().slice(0, 10)}: ` +
		`Lune ${LUNE_VERSION}, Node ${process.version}, ${cpus().length} x ${cpu}`,
);

let service;
async function serviceEnv() {
	if (service === undefined) {
		if (!buildService()) throw new Error("the reference service did not compile");
		service = await startService();
	}
	return { STAFFOPS_SERVICE_URL: service.baseUrl, STAFFOPS_SERVICE_KEY: service.key };
}

function runBench(file, extraEnv) {
	return new Promise((resolve) => {
		const child = spawn(lune, ["run", `${BENCH_DIR}/${file}`], {
			stdio: "inherit",
			env: { ...process.env, ...extraEnv },
		});
		// A part that prints its table only at its end still says every 25 s that it runs (issue 39: a line at least
		// every 30 s).
		const started = Date.now();
		const progress = setInterval(() => {
			console.log(`(${BENCH_DIR}/${file} still running: ${Math.round((Date.now() - started) / 1000)} s)`);
		}, 25_000);
		const timer = setTimeout(() => {
			console.log(`(${BENCH_DIR}/${file} still running after ${TIMEOUT_SECONDS} s; stopped)`);
			child.kill("SIGKILL");
		}, TIMEOUT_SECONDS * 1000);
		child.on("exit", (code, signal) => {
			clearTimeout(timer);
			clearInterval(progress);
			resolve(code ?? (signal ? 1 : 0));
		});
	});
}

const troubled = [];
for (const file of benches) {
	console.log(`\n== ${BENCH_DIR}/${file}`);
	let extraEnv = {};
	if (/^-- bench: needs-service$/m.test(readFileSync(`${BENCH_DIR}/${file}`, "utf8").slice(0, 4000))) {
		try {
			extraEnv = await serviceEnv();
		} catch (error) {
			console.log(`(skipped: ${error.message})`);
			troubled.push(file);
			continue;
		}
	}
	if ((await runBench(file, extraEnv)) !== 0) troubled.push(file);
}
service?.stop();
if (troubled.length > 0) console.log(`\nno figures from: ${troubled.join(", ")} (see above)`);
process.exit(troubled.length > 0 ? 1 : 0);
