// The Luau types check (a suite of `npm test`): the typed entry (model/init.luau), which the drop-in model and the
// Wally package ship, states the library's public surface for Luau users by hand, so this suite keeps it honest.
//
// 1. Names: the StaffOps namespace's functions and signals (src/server/index.ts), the settings StaffOps.start checks
//    (declared by the features, src/server/features/*.ts), the api client's namespaces
//    (src/api/apiClient.ts) and each namespace's methods (src/api/resources/*.ts) are the ones the Luau types name,
//    no more, no fewer.
// 2. Syntax: the entry, the type-check consumers (test/luau-types/) and the example place's scripts compile (Lune's
//    @lune/luau, the Luau compiler Roblox runs).
// 3. Types: Luau's own type checker (strict mode, new solver; tools/luau-typecheck, built once per machine from
//    crates.io) finds no error in test/luau-types/consumer.luau and examples/src/server/*.luau, and in
//    test/luau-types/misuse.luau exactly the lines marked `expect-error`. The checker reads one file and resolves no
//    `require`, so each consumer is checked appended to the entry: its `local StaffOpsModule = require(...)` line
//    becomes the entry's value and `StaffOpsModule.SomeType` its exported type.
//
// Prints `ok - ...` / `not ok - ...` per check, then `N passed, N failed`; exits 1 on any failure.
//   node scripts/luau-types.mjs
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { featureDeclarations } from "./model-settings.mjs";
import { requireTool } from "./tools.mjs";

const ENTRY = "model/init.luau";
const DEFINITIONS = "test/luau-types/roblox.d.luau";
const CONSUMER = "test/luau-types/consumer.luau";
const MISUSE = "test/luau-types/misuse.luau";
const EXAMPLE_SERVER = "examples/src/server";
const CHECKER_CRATE = "tools/luau-typecheck";
const CHECKER_VERSION = /^version = "([^"]+)"/m.exec(readFileSync(join(CHECKER_CRATE, "Cargo.toml"), "utf8"))[1];
const TOOLS_HOME = process.env.STAFFOPS_TOOLS_HOME ?? "/opt/staffops-tools";
const WORK = "build/luau-types";

let passed = 0;
let failed = 0;
function check(label, ok, detail) {
	if (ok) passed += 1;
	else failed += 1;
	console.log(`${ok ? "ok" : "not ok"} - ${label}${!ok && detail ? `: ${detail}` : ""}`);
}

/** What `a` has that `b` lacks and the reverse, as words; empty when the two name lists agree. */
export function nameDifference(a, b, aName, bName) {
	const missing = [...a].filter((name) => !b.has(name)).sort();
	const extra = [...b].filter((name) => !a.has(name)).sort();
	const parts = [];
	if (missing.length > 0) parts.push(`in ${aName} but not ${bName}: ${missing.join(", ")}`);
	if (extra.length > 0) parts.push(`in ${bName} but not ${aName}: ${extra.join(", ")}`);
	return parts.join("; ");
}

// The body of `export type NAME = { ... }` in the entry (nested braces counted).
function luauTypeBody(source, name) {
	const start = source.indexOf(`export type ${name} = {`);
	if (start < 0) return undefined;
	let depth = 0;
	for (let i = source.indexOf("{", start); i < source.length; i++) {
		if (source[i] === "{") depth += 1;
		else if (source[i] === "}" && --depth === 0) return source.slice(source.indexOf("{", start) + 1, i);
	}
	return undefined;
}

// Field names of a Luau table type body: `\tname:` or `\t["name"]:` at its first level.
function luauFields(body) {
	return new Set([...body.matchAll(/^\t(?:\["(\w+)"\]|(\w+)):/gm)].map((m) => m[1] ?? m[2]));
}

// The body of `export interface NAME {...}` or `export namespace NAME {...}` in TypeScript (braces counted).
function tsBlock(source, opener) {
	const start = source.indexOf(opener);
	if (start < 0) return undefined;
	let depth = 0;
	for (let i = source.indexOf("{", start); i < source.length; i++) {
		if (source[i] === "{") depth += 1;
		else if (source[i] === "}" && --depth === 0) return source.slice(source.indexOf("{", start) + 1, i);
	}
	return undefined;
}

function checkNames(entry) {
	const index = readFileSync("src/server/index.ts", "utf8");
	const namespace = tsBlock(index, "export namespace StaffOps {") ?? "";
	const tsNames = new Set([...namespace.matchAll(/^\texport (?:const|function) (\w+)/gm)].map((m) => m[1]));
	const luauNames = luauFields(luauTypeBody(entry, "StaffOpsNamespace") ?? "");
	check(
		`the StaffOps namespace's ${tsNames.size} functions and signals are typed in ${ENTRY}`,
		tsNames.size > 0 && nameDifference(tsNames, luauNames, "src/server/index.ts", ENTRY) === "",
		nameDifference(tsNames, luauNames, "src/server/index.ts", ENTRY),
	);
	// The check above must be able to fail: a name dropped from either side is reported.
	const dropped = new Set([...luauNames].slice(1));
	check("a StaffOps name missing from the Luau types is reported", nameDifference(tsNames, dropped, "a", "b") !== "");

	// The settings: every top-level field the features declare (src/server/features/*.ts), which is what
	// `StaffOps.start` checks a configuration against (every field of StaffOpsConfig, however that type is composed).
	const tsSettings = new Set(
		featureDeclarations().flatMap((feature) => feature.settings.map((setting) => setting.field.split(".")[0])),
	);
	const luauSettings = luauFields(luauTypeBody(entry, "StaffOpsConfig") ?? "");
	const settingsDifference = nameDifference(tsSettings, luauSettings, "src/server/features", ENTRY);
	check(
		`the ${tsSettings.size} settings of StaffOpsConfig are typed in ${ENTRY}`,
		tsSettings.size > 0 && settingsDifference === "",
		settingsDifference,
	);

	const apiClient = readFileSync("src/api/apiClient.ts", "utf8");
	const tsNamespaces = new Map([...apiClient.matchAll(/^\treadonly (\w+): (\w+Api);$/gm)].map((m) => [m[1], m[2]]));
	const clientBody = luauTypeBody(entry, "ApiClient") ?? "";
	const luauNamespaces = new Map([...clientBody.matchAll(/^\t(\w+): (\w+Api),$/gm)].map((m) => [m[1], m[2]]));
	check(
		`the api client's ${tsNamespaces.size} namespaces are typed in ${ENTRY}`,
		tsNamespaces.size > 0 &&
			nameDifference(new Set(tsNamespaces.keys()), new Set(luauNamespaces.keys()), "apiClient.ts", ENTRY) === "",
		nameDifference(new Set(tsNamespaces.keys()), new Set(luauNamespaces.keys()), "apiClient.ts", ENTRY),
	);
	const resources = readdirSync("src/api/resources")
		.filter((file) => file.endsWith(".ts"))
		.map((file) => readFileSync(join("src/api/resources", file), "utf8"))
		.join("\n");
	for (const [field, tsInterface] of tsNamespaces) {
		const tsBody = tsBlock(resources, `export interface ${tsInterface} {`) ?? "";
		const tsMethods = new Set([...tsBody.matchAll(/^\t(\w+)\(/gm)].map((m) => m[1]));
		const luauType = luauNamespaces.get(field);
		const luauMethods = luauFields((luauType && luauTypeBody(entry, luauType)) ?? "");
		const difference = nameDifference(tsMethods, luauMethods, tsInterface, `${ENTRY} ${luauType}`);
		check(
			`client.${field}'s ${tsMethods.size} methods are typed`,
			tsMethods.size > 0 && difference === "",
			difference,
		);
	}
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

/** The Luau type checker, built once per machine (like the pinned tools); undefined with the reason when it cannot be. */
function typeChecker() {
	const root = join(TOOLS_HOME, `luau-typecheck-${CHECKER_VERSION}`);
	const binary = join(root, "bin", "luau-typecheck");
	if (existsSync(binary)) return { binary };
	const cargo = spawnSync("cargo", ["--version"], { encoding: "utf8" });
	if (cargo.status !== 0) return { problem: "cargo is not installed (the checker is built from crates.io)" };
	console.log(`[luau-types] building the Luau type checker into ${root} (first time only; several minutes)`);
	const build = spawnSync(
		"cargo",
		["install", "--locked", "--path", CHECKER_CRATE, "--root", root, "--bin", "luau-typecheck"],
		{
			stdio: ["ignore", "inherit", "inherit"],
			env: {
				...process.env,
				CARGO_TARGET_DIR: process.env.CARGO_TARGET_DIR ?? "build/luau-typecheck-target",
				CARGO_TERM_PROGRESS_WHEN: "never",
			},
		},
	);
	if (build.status !== 0 || !existsSync(binary)) return { problem: "cargo could not build tools/luau-typecheck" };
	return { binary };
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
	const checker = typeChecker();
	check("the Luau type checker is available", checker.binary !== undefined, checker.problem);
	if (checker.binary === undefined) return;

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
