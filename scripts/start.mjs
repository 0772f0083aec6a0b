// `npm start`: sets up what is missing, builds StaffOps, starts the reference service on loopback with its
// default seed (unless --service URL --key KEY names another), and runs the simulated game server
// (sim/server.luau) in Lune with the real drop-in model.
import { spawn } from "node:child_process";
import { ensureSetup } from "./setup.mjs";
import { requireTool } from "./tools.mjs";
import { buildService, startService } from "./service-process.mjs";

const USAGE = `usage: npm start -- [--service URL --key KEY] [--players N] [--minutes M]
  --service URL --key KEY  run against another Staff Operations Service instead of the built-in one
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
const key = option("--key");
if ((external === undefined) !== (key === undefined)) {
	console.error("--service and --key go together\n" + USAGE);
	process.exit(2);
}

ensureSetup();
const build = spawn("node", ["scripts/build.mjs"], { stdio: "inherit" });
if ((await new Promise((resolve) => build.on("exit", resolve))) !== 0) process.exit(1);

let service;
if (external === undefined) {
	if (!buildService()) process.exit(1);
	service = await startService();
	console.log(`[start] built-in reference service at ${service.baseUrl} (default seed)`);
} else {
	service = { baseUrl: external, key, stop: () => {} };
	console.log(`[start] using the service at ${external}`);
}

const lune = requireTool("lune");
const child = spawn(lune, ["run", "sim/server.luau"], {
	stdio: "inherit",
	env: {
		...process.env,
		STAFFOPS_SERVICE_URL: service.baseUrl,
		STAFFOPS_SERVICE_KEY: service.key,
		STAFFOPS_SIM_BUILTIN: external === undefined ? "1" : "0",
		STAFFOPS_SIM_PLAYERS: option("--players") ?? "12",
		STAFFOPS_SIM_MINUTES: option("--minutes") ?? "1",
	},
});
const code = await new Promise((resolve) => child.on("exit", (exitCode) => resolve(exitCode ?? 1)));
service.stop();
process.exit(code);
