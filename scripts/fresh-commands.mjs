// Every command the documents give works as the first command in a fresh clone (a suite of npm test): none may need
// node_modules before it has set itself up (scripts/setup.mjs ensureSetup). Two checks per command:
//
// - statically: the script it runs, and each local script that one imports (transitively, `import ... from` and
//   `export ... from`), imports no package, only `node:` modules and local files: a static import is loaded before
//   any line of the script runs, so a package among them crashes a fresh clone with ERR_MODULE_NOT_FOUND whatever the
//   script does first. A package is loaded with `await import()` after the set-up instead. Every `node scripts/X.mjs`
//   a document gives is walked the same way;
// - by running it: the repo's files (git's tracked and unignored ones, so no node_modules, out/ or build/) are copied
//   to a scratch folder, and there `npm run NAME` runs with STAFFOPS_SETUP_PROBE=1, which makes ensureSetup say that
//   the script reached it and stop the process. A command passes when its own script reaches its set-up and exits 0:
//   a dynamic import before the set-up, or a package binary called straight from package.json (`eslint .`, which is
//   "not found" there), fails it. A command that runs a shell script is instead checked to call nothing from
//   node_modules (the tool installer).
//
// The documented commands are every `npm run NAME`, `npm start` and `npm test` in the repo's Markdown files; each
// must be a script of package.json. Prints `ok`/`not ok` per check and, last, `N passed, N failed`.
//   node scripts/fresh-commands.mjs
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, normalize } from "node:path";
import { spawnSync } from "node:child_process";

const root = normalize(join(dirname(new URL(import.meta.url).pathname), ".."));
const results = [];
/** How a document gives the command: `npm start`, `npm test`, `npm run NAME`. */
const spelt = (name) => (name === "start" || name === "test" ? `npm ${name}` : `npm run ${name}`);
function check(name, problem) {
	results.push({ name, problem });
	console.log(problem === undefined ? `ok - ${name}` : `not ok - ${name}: ${problem}`);
}

const files = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
	cwd: root,
	encoding: "utf8",
})
	.stdout.split("\0")
	.filter((file) => file !== "" && existsSync(join(root, file)));

// 1. The documented commands, and the `node scripts/X.mjs` lines.
const scripts = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts;
const documented = new Set();
const nodeLines = new Set();
for (const file of files.filter((path) => path.endsWith(".md"))) {
	const text = readFileSync(join(root, file), "utf8");
	for (const match of text.matchAll(/\bnpm (?:run ([a-z][\w:-]*)|(start|test)\b)/g))
		documented.add(match[1] ?? match[2]);
	for (const match of text.matchAll(/\bnode (scripts\/[\w-]+\.mjs)/g)) nodeLines.add(match[1]);
}
for (const name of documented) {
	if (scripts[name] === undefined) check(spelt(name), "the documents give it, but package.json has no such script");
}
const commands = [...documented].filter((name) => scripts[name] !== undefined).sort();

// 2. Static imports: the chain from `entry` to the first package it imports, or undefined when there is none.
const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:[\w*{}\s,$]+?\s+from\s+)?["']([^"']+)["']/g;
function packageChain(entry, seen = new Set()) {
	if (seen.has(entry)) return undefined;
	seen.add(entry);
	const text = readFileSync(join(root, entry), "utf8");
	for (const match of text.matchAll(IMPORT)) {
		const specifier = match[1];
		if (specifier.startsWith("node:")) continue;
		if (!specifier.startsWith(".")) return [entry, specifier];
		const next = normalize(join(dirname(entry), specifier));
		const chain = packageChain(next, seen);
		if (chain !== undefined) return [entry, ...chain];
	}
	return undefined;
}
function staticCheck(label, script) {
	const chain = packageChain(script);
	check(
		`${label}: ${script} imports no package before its set-up`,
		chain === undefined ? undefined : `${chain.join(" imports ")} (load it with await import() after ensureSetup)`,
	);
}

// Each part of a script's command (`a && b`) is `node scripts/X.mjs ...` or `bash scripts/X.sh ...`: anything else
// runs from node_modules/.bin, which a fresh clone has not got.
const runnable = [];
for (const name of commands) {
	const parts = scripts[name].split("&&").map((part) => part.trim());
	const foreign = parts.filter((part) => !/^(node scripts\/[\w-]+\.mjs|bash scripts\/[\w-]+\.sh)(\s|$)/.test(part));
	check(
		`${spelt(name)}: runs only the repo's own scripts`,
		foreign.length === 0 ? undefined : `"${foreign.join('", "')}" needs node_modules before any set-up`,
	);
	for (const part of parts) {
		const node = /^node (scripts\/[\w-]+\.mjs)/.exec(part);
		const shell = /^bash (scripts\/[\w-]+\.sh)/.exec(part);
		if (node !== null) staticCheck(spelt(name), node[1]);
		if (shell !== null) {
			const text = readFileSync(join(root, shell[1]), "utf8");
			const uses = /node_modules|\bnpx\b|\bnode\s/.test(text);
			check(
				`${spelt(name)}: ${shell[1]} needs no npm package`,
				uses ? "it calls node or node_modules" : undefined,
			);
		}
	}
	const first = /^node (scripts\/[\w-]+\.mjs)/.exec(parts[0]);
	if (first !== null && foreign.length === 0) runnable.push({ name, script: first[1] });
}
for (const script of [...nodeLines].sort()) {
	if (existsSync(join(root, script))) staticCheck(`node ${script}`, script);
	else check(`node ${script}`, "the documents give it, but the script does not exist");
}

// 3. Each command run in a copy without node_modules, up to its set-up.
const scratch = mkdtempSync(join(tmpdir(), "staffops-fresh-"));
try {
	for (const file of files) {
		mkdirSync(join(scratch, dirname(file)), { recursive: true });
		cpSync(join(root, file), join(scratch, file));
	}
	const env = { ...process.env, STAFFOPS_SETUP_PROBE: "1" };
	// A fresh clone has set nothing up; npm test, which runs this, has.
	delete env.STAFFOPS_SETUP_DONE;
	for (const { name, script } of runnable) {
		const started = Date.now();
		const result = spawnSync("npm", ["run", "--silent", name], {
			cwd: scratch,
			env,
			encoding: "utf8",
			timeout: 60000,
		});
		const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
		const reached = output.includes(`[setup] probe: ${script} reached its set-up`);
		const seconds = ((Date.now() - started) / 1000).toFixed(1);
		const tail = output.trim().split("\n").slice(-6).join("\n    ");
		check(
			`${spelt(name)}: reaches its set-up with no node_modules (${seconds} s)`,
			reached && result.status === 0
				? undefined
				: `exit ${result.status ?? result.signal}, ${reached ? "reached" : "never reached"} ensureSetup:\n    ${tail}`,
		);
	}
} finally {
	rmSync(scratch, { recursive: true, force: true });
}

const failed = results.filter((result) => result.problem !== undefined).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed > 0 || results.length === 0 ? 1 : 0);
