// `npm run test:busy`: runs `npm test` (or the command given) with busy loops beside it, two by default (the
// two cores of the machines StaffOps is tested on), so anyone can check that the specs pass on a loaded machine: a
// spec that waits on real time without a bound, or that loses a step when its process is descheduled, hangs or
// fails only there (issue 40).
//
//   node scripts/busy-test.mjs [--loops N] [--max-minutes M] [-- COMMAND ARGS...]
//   npm run test:busy -- COMMAND ARGS...      (npm takes the first `--` for itself: the command is the first word
//                                             that is not one of this script's options, with or without a `--`)
//
// Each loop is a Node process spinning at full speed. They stop when the command ends, and each stops by itself when
// this script is gone or after --max-minutes (default 180), so none outlives the check. Exits with the command's
// status; the last line says how long it ran and the load average.
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { ensureSetup } from "./setup.mjs";

const USAGE = `usage: node scripts/busy-test.mjs [--loops N] [--max-minutes M] [-- COMMAND ARGS...]
  --loops N          busy loops beside the command (default 2)
  --max-minutes M    each loop stops by itself after M minutes (default 180)
  COMMAND ARGS...    what to run (default: npm test)`;

/** This script's own options and the command after them: after a `--`, or from the first word that is not an option. */
function splitArgs(args) {
	const own = [];
	for (let index = 0; index < args.length; index++) {
		const word = args[index];
		if (word === "--") return { own, command: args.slice(index + 1) };
		if (word === "--loops" || word === "--max-minutes") own.push(word, args[++index]);
		else if (word === "--help") own.push(word);
		else return { own, command: args.slice(index) };
	}
	return { own, command: ["npm", "test"] };
}
const { own, command } = splitArgs(process.argv.slice(2));
if (own.includes("--help") || command.length === 0) {
	console.log(USAGE);
	process.exit(own.includes("--help") ? 0 : 2);
}
// The npm packages first, as every documented command does (the command it runs sets up its own tools).
ensureSetup([]);

function option(name, fallback) {
	const index = own.indexOf(name);
	if (index < 0) return fallback;
	const value = Number(own[index + 1]);
	if (!Number.isFinite(value) || value < 0) {
		console.error(`${name} takes a number\n${USAGE}`);
		process.exit(2);
	}
	return value;
}
const loopCount = option("--loops", 2);
const maxMinutes = option("--max-minutes", 180);

// A loop checks every million turns or so whether it should stop: past its deadline, or this script gone (a child
// is handed to another parent as soon as its parent exits, even before that one is reaped).
const LOOP = `
const deadline = Number(process.argv[1]);
const parent = Number(process.argv[2]);
for (let turn = 1; ; turn++) {
	if (turn % 1_000_000 === 0 && (Date.now() > deadline || process.ppid !== parent)) break;
}`;
const deadline = Date.now() + maxMinutes * 60_000;
const loops = [];
for (let index = 0; index < loopCount; index++) {
	loops.push(spawn(process.execPath, ["-e", LOOP, String(deadline), String(process.pid)], { stdio: "ignore" }));
}
function stopLoops() {
	for (const loop of loops) if (loop.exitCode === null) loop.kill("SIGKILL");
}

const started = Date.now();
const load = () =>
	loadavg()
		.map((value) => value.toFixed(2))
		.join(", ");
console.log(
	`[busy] ${loopCount} busy loop(s) (pids ${loops.map((loop) => loop.pid).join(", ") || "none"}) beside: ` +
		`${command.join(" ")} (load average now ${load()})`,
);
const child = spawn(command[0], command.slice(1), { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) {
	process.on(signal, () => {
		stopLoops();
		child.kill(signal);
	});
}
child.on("error", (error) => {
	stopLoops();
	console.error(`[busy] could not run ${command[0]}: ${error.message}`);
	process.exit(1);
});
child.on("exit", (code, signal) => {
	stopLoops();
	const minutes = ((Date.now() - started) / 60_000).toFixed(1);
	console.log(
		`[busy] ${command.join(" ")} ${signal ? `was stopped by ${signal}` : `exited ${code}`} after ${minutes} min ` +
			`beside ${loopCount} busy loop(s) (load average ${load()})`,
	);
	process.exit(code ?? 1);
});
