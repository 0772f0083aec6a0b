// `npm run soak`: builds StaffOps and the reference service, starts the service on a loopback port and runs the
// soak (lune/soak/soak.luau) in Lune: the shipped model under randomly injected faults. It prints its figures and fails
// (exit 1) when the joins the service recorded differ from the joins that happened, or when any error surfaced to
// game code. Errors thrown in a Lune thread and never caught (printed on stderr with a stack) count as surfaced.
// With `--profile deployed` the service runs its deployed profile and the soak adds dashboard actions, consent and
// support calls (lune/soak/deployed.luau); their figures join the verdict.
//
// `npm test` runs a small one (`--small --no-build`) and reads its `SOAK RESULT` line.
import { spawn, spawnSync } from "node:child_process";
import { ensureSetup } from "./setup.mjs";
import { requireTool } from "./tools.mjs";
import { buildService, startService } from "./service-process.mjs";

const USAGE = `usage: npm run soak -- [--minutes M] [--players N] [--speed S] [--seed K] [--min-stay S] [--lingering-faults]
                      [--profile interface|deployed] [--small] [--verbose] [--no-build]
  --minutes M   library minutes of server life (default 30; the library's clock runs S times real time)
  --players N   players in the server at a time (default 100)
  --speed S     how much faster than real time the library's clock runs (default 10)
  --seed K      seed of the players' and faults' randomness (default 1)
  --min-stay S  library seconds every player stays at least; stays average 4 times that (default 300, longer
                than the outage plus backoff; StaffOps drops the unsent join of a player who leaves, so short stays
                under faults lose joins: try --minutes 10 --min-stay 20)
  --lingering-faults  leave each fault rule until it is used up (rules for rare requests such as registration
                pile up and keep the server unregistered for minutes) instead of removing it after 5-20 s
  --profile P   the reference service's profile: interface (default) or deployed (the sync, dashboard actions,
                consent and support calls with agents; faults on the in-game routes, drop-after included)
  --small       the size npm test runs: 2 minutes, 30 players (about 15 s)
  --verbose     echo the library's log lines, each fault and every distinct warning
  --no-build    use the existing build/StaffOps.rbxm and build/service (npm test has just built them)`;

const args = process.argv.slice(2);
if (args.includes("--help")) {
	console.log(USAGE);
	process.exit(0);
}
function option(name, fallback) {
	const index = args.indexOf(name);
	if (index < 0) return fallback;
	const value = Number(args[index + 1]);
	if (!Number.isFinite(value) || value <= 0) {
		console.error(`${name} needs a positive number\n${USAGE}`);
		process.exit(2);
	}
	return value;
}
const small = args.includes("--small");
const minutes = option("--minutes", small ? 2 : 30);
const players = option("--players", small ? 30 : 100);
const speed = option("--speed", 10);
const seed = option("--seed", 1);
const minStay = option("--min-stay", 300);
const profileIndex = args.indexOf("--profile");
const profile = profileIndex < 0 ? "interface" : args[profileIndex + 1];
if (profile !== "interface" && profile !== "deployed") {
	console.error(`--profile takes interface or deployed\n${USAGE}`);
	process.exit(2);
}

// Quick when all is there (npm test has set up already); --no-build needs Lune alone.
ensureSetup(args.includes("--no-build") ? ["lune"] : ["rojo", "lune"]);
if (!args.includes("--no-build")) {
	if (spawnSync("node", ["scripts/build.mjs"], { stdio: "inherit" }).status !== 0) process.exit(1);
	if (!buildService()) process.exit(1);
}
const lune = requireTool("lune");
const command = `npm run soak${args.length > 0 ? ` -- ${args.join(" ")}` : ""}`;
console.log(`\n${command} on ${new Date().toISOString().slice(0, 10)}`);

let service;
try {
	service = await startService(profile === "deployed" ? ["--profile", "deployed"] : []);
} catch (error) {
	console.error(`[soak] ${error.message}`);
	process.exit(1);
}
const started = Date.now();
const child = spawn(lune, ["run", "lune/soak/soak.luau"], {
	stdio: ["ignore", "pipe", "pipe"],
	env: {
		...process.env,
		STAFFOPS_SERVICE_URL: service.baseUrl,
		STAFFOPS_SERVICE_KEY: service.key,
		STAFFOPS_SOAK_MINUTES: String(minutes),
		STAFFOPS_SOAK_PLAYERS: String(players),
		STAFFOPS_SOAK_SPEED: String(speed),
		STAFFOPS_SOAK_SEED: String(seed),
		STAFFOPS_SOAK_MIN_STAY: String(minStay),
		STAFFOPS_SOAK_VERBOSE: args.includes("--verbose") ? "1" : "0",
		STAFFOPS_SOAK_PROFILE: profile,
		STAFFOPS_SOAK_LINGERING_FAULTS: args.includes("--lingering-faults") ? "1" : "0",
	},
});
let output = "";
let uncaught = 0;
child.stdout.on("data", (chunk) => {
	output += chunk;
	process.stdout.write(chunk);
});
child.stderr.on("data", (chunk) => {
	uncaught += (String(chunk).match(/\[Stack Begin\]/g) ?? []).length;
	process.stderr.write(chunk);
});
// The run takes minutes / speed of real time, plus the shutdown; anything far beyond that is stuck.
const limitSeconds = (minutes * 60) / speed + 120;
const timer = setTimeout(() => {
	console.error(`[soak] still running after ${limitSeconds} s; stopped`);
	child.kill("SIGKILL");
}, limitSeconds * 1000);
const code = await new Promise((resolve) => child.on("exit", (exitCode) => resolve(exitCode ?? 1)));
clearTimeout(timer);
service.stop();

const result = /^SOAK RESULT .*joins_happened=(\d+) joins_recorded=(\d+) .*errors_surfaced=(\d+) .*result=(\w+)$/m.exec(
	output,
);
if (result === null) {
	console.log(`SOAK VERDICT result=FAIL (the soak printed no result; exit code ${code})`);
	process.exit(1);
}
const [, happened, recorded, errors] = result.map(Number);
// Deployed mode only: the figures of lune/soak/deployed.luau, judged there.
const deployedOk = !/ deployed=FAIL /.test(result[0]);
const surfaced = errors + uncaught;
const joinsOk = happened === recorded;
const errorsOk = surfaced === 0;
if (uncaught > 0) console.log(`uncaught errors in Lune threads (stderr): ${uncaught}`);
console.log(
	`SOAK VERDICT joins_equal=${joinsOk} errors_surfaced=${surfaced} ` +
		`${profile === "deployed" ? `deployed_figures=${deployedOk ? "PASS" : "FAIL"} ` : ""}` +
		`real_seconds=${((Date.now() - started) / 1000).toFixed(1)} ` +
		`result=${joinsOk && errorsOk && deployedOk ? "PASS" : "FAIL"}`,
);
process.exit(joinsOk && errorsOk && deployedOk && code === 0 ? 0 : 1);
