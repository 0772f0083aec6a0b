// `npm test`: builds everything, lints (TS/JS and Luau), checks the README's examples, the Markdown's links and the
// promise ledger's spec names and the mutant pins, runs the reference service's contract tests (node:test),
// checks the TestEZ runner's own time limits with a spec made to hang ("runner self-test"), starts the reference
// service on a loopback port and runs every TestEZ spec in Lune against it twice, under Deferred and then Immediate
// signals (two summary rows, "TestEZ (Deferred)" and "TestEZ (Immediate)"; a spec that never yields is stopped from
// here and the run resumed after it, CONTRIBUTING.md#time-limits-progress-and-a-busy-machine), checks the Wally
// package from a Wally user's project (test/wally-consumer/) and unzipped as docs/install.md says, checks the typed
// Luau entry (scripts/luau-types.mjs),
// then two small soaks (scripts/soak.mjs --small, interface and deployed) against a service of their own. Prints one line per suite and, last,
// the sum as `N passed, N failed`; exits non-zero on any failure or when no test ran.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { requireTool, TOOL_NAMES } from "./tools.mjs";
import { ensureSetup } from "./setup.mjs";
import { startProbe } from "./probe-server.mjs";
import { buildService, startService } from "./service-process.mjs";

const USAGE = `usage: node scripts/test.mjs [--lune-only] [--filter PATTERN] [--no-soak] [--signals MODE]
  --lune-only       skip lint, the README examples, the link check, the service contract tests and the Wally consumer (quicker while working on specs)
  --filter PATTERN  run only TestEZ specs whose full name matches the Lua pattern (skips the small soak)
  --no-soak         skip the small soak
  --signals MODE    run the TestEZ specs once, with Immediate or Deferred signals (default: every spec Deferred,
                    then every spec again Immediate)
  --runner-self-test  build, then run only the check of the TestEZ runner's time limits ("runner self-test")`;

const args = process.argv.slice(2);
if (args.includes("--help")) {
	console.log(USAGE);
	process.exit(0);
}
const selfTestOnly = args.includes("--runner-self-test");
const luneOnly = args.includes("--lune-only") || selfTestOnly;
const filterIndex = args.indexOf("--filter");
const filter = filterIndex >= 0 ? args[filterIndex + 1] : undefined;
const soak = !args.includes("--no-soak") && filter === undefined && !selfTestOnly;

const suites = [];
/**
 * Minutes one Lune process of a TestEZ run may take before it is stopped from here (and the run resumed after the spec
 * it was in): about 6 on an idle two-core machine, 15 to 20 on a busy one (STAFFOPS_TEST_WALL_MINUTES changes it).
 * Each spec has its own, shorter limit (test/runner/limits.luau); this one is the backstop.
 */
const WALL_MINUTES = Number(process.env.STAFFOPS_TEST_WALL_MINUTES ?? "") || 30;

function run(label, command, commandArgs, options = {}) {
	console.log(`\n== ${label}`);
	const result = spawnSync(command, commandArgs, {
		stdio: ["ignore", "pipe", "inherit"],
		encoding: "utf8",
		...options,
	});
	process.stdout.write(result.stdout ?? "");
	return { status: result.status ?? 1, stdout: result.stdout ?? "" };
}

/**
 * The failed TestEZ specs in a run's report, each as its path ("server > shutdownCalls > shutdown > ends ..."): the
 * report marks a failed node `[-]` at its depth, and a failed spec is a `[-]` line with no deeper `[-]` line under it.
 * The summary repeats them, so the last lines of a long run (all a CI log may keep) say what failed.
 */
function failedSpecs(text) {
	// eslint-disable-next-line no-control-regex
	const lines = text.replace(/\x1b\[[0-9;]*m/g, "").split("\n");
	const marked = [];
	for (const line of lines) {
		const match = /^( *)\[-\] (.*)$/.exec(line);
		if (match) marked.push({ depth: match[1].length, name: match[2].trim() });
	}
	const failed = [];
	const path = [];
	marked.forEach((node, index) => {
		while (path.length > 0 && path[path.length - 1].depth >= node.depth) path.pop();
		path.push(node);
		const next = marked[index + 1];
		if (next === undefined || next.depth <= node.depth) {
			failed.push(
				path
					.map((step) => step.name)
					.filter((name) => name !== "Tests" && name !== "specs")
					.join(" > "),
			);
		}
	});
	return failed;
}

function lastCounts(text, pattern) {
	const matches = [...text.matchAll(pattern)];
	return matches.length > 0 ? matches[matches.length - 1] : undefined;
}

// Every tool up front, each build announced with its time, so nothing builds in the middle of the suites: the Luau
// lint needs StyLua and selene, the Luau types suite the type checker; --lune-only needs Rojo and Lune alone.
ensureSetup(luneOnly ? ["rojo", "lune"] : TOOL_NAMES);

// 1. Build: npm package, drop-in model, test place.
if (run("build", "node", ["scripts/build.mjs", "--tests"]).status !== 0) {
	console.log("\n0 passed, 1 failed");
	process.exit(1);
}

// 2. Lint: counts as one check.
if (!luneOnly) {
	const lint = run("lint (eslint, prettier, stylua, selene)", "npm", ["run", "--silent", "lint"]);
	suites.push({ name: "lint", passed: lint.status === 0 ? 1 : 0, failed: lint.status === 0 ? 0 : 1 });
}

/**
 * Runs a node script that prints `N passed, N failed` last and adds its counts as the suite `name` (a non-zero exit
 * with no failure counted counts as one).
 */
function countedScript(name, label, script, scriptArgs = []) {
	const result = run(label, "node", [script, ...scriptArgs]);
	const counts = lastCounts(result.stdout, /^(\d+) passed, (\d+) failed$/gm);
	const passed = counts ? Number(counts[1]) : 0;
	let failed = counts ? Number(counts[2]) : 0;
	if (result.status !== 0 && failed === 0) failed = 1;
	suites.push({ name, passed, failed });
}

if (!luneOnly && filter === undefined) {
	// 2b. The README's examples: each TypeScript block compiled by rbxtsc in a fixture game, each Luau block compiled
	// by Luau, each JSON block parsed.
	countedScript("README examples", "README examples (rbxtsc, luau.compile)", "scripts/readme-examples.mjs");
	// 2c. Every relative link and #anchor of the README, docs/, CONTRIBUTING.md, CHANGELOG.md and the READMEs beside
	// the code resolves (one `not ok` per broken link).
	countedScript("Markdown links", "links and anchors in the Markdown", "scripts/check-links.mjs");
	// 2d. The promise ledger (test/promises.md): every spec it names for a documented promise still exists (one
	// `not ok` per spec not found), so a renamed or removed spec cannot leave a promise silently unchecked.
	countedScript("Promise ledger", "promise ledger (test/promises.md)", "scripts/check-promises.mjs");
	// The mutation run (npm run mutants) is too slow for npm test, but that every planted bug still finds its place
	// in src/ is quick to check: a change that moves or rewrites pinned code says so here, not in the next mutation run.
	countedScript("Mutant pins", "mutant pins (scripts/mutants.list.mjs)", "scripts/mutants.mjs", ["--pins"]);
	// 2e. Every command the documents give sets itself up before it loads anything from node_modules, so each works as
	// the first command in a fresh clone (statically, and run up to its set-up in a copy without node_modules).
	countedScript("Fresh clone commands", "documented commands from a fresh clone", "scripts/fresh-commands.mjs");
	// 2f. One version everywhere it is written (package.json, the lock, the library's VERSION, the install lines, the
	// CHANGELOG's dated section): npm run release refuses to build otherwise.
	countedScript("Version", "one version everywhere (scripts/version.mjs)", "scripts/version.mjs");
	// 2g. The tools' first-build figures (idle and busy machine) that install-tools.sh announces are the ones the
	// README, CONTRIBUTING.md and docs/install.md give.
	countedScript(
		"Tool build figures",
		"tools' first-build figures (scripts/tool-figures.mjs)",
		"scripts/tool-figures.mjs",
	);
}

// 3. The reference service's own contract tests.
if (!luneOnly) {
	const serviceBuild = run("reference service: build", "node", ["scripts/service.mjs", "--build-only"]);
	if (serviceBuild.status !== 0) {
		suites.push({ name: "service contract", passed: 0, failed: 1 });
	} else {
		const contract = run("reference service: contract tests (node:test)", "node", [
			"--test",
			"--test-reporter=spec",
			"build/service/test/",
		]);
		const pass = lastCounts(contract.stdout, /^\S* ?pass (\d+)$/gm);
		const fail = lastCounts(contract.stdout, /^\S* ?fail (\d+)$/gm);
		const passed = pass ? Number(pass[1]) : 0;
		let failed = fail ? Number(fail[1]) : 0;
		if (contract.status !== 0 && failed === 0) failed = 1;
		suites.push({ name: "service contract", passed, failed });
	}
}

/** Starts a reference service; on failure prints why and returns undefined (the caller counts one failure). */
async function startServiceOrReport() {
	try {
		return await startService();
	} catch (error) {
		console.error(`[test] ${error.message}`);
		return undefined;
	}
}

// 4. TestEZ specs in Lune, against the reference service on a loopback port.
/**
 * Seconds a spec may run past its file's limit (test/runner/limits.luau) before it is stopped from here: the
 * runner's own timer stops a spec at its first yield past the limit, so a spec still running this long after it
 * never yields, and only stopping the Lune process ends it.
 */
const STUCK_GRACE_SECONDS = 60;
/** How many times one TestEZ run is resumed after a spec stopped from here, before the rest is given up. */
const MAX_RESUMES = 3;

/** The runner's progress file (test/runner/run.luau, STAFFOPS_TEST_PROGRESS), or undefined before it is written. */
function readProgress(path) {
	try {
		return JSON.parse(readFileSync(path, "utf8"));
	} catch {
		return undefined;
	}
}

/** A spec's full name as the runner writes it ("Tests > specs > bridge > ..."), as the summary names specs. */
function specName(fullName) {
	return fullName
		.split(" > ")
		.filter((name, index) => !(index < 2 && (name === "Tests" || name === "specs")))
		.join(" > ");
}

/**
 * One Lune process of the TestEZ runner. Stops it from here when a spec runs STUCK_GRACE_SECONDS past its file's
 * limit (it never yields) or the whole run passes WALL_MINUTES, and then returns what the runner had finished
 * (its progress file) and the spec that was running, as `stuck`. Says, every 30 s, when the runner has printed
 * nothing for 35 s.
 */
async function runLuneOnce({ signals, pattern, service, probe, resumeAfter, env = {}, graceSeconds, echo }) {
	const lune = requireTool("lune");
	const luneArgs = ["run", "test/runner/run.luau", "build/test-place.rbxl"];
	if (pattern) luneArgs.push(pattern);
	const progressPath = join(mkdtempSync(join(tmpdir(), "staffops-progress-")), "progress.json");
	const child = spawn(lune, luneArgs, {
		stdio: ["ignore", "pipe", "inherit"],
		env: {
			...process.env,
			STAFFOPS_SERVICE_URL: service.baseUrl,
			STAFFOPS_SERVICE_KEY: service.key,
			STAFFOPS_PROBE_URL: probe.url,
			STAFFOPS_SIGNAL_BEHAVIOR: signals,
			STAFFOPS_TEST_PROGRESS: progressPath,
			STAFFOPS_TEST_RESUME_AFTER: resumeAfter ?? "",
			...env,
		},
	});
	let output = "";
	let lastOutput = Date.now();
	child.stdout.on("data", (chunk) => {
		output += chunk;
		lastOutput = Date.now();
		if (echo) process.stdout.write(chunk);
	});
	const started = Date.now();
	let stuck;
	let lastNotice = Date.now();
	const stop = (progress, why) => {
		stuck = { progress, why };
		console.log(`\n[test] stopped the ${signals} run: ${why}`);
		child.kill("SIGKILL");
	};
	const watch = setInterval(() => {
		if (stuck !== undefined) return;
		const progress = readProgress(progressPath);
		const now = Date.now();
		const running = progress?.running ?? "(before the first spec)";
		if (now - started > WALL_MINUTES * 60_000) {
			stop(progress, `still running after ${WALL_MINUTES} minutes; the spec running was: ${running}`);
			return;
		}
		if (progress !== undefined && progress.limitSeconds > 0) {
			const ranSeconds = now / 1000 - progress.startedAt;
			if (ranSeconds > progress.limitSeconds + graceSeconds) {
				stop(
					progress,
					`${running} has run ${Math.round(ranSeconds)} s, past its file's limit of ` +
						`${progress.limitSeconds} s, without yielding (so the runner could not stop it)`,
				);
				return;
			}
		}
		// The runner prints at least every 30 s while its scheduler runs; more silence means a spec is holding it.
		if (now - lastOutput > 35_000 && now - lastNotice > 30_000) {
			lastNotice = now;
			const since = progress === undefined ? "" : ` for ${Math.round(now / 1000 - progress.startedAt)} s`;
			console.log(
				`[test] the ${signals} run has printed nothing for ${Math.round((now - lastOutput) / 1000)} s; ` +
					`running: ${running}${since}`,
			);
		}
	}, 1000);
	const code = await new Promise((resolve) => child.on("exit", (exitCode) => resolve(exitCode ?? 1)));
	clearInterval(watch);
	return { code, output, stuck };
}

/**
 * Runs the TestEZ specs matching `pattern` under `signals`. When a spec is stopped from outside, counts it as failed
 * with what the runner had finished before it, and runs the rest again from the spec after it (at most MAX_RESUMES
 * times), so one stuck spec does not cost the others' results.
 */
async function runLune(
	signals = "Deferred",
	pattern = filter,
	{ env, graceSeconds = STUCK_GRACE_SECONDS, echo = true, title = "TestEZ specs in Lune" } = {},
) {
	if (luneOnly && !buildService()) return { passed: 0, failed: 1 };
	const totals = { passed: 0, failed: 0, failedSpecs: [], stuckSpecs: [], outputs: [] };
	let resumeAfter;
	for (let attempt = 0; attempt <= MAX_RESUMES; attempt++) {
		const service = await startServiceOrReport();
		if (service === undefined) return { ...totals, failed: totals.failed + 1 };
		const probe = await startProbe();
		const resuming = resumeAfter === undefined ? "" : `, resumed after ${specName(resumeAfter)}`;
		console.log(`\n== ${title}, ${signals} signals (service ${service.baseUrl}${resuming})`);
		const run = await runLuneOnce({ signals, pattern, service, probe, resumeAfter, env, graceSeconds, echo });
		service.stop();
		probe.close();
		totals.outputs.push(run.output);
		if (run.stuck === undefined) {
			const counts = lastCounts(run.output, /^(\d+) passed, (\d+) failed$/gm);
			const passed = counts ? Number(counts[1]) : 0;
			let failed = counts ? Number(counts[2]) : 0;
			if (run.code !== 0 && failed === 0) failed = 1;
			totals.passed += passed;
			totals.failed += failed;
			totals.failedSpecs.push(...failedSpecs(run.output));
			return totals;
		}
		// Stopped from here: the runner's progress file holds what it finished before the stuck spec.
		const progress = run.stuck.progress;
		const stuckName = specName(progress?.running ?? "(before the first spec)");
		totals.passed += progress?.passed ?? 0;
		totals.failed += (progress?.failed ?? 0) + 1;
		totals.failedSpecs.push(
			...(progress?.failedSpecs ?? []).map(specName),
			`${stuckName} (stuck: ${run.stuck.why})`,
		);
		totals.stuckSpecs.push(stuckName);
		const next = progress?.resumeAfter;
		if (next === undefined || next === "" || next === resumeAfter) {
			console.log(`[test] the ${signals} run cannot be resumed (no spec had finished); the rest gave no result`);
			return totals;
		}
		if (attempt === MAX_RESUMES) {
			console.log(`[test] the ${signals} run was stopped ${MAX_RESUMES + 1} times; the rest gave no result`);
			return totals;
		}
		console.log(`[test] resuming the ${signals} run after ${specName(next)}`);
		resumeAfter = next;
	}
	return totals;
}

// Roblox's default signal behaviour is Immediate; places can opt into Deferred. Every spec runs under both: Deferred
// (as most were written), then Immediate, where handlers on PlayerAdded, remotes and buttons run inline
// (docs/roblox-fidelity.md). --signals Immediate|Deferred picks one mode for a narrow run.
const signalsIndex = args.indexOf("--signals");
const onlySignals = signalsIndex >= 0 ? args[signalsIndex + 1] : undefined;
const signalModes =
	onlySignals !== undefined ? [onlySignals] : filter === undefined ? ["Deferred", "Immediate"] : ["Deferred"];
/**
 * The runner's check of its own time limits: test/specs/harness/runnerSelfTest.spec.ts with STAFFOPS_RUNNER_SELFTEST
 * set (its file's limit is 3 s). One spec waits past the limit in a bounded wait, one never yields past it, and one
 * comes after them. Four checks: the first fails by name, saying what it waited for, within its file's limit; the
 * second is stopped from here and named; the third still runs and passes in the run resumed after it.
 */
async function runnerSelfTest() {
	const file = "harness > runnerSelfTest > the runner's time limits";
	// Its output (the report lists every other spec as skipped) is shown only when a check fails.
	const run = await runLune("Deferred", "runnerSelfTest", {
		env: { STAFFOPS_RUNNER_SELFTEST: "1" },
		graceSeconds: 5,
		echo: false,
		title: "runner self-test: test/specs/harness/runnerSelfTest.spec.ts, made to hang",
	});
	// eslint-disable-next-line no-control-regex
	const first = (run.outputs[0] ?? "").replace(/\x1b\[[0-9;]*m/g, "");
	const last = run.outputs[run.outputs.length - 1] ?? "";
	const failedLine = first.indexOf(`failed: Tests > specs > ${file} > stops a spec that waits past its file's limit`);
	const message = failedLine >= 0 ? (first.slice(failedLine).split("\n")[1] ?? "") : "";
	const timing = /limit of ([\d.]+) s .*stopped after ([\d.]+) s/.exec(message);
	const checks = [
		[
			"a spec waiting past its file's limit fails by name, saying what it waited for",
			message.includes("waiting for: a condition that never holds (the runner's self-test)"),
		],
		["... within its file's limit (and a second)", timing !== null && Number(timing[2]) <= Number(timing[1]) + 1],
		[
			"a spec that never yields is stopped from outside and named",
			run.stuckSpecs.includes(`${file} > stops a spec that never yields past its file's limit`),
		],
		[
			"the spec after them runs, in the run resumed after the stuck one, and passes",
			run.outputs.length === 2 &&
				/^1 passed, 0 failed$/m.test(last) &&
				last.includes("runs the specs after the stuck ones"),
		],
	];
	console.log("\n== runner self-test (test/runner/run.luau's time limits, scripts/test.mjs's resume)");
	for (const [name, ok] of checks) console.log(`${ok ? "ok" : "not ok"} - ${name}`);
	const passed = checks.filter(([, ok]) => ok).length;
	if (passed < checks.length) for (const output of run.outputs) process.stdout.write(output);
	return { name: "runner self-test", passed, failed: checks.length - passed };
}
if (filter === undefined) suites.push(await runnerSelfTest());

const testEzRuns = [];
for (const mode of selfTestOnly ? [] : signalModes) {
	const suite = { name: `TestEZ (${mode})`, ...(await runLune(mode)) };
	suites.push(suite);
	testEzRuns.push(suite);
}

// 5. The Wally package as a Wally user's project depends on it (build/wally-consumer.rbxl), against a service of
// its own: each check prints `ok`/`not ok`, the last line `N passed, N failed`.
async function runWallyConsumer(label, place, layout = []) {
	const service = await startServiceOrReport();
	if (service === undefined) return { passed: 0, failed: 1 };
	const version = JSON.parse(readFileSync("package.json", "utf8")).version;
	const result = run(
		label,
		requireTool("lune"),
		["run", "test/wally-consumer/check.luau", place, version, ...layout],
		{
			env: { ...process.env, STAFFOPS_SERVICE_URL: service.baseUrl, STAFFOPS_SERVICE_KEY: service.key },
		},
	);
	service.stop();
	const counts = lastCounts(result.stdout, /^(\d+) passed, (\d+) failed$/gm);
	const passed = counts ? Number(counts[1]) : 0;
	let failed = counts ? Number(counts[2]) : 0;
	if (result.status !== 0 && failed === 0) failed = 1;
	return { passed, failed };
}
if (!luneOnly && filter === undefined) {
	suites.push({
		name: "Wally consumer",
		...(await runWallyConsumer(
			"Wally package in a Wally user's project (test/wally-consumer)",
			"build/wally-consumer.rbxl",
		)),
	});
	// The same project with the release's zip unzipped as docs/install.md says (no Wally registry needed).
	suites.push({
		name: "Wally zip unzipped",
		...(await runWallyConsumer(
			"the Wally zip unzipped into the same project (docs/install.md)",
			"build/wally-unzipped.rbxl",
			["unzipped"],
		)),
	});
}

// 5b. Every Luau block of the README run where it says it goes, beside the drop-in model or in a Wally user's place,
// against a service of its own (scripts/readme-luau.mjs prints `ok`/`not ok` per check, last `N passed, N failed`).
if (!luneOnly && filter === undefined) {
	const blocks = run("README Luau blocks run (lune/readme/)", "node", ["scripts/readme-luau.mjs"]);
	const counts = lastCounts(blocks.stdout, /^(\d+) passed, (\d+) failed$/gm);
	const passed = counts ? Number(counts[1]) : 0;
	let failed = counts ? Number(counts[2]) : 0;
	if (blocks.status !== 0 && failed === 0) failed = 1;
	suites.push({ name: "README Luau runs", passed, failed });
}

// 6. The typed Luau entry (model/init.luau): its names agree with the TypeScript, and Luau code written against it
// type-checks (scripts/luau-types.mjs prints `ok`/`not ok` per check, the last line `N passed, N failed`).
if (!luneOnly) {
	const types = run("Luau types (model/init.luau against src/, Luau's type checker)", "node", [
		"scripts/luau-types.mjs",
	]);
	const counts = lastCounts(types.stdout, /^(\d+) passed, (\d+) failed$/gm);
	const passed = counts ? Number(counts[1]) : 0;
	let failed = counts ? Number(counts[2]) : 0;
	if (types.status !== 0 && failed === 0) failed = 1;
	suites.push({ name: "Luau types", passed, failed });
}

// 7. Two small soaks (scripts/soak.mjs --small): the shipped model under random faults against its own reference
// service, as a service of the interface and as the deployed one. Checks: the joins the service recorded equal the
// joins that happened; no error surfaced to game code; for the deployed one, its figures (actions lost only with
// their lost answer, no chat message stored twice, no call created twice or left open, no granted visit deleted).
function smallSoak(name, extraArgs) {
	const small = run(`${name}: random faults against the reference service`, "node", [
		"scripts/soak.mjs",
		"--small",
		"--no-build",
		...extraArgs,
	]);
	const verdict = /^SOAK VERDICT joins_equal=(\w+) errors_surfaced=(\d+)(?: deployed_figures=(\w+))? /m.exec(
		small.stdout,
	);
	if (verdict === null) {
		suites.push({ name, passed: 0, failed: 1 });
		return;
	}
	const checks = [verdict[1] === "true", verdict[2] === "0"];
	if (extraArgs.length > 0) checks.push(verdict[3] === "PASS");
	const passed = checks.filter(Boolean).length;
	const failed = checks.length - passed;
	suites.push({ name, passed, failed: failed === 0 && small.status !== 0 ? 1 : failed });
}
if (soak) {
	smallSoak("soak (small)", []);
	smallSoak("soak deployed (small)", ["--profile", "deployed"]);
}

console.log("\n== summary");
let passed = 0;
let failed = 0;
const nameWidth = Math.max(...suites.map((suite) => suite.name.length));
for (const suite of suites) {
	console.log(`${suite.name.padEnd(nameWidth)} ${suite.passed} passed, ${suite.failed} failed`);
	passed += suite.passed;
	failed += suite.failed;
}
// The two TestEZ rows are the same specs, run once per signal mode; say so, so the total is not read as twice the specs.
if (testEzRuns.length === 2) {
	const [deferred, immediate] = testEzRuns;
	console.log(
		`(the TestEZ rows run the same specs twice, under Deferred then Immediate signals: ` +
			`${deferred.passed + deferred.failed} and ${immediate.passed + immediate.failed} results; the total counts both runs)`,
	);
}
for (const run of testEzRuns) {
	for (const spec of run.failedSpecs ?? []) console.log(`failed in ${run.name}: ${spec}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
