// `npm start`: sets up what is missing, builds StaffOps, starts the reference service on loopback with its
// default seed (unless --service URL --key KEY names another), and runs the simulated game server
// (lune/sim/server.luau) in Lune with the real drop-in model.
import { spawn } from "node:child_process";
import { ensureSetup } from "./setup.mjs";
import { requireTool } from "./tools.mjs";
import { buildService, startService } from "./service-process.mjs";

const USAGE = `usage: npm start -- [--service URL --key KEY] [--profile deployed] [--call CALLID] [--sessions]
                 [--keep-alive] [--players N] [--minutes M]
  --service URL --key KEY  run against another Staff Operations Service instead of the built-in one
                           (or set STAFFOPS_SERVICE_KEY instead of --key: npm prints its command line)
  --profile deployed       the built-in service behaves as the deployed service does (docs/service-contract.md#what-the-deployed-service-sends); the run
                           adds a dashboard kick and notification, a consent prompt and support calls both ways
  --call CALLID            the support call to bridge (needed with --service; the built-in one has its own)
  --sessions               report leaves and end the server at shutdown (services with those routes);
                           half the players leave during the run
  --keep-alive             heartbeat with POST /activity/getServer instead of reading the running game
  --players N              players in the simulated server (default 12)
  --minutes M              minutes of simulated server life, in real time (default 1)`;

const args = process.argv.slice(2);
if (args.includes("--help")) {
	console.log(USAGE);
	process.exit(0);
}
function option(name) {
	const index = args.indexOf(name);
	return index >= 0 ? args[index + 1] : undefined;
}
const external = option("--service");
// The key may come from the environment instead: npm echoes the command line, --key included.
const key = option("--key") ?? (external !== undefined ? process.env.STAFFOPS_SERVICE_KEY : undefined);
if ((external === undefined) !== (key === undefined)) {
	console.error("--service and --key go together\n" + USAGE);
	process.exit(2);
}
const profile = option("--profile") ?? "default";
if (profile !== "default" && profile !== "deployed") {
	console.error("--profile must be default or deployed\n" + USAGE);
	process.exit(2);
}
if (external !== undefined && option("--profile") !== undefined) {
	console.error("--profile picks the built-in service's behaviour; another service has its own\n" + USAGE);
	process.exit(2);
}
// The built-in service's seeded call: any id in the default profile, a 24-hex id in the deployed one.
const call =
	option("--call") ??
	(external === undefined ? (profile === "deployed" ? "65a1b2c3d4e5f60718293a4b" : "call-demo") : "");

ensureSetup(["rojo", "lune"]);
const build = spawn("node", ["scripts/build.mjs"], { stdio: "inherit" });
if ((await new Promise((resolve) => build.on("exit", resolve))) !== 0) process.exit(1);

let service;
if (external === undefined) {
	if (!buildService()) process.exit(1);
	service = await startService(["--profile", profile]);
	console.log(`[start] built-in reference service at ${service.baseUrl} (default seed, ${profile} profile)`);
} else {
	service = { baseUrl: external, key, stop: () => {} };
	console.log(`[start] using the service at ${external}`);
}

const lune = requireTool("lune");
const child = spawn(lune, ["run", "lune/sim/server.luau"], {
	stdio: "inherit",
	env: {
		...process.env,
		STAFFOPS_SERVICE_URL: service.baseUrl,
		STAFFOPS_SERVICE_KEY: service.key,
		STAFFOPS_SIM_BUILTIN: external === undefined ? "1" : "0",
		STAFFOPS_SIM_PLAYERS: option("--players") ?? "12",
		STAFFOPS_SIM_MINUTES: option("--minutes") ?? "1",
		STAFFOPS_SIM_CALL: call,
		STAFFOPS_SIM_PROFILE: external === undefined ? profile : "",
		STAFFOPS_SIM_SESSIONS: args.includes("--sessions") ? "1" : "0",
		STAFFOPS_SIM_KEEP_ALIVE: args.includes("--keep-alive") ? "1" : "0",
	},
});
const code = await new Promise((resolve) => child.on("exit", (exitCode) => resolve(exitCode ?? 1)));
service.stop();
process.exit(code);
