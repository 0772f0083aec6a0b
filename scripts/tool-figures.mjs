// Keeps the tools' first-build figures the same in every place that gives them (the "Tool build figures" suite of npm
// test): scripts/install-tools.sh announces, before each build, what it took on an idle two-core machine
// (expected_seconds) and on a busy one (busy_seconds, measured); the README, CONTRIBUTING.md and docs/install.md must
// give those figures, and the waits of `npm run build` (Rojo) and `npm start` (Rojo and Lune) and the whole of
// `npm test`, added up from them. Prints `ok`/`not ok` per figure and, last, `N passed, N failed`.
//   node scripts/tool-figures.mjs
import { readFileSync } from "node:fs";

const script = readFileSync("scripts/install-tools.sh", "utf8");
const tools =
	/^ALL_TOOLS=\(([^)]*)\)/m
		.exec(script)?.[1]
		.split(/\s+/)
		.filter((name) => name !== "") ?? [];

/** The figures a shell function of install-tools.sh gives (`name) echo 150 ;;` lines), or undefined without it. */
function figures(functionName) {
	const body = new RegExp(`^${functionName}\\(\\) \\{\\n([\\s\\S]*?)\\n\\}`, "m").exec(script)?.[1];
	if (body === undefined) return undefined;
	return Object.fromEntries([...body.matchAll(/^\s*([\w-]+)\) echo (\d+) ;;/gm)].map((m) => [m[1], Number(m[2])]));
}

/** 1441 as the documents write it: "1,441 s". */
const seconds = (value) => `${value.toLocaleString("en-US")} s`;

const results = [];
function check(name, problem) {
	results.push(problem);
	console.log(problem === undefined ? `ok - ${name}` : `not ok - ${name}: ${problem}`);
}

const docs = Object.fromEntries(
	["README.md", "CONTRIBUTING.md", "docs/install.md"].map((path) => [path, readFileSync(path, "utf8")]),
);
const sum = (table, names) => names.reduce((total, name) => total + table[name], 0);
for (const [kind, functionName] of [
	["idle", "expected_seconds"],
	["busy", "busy_seconds"],
]) {
	const table = figures(functionName);
	const missing = tools.filter((name) => !Number.isInteger(table?.[name]));
	check(
		`install-tools.sh announces each tool's ${kind} first build (${functionName})`,
		missing.length === 0 ? undefined : `no figure for ${missing.join(", ")}`,
	);
	if (missing.length > 0) continue;
	// Each tool's figure where the tools are listed one by one, and the waits added up where the commands are.
	const wanted = [
		...tools.map((name) => ["README.md", `${name} ${kind}`, seconds(table[name])]),
		...tools.map((name) => ["CONTRIBUTING.md", `${name} ${kind}`, seconds(table[name])]),
		["README.md", `npm start's ${kind} wait (Rojo, Lune)`, seconds(sum(table, ["rojo", "lune"]))],
		["CONTRIBUTING.md", `npm start's ${kind} wait (Rojo, Lune)`, seconds(sum(table, ["rojo", "lune"]))],
		["CONTRIBUTING.md", `npm test's ${kind} wait (all)`, seconds(sum(table, tools))],
		["docs/install.md", `npm run build's ${kind} wait (Rojo)`, seconds(table.rojo)],
		["docs/install.md", `npm start's ${kind} wait (Rojo, Lune)`, seconds(sum(table, ["rojo", "lune"]))],
		["docs/install.md", `npm test's ${kind} wait (all)`, seconds(sum(table, tools))],
	];
	for (const [path, what, text] of wanted) {
		check(`${path} gives ${what}: ${text}`, docs[path].includes(text) ? undefined : `"${text}" is not there`);
	}
}

const failed = results.filter((problem) => problem !== undefined).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed > 0 || results.length === 0 ? 1 : 0);
