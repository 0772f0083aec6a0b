// The Luau types check (a suite of `npm test`): the typed entry (model/init.luau), which the drop-in model and the
// Wally package ship, states the library's public surface for Luau users by hand, so this suite keeps it honest.
//
// 1. Names: each Luau type named like an export of the npm package has exactly that TypeScript type's public members
//    (read from the built declarations, out/index.d.ts: StaffOps, StaffOpsServer, the settings, the
//    api client and its namespaces, the records), and every exported type those members name has a Luau type
//    (scripts/luau-api.mjs; the few TypeScript-only members are listed there with the reason).
// 2. Syntax: the entry, the type-check consumers (test/luau-types/) and the example place's scripts compile (Lune's
//    @lune/luau, the Luau compiler Roblox runs).
// 3. Types: Luau's own type checker (strict mode, new solver; tools/luau-typecheck, built once per machine by
//    scripts/install-tools.sh) finds no error in test/luau-types/consumer.luau and examples/src/server/*.luau, and in
//    test/luau-types/misuse.luau exactly the lines marked `expect-error`. The checker reads one file and resolves no
//    `require`, so each consumer is checked appended to the entry: its `local StaffOpsModule = require(...)` line
//    becomes the entry's value and `StaffOpsModule.SomeType` its exported type.
//
// Prints `ok - ...` / `not ok - ...` per check, then `N passed, N failed`; exits 1 on any failure.
//   node scripts/luau-types.mjs
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { requireTool } from "./tools.mjs";
import { compareWithTypescript, typescriptApi } from "./luau-api.mjs";

const ENTRY = "model/init.luau";
const DEFINITIONS = "test/luau-types/roblox.d.luau";
const CONSUMER = "test/luau-types/consumer.luau";
const MISUSE = "test/luau-types/misuse.luau";
const EXAMPLE_SERVER = "examples/src/server";
const WORK = "build/luau-types";

let passed = 0;
let failed = 0;
function check(label, ok, detail) {
	if (ok) passed += 1;
	else failed += 1;
	console.log(`${ok ? "ok" : "not ok"} - ${label}${!ok && detail ? `: ${detail}` : ""}`);
}

// The names, against the package's built declarations (scripts/luau-api.mjs): out/ is the npm package, compiled by the
// build that runs before this suite in npm test, and here when it is missing.
function checkNames(entry) {
	if (!existsSync("out/index.d.ts")) spawnSync("node", ["scripts/build.mjs", "--package"], { stdio: "inherit" });
	const api = typescriptApi();
	for (const result of compareWithTypescript(entry, api)) check(result.label, result.ok, result.detail);
	// The comparison must be able to fail: the entry without one of StaffOpsServer's methods is reported.
	const dropped = entry.replace(/^\tgetRegistrationFacts: .*\n/m, "");
	const caught = compareWithTypescript(dropped, api).some(
		(result) => !result.ok && result.detail.includes("getRegistrationFacts"),
	);
	check(
		"a member missing from the Luau types is reported (getRegistrationFacts dropped)",
		dropped !== entry && caught,
	);
}

// Lune's @lune/luau compiles each file: a syntax error (or Luau newer than Roblox's) fails here.
function checkSyntax(files) {
	mkdirSync(WORK, { recursive: true });
	const script = join(WORK, "compile.luau");
	writeFileSync(
		script,
		[
			'local fs = require("@lune/fs")',
			'local luau = require("@lune/luau")',
			'local process = require("@lune/process")',
			"for _, path in process.args do",
			"\tlocal ok, problem = pcall(luau.compile, fs.readFile(path))",
			"\tprint(if ok then `compiled {path}` else `failed {path}: {problem}`)",
			"end",
			"",
		].join("\n"),
	);
	const result = spawnSync(requireTool("lune"), ["run", script, ...files], { encoding: "utf8" });
	for (const file of files) {
		const line = (result.stdout ?? "")
			.split("\n")
			.find((text) => text.endsWith(file) || text.includes(` ${file}:`));
		check(`${file} compiles (Luau syntax)`, line === `compiled ${file}`, line ?? result.stderr?.trim());
	}
}

// The entry as the start of a single file: its runtime block (which loads compiled, untyped Luau) becomes an `any`,
// and its `return` a local the consumer's require line is pointed at.
function entryPrelude(entry) {
	const runtime = /-- runtime:begin[^\n]*\n[\s\S]*?-- runtime:end\n/;
	const ret = /\nreturn library :: StaffOpsModule\s*$/;
	if (!runtime.test(entry) || !ret.test(entry)) return undefined;
	return entry
		.replace(runtime, "local library: any = nil\n")
		.replace(ret, "\nlocal __entry: StaffOpsModule = library\n");
}

function combined(prelude, consumerPath, typeNames) {
	const consumer = readFileSync(consumerPath, "utf8")
		.replace(/^--!strict\n/, "\n")
		.replace(/^local StaffOpsModule = require\(.*\)$/m, "local StaffOpsModule = __entry")
		.replace(/\bStaffOpsModule\.(\w+)/g, (whole, name) => (typeNames.has(name) ? name : whole));
	return { source: prelude + consumer, offset: prelude.split("\n").length - 1 };
}

function runChecker(binary, name, source) {
	const file = join(WORK, `${name}.luau`);
	writeFileSync(file, source);
	const result = spawnSync(binary, [DEFINITIONS, file], { encoding: "utf8" });
	const errors = [...(result.stdout ?? "").matchAll(/^[^\n]*?:(\d+):(\d+): error: (.*)$/gm)].map((m) => ({
		line: Number(m[1]),
		message: m[3],
	}));
	return { status: result.status, errors, stderr: (result.stderr ?? "").trim() };
}

function checkTypes(entry) {
	const prelude = entryPrelude(entry);
	check(`${ENTRY} has the runtime block and the typed return the type check relies on`, prelude !== undefined);
	if (prelude === undefined) return;
	const typeNames = new Set([...entry.matchAll(/^export type (\w+)/gm)].map((m) => m[1]));
	// Installed by the command's setup (npm test's, announced with its time), or here when this suite runs alone.
	const checker = { binary: requireTool("luau-typecheck") };

	// The entry alone: its own types must hold together.
	const alone = runChecker(checker.binary, "entry", prelude);
	check(
		`${ENTRY} type-checks (strict)`,
		alone.status === 0 && alone.errors.length === 0,
		alone.stderr || alone.errors.map((e) => `line ${e.line}: ${e.message}`).join(" | "),
	);

	const clean = [
		CONSUMER,
		...readdirSync(EXAMPLE_SERVER)
			.filter((file) => file.endsWith(".server.luau"))
			.map((file) => join(EXAMPLE_SERVER, file)),
	];
	for (const path of clean) {
		const { source, offset } = combined(prelude, path, typeNames);
		const result = runChecker(checker.binary, path.replace(/[/.]/g, "_"), source);
		const errors = result.errors.map((e) => `line ${e.line - offset}: ${e.message}`);
		check(
			`${path} type-checks against the typed entry`,
			result.status === 0 && errors.length === 0,
			result.stderr || errors.join(" | "),
		);
	}

	const { source, offset } = combined(prelude, MISUSE, typeNames);
	const result = runChecker(checker.binary, "misuse", source);
	const expected = new Set(
		readFileSync(MISUSE, "utf8")
			.split("\n")
			.map((line, i) => (line.includes("-- expect-error") ? i + 1 : 0))
			.filter((line) => line > 0),
	);
	const found = new Set(result.errors.map((e) => e.line - offset));
	const unexpected = result.errors.filter((e) => !expected.has(e.line - offset));
	const missed = [...expected].filter((line) => !found.has(line));
	check(
		`${MISUSE}: each of the ${expected.size} mistakes is a type error, and nothing else is`,
		expected.size > 0 && missed.length === 0 && unexpected.length === 0,
		[
			...missed.map((line) => `no error on line ${line}`),
			...unexpected.map((e) => `unexpected error on line ${e.line - offset}: ${e.message}`),
			result.stderr,
		]
			.filter(Boolean)
			.join(" | "),
	);
}

const entry = readFileSync(ENTRY, "utf8");
checkNames(entry);
checkSyntax([
	ENTRY,
	CONSUMER,
	MISUSE,
	...readdirSync("examples/src", { recursive: true })
		.filter((file) => file.endsWith(".luau"))
		.map((file) => join("examples/src", file))
		.sort(),
]);
checkTypes(entry);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
