// `npm run mutants`: plants small behaviour-changing bugs in src/, one at a time, and checks that the narrowest specs
// covering each one fail. The bugs are listed in scripts/mutants.list.mjs (file, enclosing function, a small
// original snippet, its replacement, Lua name pattern of the specs that cover it; an equivalent mutant carries its
// reason).
//
// The real tree is never touched: src/ and test/ are copied to a scratch directory; each mutant is applied there,
// the test place is compiled incrementally (rbxtsc) and bundled (rojo), and the Lune runner runs the pattern against
// one reference service started for the whole run. A mutant marked `model: true` also rebuilds the drop-in model
// (build/StaffOps.rbxm, which the drop-in and device specs load); the unmutated model is put back after it. The
// unmutated specs run first under every pattern: a pattern that fails before any bug is planted would make its
// mutants look killed, so the run stops.
//
//   node scripts/mutants.mjs [--only ID[,ID...]] [--keep]   (STAFFOPS_MUTANT_TIMEOUT=S: seconds per spec pattern, default 180)
//   node scripts/mutants.mjs --pins       only locate every pin and print where (no build, no run)
//   node scripts/mutants.mjs --repin      after a refactor: rewrite the recorded paths of the pins that moved
//
// Before anything else the run locates every pin (scripts/mutantPins.mjs): in its recorded file's function, else in
// a function of that name anywhere in src/. Pins found away from their recorded place are planted where they were
// found, and counted in a line the run prints (`pins: N in place, N found away from their recorded place, ...`);
// a pin found nowhere, or in several places, stops the run. Prints a line per mutant, the kill rate, and every
// survivor with its explanation. Exits 1 when a survivor has no written reason, a pin is lost or ambiguous, or a
// baseline pattern fails.
import { writeNoticeTexts } from "./notices.mjs";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { requireTool } from "./tools.mjs";
import { ensureSetup } from "./setup.mjs";
import { buildService, startService } from "./service-process.mjs";
import { startProbe } from "./probe-server.mjs";
import { MUTANTS } from "./mutants.list.mjs";
import { describeLocation, locateMutants, plant, repin, summarize } from "./mutantPins.mjs";

const args = process.argv.slice(2);
const onlyIndex = args.indexOf("--only");
const only = onlyIndex >= 0 ? new Set(args[onlyIndex + 1].split(",")) : undefined;
const keep = args.includes("--keep");
// Seconds one spec pattern may run before it counts as stuck. 180 fits an idle two-core machine ("specs bridge", the
// longest pattern, takes about a minute there); on a machine busy with other work it took longer than 180 s and the
// baseline stopped, so a busy machine may give more with STAFFOPS_MUTANT_TIMEOUT.
const PER_RUN_TIMEOUT_S = Number(process.env.STAFFOPS_MUTANT_TIMEOUT ?? "") || 180;

const root = resolve(new URL("..", import.meta.url).pathname);
const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;

// 1. Check the list before spending time on it: unique ids, a real change, and every snippet where the list says.
const ids = new Set();
for (const mutant of MUTANTS) {
	if (ids.has(mutant.id)) throw new Error(`duplicate mutant id ${mutant.id}`);
	ids.add(mutant.id);
	if (mutant.from === mutant.to) throw new Error(`${mutant.id}: the replacement equals the original`);
}
const LIST = "scripts/mutants.list.mjs";
if (args.includes("--repin")) {
	process.chdir(root);
	process.exit(repin(MUTANTS, root, LIST) > 0 ? 1 : 0);
}
const locations = locateMutants(MUTANTS, root);
const locationOf = new Map(locations.map((location) => [location.mutant.id, location]));
for (const location of locations) {
	const line = describeLocation(location);
	if (line !== undefined) console.log(`  ${line}`);
}
console.log(summarize(locations));
const unresolved = locations.filter((location) => !["ok", "moved"].includes(location.status));
if (args.includes("--pins")) {
	// Counted as a suite of npm test: every pin found (a moved one counts), or the mutation run could not start.
	console.log(`${locations.length - unresolved.length} passed, ${unresolved.length} failed`);
	process.exit(unresolved.length > 0 ? 1 : 0);
}
if (unresolved.length > 0) {
	console.error(`[mutants] ${unresolved.length} pins are lost, duplicate or ambiguous: edit them in ${LIST}`);
	process.exit(1);
}
// The run compiles (rbxtsc), bundles (Rojo) and runs specs (Lune); --pins and --repin above need none of them.
ensureSetup(["rojo", "lune"]);
const folders = new Set(MUTANTS.map((mutant) => mutant.file.split("/")[1]));
const selected = MUTANTS.filter((mutant) => only === undefined || only.has(mutant.id));
console.log(`[mutants] ${selected.length} mutants across src/{${[...folders].sort().join(",")}}`);

// 2. The scratch copy: sources, specs, runner, the roblox-ts runtime, and the last test build (incremental start).
const scratch = mkdtempSync(join(tmpdir(), "staffops-mutants-"));
for (const path of [
	"src",
	"test",
	"lune/roblox",
	"model",
	"tsconfig.json",
	"tsconfig.test.json",
	"default.project.json",
	"package.json",
]) {
	cpSync(join(root, path), join(scratch, path), { recursive: true });
}
cpSync(join(root, "node_modules/roblox-ts/include"), join(scratch, "include"), { recursive: true });
symlinkSync(join(root, "node_modules"), join(scratch, "node_modules"), "dir");
mkdirSync(join(scratch, "build"), { recursive: true });
// The model carries the licence texts (default.project.json names them under build/notices).
writeNoticeTexts(join(scratch, "build/notices"));

const rbxtsc = join(root, "node_modules/.bin/rbxtsc");
const rojo = requireTool("rojo");
const lune = requireTool("lune");

/**
 * Builds the drop-in model (build/StaffOps.rbxm) from the scratch src/: the specs that run the model's code (the
 * drop-in specs, the client's device specs) load it. Undefined on success, else the compiler's words.
 */
function buildModel() {
	const compile = spawnSync(rbxtsc, ["--type", "package"], { cwd: scratch, encoding: "utf8" });
	if (compile.status !== 0) return `${compile.stdout}${compile.stderr}`.trim();
	const bundle = spawnSync(rojo, ["build", "default.project.json", "-o", "build/StaffOps.rbxm"], {
		cwd: scratch,
		encoding: "utf8",
	});
	if (bundle.status !== 0) return `${bundle.stdout}${bundle.stderr}`.trim();
	return undefined;
}

/** Compiles src/ + test/ into the test place (build/test-place.rbxl); undefined on success. */
function buildPlace() {
	const compile = spawnSync(
		rbxtsc,
		["-p", "tsconfig.test.json", "--type", "game", "--rojo", "test/place.project.json", "-i", "include"],
		{ cwd: scratch, encoding: "utf8" },
	);
	if (compile.status !== 0) return `${compile.stdout}${compile.stderr}`.trim();
	const bundle = spawnSync(rojo, ["build", "test/place.project.json", "-o", "build/test-place.rbxl"], {
		cwd: scratch,
		encoding: "utf8",
	});
	if (bundle.status !== 0) return `${bundle.stdout}${bundle.stderr}`.trim();
	return undefined;
}

/** The names of the failed specs (leaves of TestEZ's tree: a failed line not followed by a deeper one). */
function failedLeaves(output) {
	// eslint-disable-next-line no-control-regex
	const lines = output.split("\n").map((line) => line.replace(/\x1b\[[0-9;]*m/g, ""));
	const nodes = [];
	for (const line of lines) {
		const match = /^(\s*)\[([-+~?])\] (.*)$/.exec(line);
		if (match) nodes.push({ depth: match[1].length, mark: match[2], name: match[3] });
	}
	return nodes
		.filter((node, i) => node.mark === "-" && !(nodes[i + 1] && nodes[i + 1].depth > node.depth))
		.map((node) => node.name);
}

let env;
function runSpecs(pattern) {
	return new Promise((resolvePromise) => {
		const child = spawn(lune, ["run", "test/runner/run.luau", "build/test-place.rbxl", pattern], {
			cwd: scratch,
			stdio: ["ignore", "pipe", "pipe"],
			env: { ...process.env, ...env, STAFFOPS_TEST_TIMEOUT: String(PER_RUN_TIMEOUT_S) },
		});
		let output = "";
		child.stdout.on("data", (chunk) => (output += chunk));
		child.stderr.on("data", (chunk) => (output += chunk));
		const timer = setTimeout(() => child.kill("SIGKILL"), (PER_RUN_TIMEOUT_S + 30) * 1000);
		child.on("exit", (code) => {
			clearTimeout(timer);
			const counts = [...output.matchAll(/^(\d+) passed, (\d+) failed$/gm)].pop();
			const passed = counts ? Number(counts[1]) : 0;
			const failed = counts ? Number(counts[2]) : 0;
			resolvePromise({ code: code ?? 1, passed, failed, failures: failedLeaves(output), output });
		});
	});
}

let service;
let probe;
const results = [];
/** Baseline patterns that failed once and passed when run again, with the specs that failed. */
const flaky = [];
try {
	if (!buildService()) throw new Error("the reference service did not compile");
	service = await startService();
	probe = await startProbe();
	env = { STAFFOPS_SERVICE_URL: service.baseUrl, STAFFOPS_SERVICE_KEY: service.key, STAFFOPS_PROBE_URL: probe.url };

	// 3. Baseline: every pattern passes on the unmutated tree, and runs at least one spec.
	const problem = buildModel() ?? buildPlace();
	if (problem !== undefined) throw new Error(`the unmutated tree does not build:\n${problem}`);
	const pristineModel = readFileSync(join(scratch, "build/StaffOps.rbxm"));
	const patterns = [...new Set(selected.map((mutant) => mutant.specs))];
	console.log(`[mutants] baseline: ${patterns.length} spec patterns on the unmutated tree`);
	for (const pattern of patterns) {
		let run = await runSpecs(pattern);
		if (run.code !== 0 && run.passed > 0) {
			// A pattern that fails once and passes when run again is a flaky spec, not a broken tree: say which specs
			// failed (each is a spec to make deterministic), and go on; the verdict lists them again.
			const failures = run.failures;
			run = await runSpecs(pattern);
			if (run.code === 0) {
				flaky.push({ pattern, failures });
				console.log(`  FLAKY     "${pattern}": failed once, then passed: ${failures.join(" / ")}`);
			}
		}
		if (run.code !== 0 || run.passed === 0) {
			console.log(run.output);
			throw new Error(`baseline: pattern "${pattern}" fails (or runs nothing) before any bug is planted`);
		}
		console.log(`  ok  ${String(run.passed).padStart(3)} specs  "${pattern}"`);
	}

	// 4. One mutant at a time, always restored.
	let index = 0;
	for (const mutant of selected) {
		index += 1;
		// Planted where its pin was found (the scratch copy is the tree the pins were located in).
		const location = locationOf.get(mutant.id);
		const path = join(scratch, location.file);
		const original = readFileSync(path, "utf8");
		let result;
		try {
			writeFileSync(path, plant(original, location));
			const problem = (mutant.model ? buildModel() : undefined) ?? buildPlace();
			if (problem !== undefined) {
				result = { status: "invalid", detail: problem.split("\n").slice(0, 3).join(" | ") };
			} else {
				const run = await runSpecs(mutant.specs);
				if (run.code !== 0) {
					const detail =
						run.failed > 0
							? `${run.failed} failed: ${run.failures.slice(0, 2).join(" / ")}`
							: "the run errored or timed out";
					result = { status: "killed", detail };
				} else {
					result = { status: "survived", detail: `${run.passed} specs passed` };
				}
			}
		} finally {
			writeFileSync(path, original);
			if (mutant.model) writeFileSync(join(scratch, "build/StaffOps.rbxm"), pristineModel);
		}
		results.push({ mutant, ...result });
		const mark = { killed: "KILLED  ", survived: "SURVIVED", invalid: "INVALID " }[result.status];
		console.log(
			`[${String(index).padStart(2)}/${selected.length}] ${mark} ${mutant.id} (${location.file}) ${elapsed()}: ${result.detail}`,
		);
	}
} finally {
	service?.stop();
	probe?.close();
	if (!keep) rmSync(scratch, { recursive: true, force: true });
	else console.log(`[mutants] scratch copy kept at ${scratch}`);
}

// 5. The verdict.
const killed = results.filter((result) => result.status === "killed");
const survived = results.filter((result) => result.status === "survived");
const invalid = results.filter((result) => result.status === "invalid");
const counted = killed.length + survived.length;
const rate = counted > 0 ? (100 * killed.length) / counted : 0;
console.log(
	`\n== mutants: ${killed.length} killed, ${survived.length} survived of ${counted} (${rate.toFixed(1)} %)` +
		`${invalid.length > 0 ? `, ${invalid.length} did not compile` : ""}; ${elapsed()}`,
);
let unexplained = 0;
for (const result of survived) {
	const { equivalent } = result.mutant;
	if (equivalent === undefined) unexplained += 1;
	console.log(`  survivor ${result.mutant.id} (${result.mutant.file}): ${result.mutant.what}`);
	console.log(`    ${equivalent !== undefined ? `equivalent: ${equivalent}` : "NOT EXPLAINED: a spec is missing"}`);
}
for (const result of invalid) console.log(`  did not compile: ${result.mutant.id}: ${result.detail}`);
for (const { pattern, failures } of flaky) {
	console.log(`  flaky in the baseline: "${pattern}": ${failures.join(" / ")} (a kill on it may be that flake)`);
}
process.exit(unexplained > 0 || invalid.length > 0 || rate < 95 ? 1 : 0);
