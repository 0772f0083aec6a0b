// The examples of the README and of docs/ (scripts/readme-blocks.mjs), checked: every ```ts block is compiled by rbxtsc in a fixture game (build/readme-examples/)
// that depends on the package's out/ as a game would depend on @rbxts/staffops, every ```lua block is compiled by
// Luau in Lune (`luau.compile`: a syntax check; scripts/readme-luau.mjs then runs each one against the reference
// service), and every ```json block is parsed. A block is complete by itself: whatever it needs (imports, the names
// it uses) is written in it. Prints one `ok`/`not ok` line per block and, last, `N passed, N failed`; exits non-zero
// on any failure. Needs out/ (npm run build) and, for Luau, Lune.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { requireTool } from "./tools.mjs";
import { exampleDocuments, readmeBlocks } from "./readme-blocks.mjs";

const FIXTURE = "build/readme-examples";

const results = [];
function report(block, ok, why) {
	results.push(ok);
	console.log(
		`${ok ? "ok" : "not ok"} - ${block.document}:${block.line} (${block.language})${ok ? "" : `\n  ${why}`}`,
	);
}

/** Writes the fixture game: the package as a dependency (copied), the ambient types (linked), one module per block. */
function writeFixture(tsBlocks) {
	rmSync(FIXTURE, { recursive: true, force: true });
	const rbxts = `${FIXTURE}/node_modules/@rbxts`;
	mkdirSync(`${rbxts}/staffops`, { recursive: true });
	// rbxtsc finds node_modules beside the nearest package.json: the fixture's own.
	writeFileSync(`${FIXTURE}/package.json`, JSON.stringify({ name: "readme-examples", private: true }));
	const manifest = JSON.parse(readFileSync("package.json", "utf8"));
	writeFileSync(
		`${rbxts}/staffops/package.json`,
		JSON.stringify({ name: manifest.name, version: manifest.version, main: manifest.main, types: manifest.types }),
	);
	cpSync("out", `${rbxts}/staffops/out`, { recursive: true });
	for (const name of ["t", "services"])
		cpSync(`node_modules/@rbxts/${name}`, `${rbxts}/${name}`, { recursive: true });
	for (const name of ["types", "compiler-types"])
		symlinkSync(resolve(`node_modules/@rbxts/${name}`), `${rbxts}/${name}`);
	writeFileSync(
		`${FIXTURE}/tsconfig.json`,
		JSON.stringify({
			compilerOptions: {
				allowSyntheticDefaultImports: true,
				downlevelIteration: true,
				module: "commonjs",
				moduleResolution: "Node",
				noLib: true,
				forceConsistentCasingInFileNames: true,
				moduleDetection: "force",
				strict: true,
				target: "ESNext",
				typeRoots: ["node_modules/@rbxts"],
				rootDir: "src",
				outDir: "out",
			},
			include: ["src"],
		}),
	);
	writeFileSync(
		`${FIXTURE}/default.project.json`,
		JSON.stringify({
			name: "readme-examples",
			tree: {
				$className: "DataModel",
				ServerScriptService: { $className: "ServerScriptService", Examples: { $path: "out" } },
				ReplicatedStorage: {
					$className: "ReplicatedStorage",
					rbxts_include: {
						$path: "include",
						node_modules: { $className: "Folder", "@rbxts": { $path: "node_modules/@rbxts" } },
					},
				},
			},
		}),
	);
	mkdirSync(`${FIXTURE}/src`, { recursive: true });
	for (const block of tsBlocks) {
		block.file = `src/${block.document.replace(/\.md$/, "").replace(/\W+/g, "-")}-line-${block.line}.ts`;
		writeFileSync(`${FIXTURE}/${block.file}`, block.source);
	}
}

/** Compiles every TypeScript block in one rbxtsc run; a block passes when no diagnostic names its file. */
function checkTypeScript(blocks) {
	if (blocks.length === 0) return;
	if (!existsSync("out/init.luau")) {
		for (const block of blocks) report(block, false, "out/ is missing: run npm run build first");
		return;
	}
	writeFixture(blocks);
	const result = spawnSync(resolve("node_modules/.bin/rbxtsc"), ["--type", "game"], {
		cwd: FIXTURE,
		encoding: "utf8",
	});
	// Without colour codes, so that file names can be matched.
	const colour = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");
	const output = `${result.stdout ?? ""}${result.stderr ?? ""}`.replace(colour, "");
	// rbxtsc writes nothing when any file has an error: then a block passes when no diagnostic names it.
	const placed = blocks.some((block) => output.includes(block.file));
	for (const block of blocks) {
		const lines = output.split("\n").filter((line) => line.includes(block.file));
		const luau = `${FIXTURE}/${block.file.replace(/^src/, "out").replace(/\.ts$/, ".luau")}`;
		if (lines.length > 0) report(block, false, lines.join("\n  "));
		else if (result.status !== 0 && !placed) report(block, false, `rbxtsc failed:\n  ${output.trim()}`);
		else if (result.status === 0 && !existsSync(luau)) report(block, false, "rbxtsc wrote no Luau for it");
		else report(block, true);
	}
}

/** Compiles every Luau block with Luau itself, in Lune: a block passes when it parses and compiles. */
function checkLuau(blocks) {
	if (blocks.length === 0) return;
	mkdirSync(FIXTURE, { recursive: true });
	writeFileSync(`${FIXTURE}/luau-blocks.json`, JSON.stringify(blocks.map((block) => block.source)));
	writeFileSync(
		`${FIXTURE}/compile.luau`,
		[
			'local fs = require("@lune/fs")',
			'local luau = require("@lune/luau")',
			'local serde = require("@lune/serde")',
			`local sources = serde.decode("json", fs.readFile("${FIXTURE}/luau-blocks.json"))`,
			"for index, source in sources do",
			"\tlocal ok, problem = pcall(luau.compile, source)",
			'\tprint(`{index}\\t{if ok then "ok" else string.gsub(tostring(problem), "\\n", " ")}`)',
			"end",
			"",
		].join("\n"),
	);
	const result = spawnSync(requireTool("lune"), ["run", `${FIXTURE}/compile.luau`], { encoding: "utf8" });
	const verdicts = new Map();
	for (const line of (result.stdout ?? "").split("\n")) {
		const match = /^(\d+)\t(.*)$/.exec(line);
		if (match) verdicts.set(Number(match[1]), match[2]);
	}
	blocks.forEach((block, index) => {
		const verdict = verdicts.get(index + 1);
		if (verdict === "ok") report(block, true);
		else report(block, false, verdict ?? `lune gave no verdict: ${(result.stderr ?? "").trim()}`);
	});
}

const blocks = exampleDocuments().flatMap((document) =>
	readmeBlocks(readFileSync(document, "utf8")).map((block) => ({ ...block, document })),
);
const ts = blocks.filter((block) => block.language === "ts");
const luau = blocks.filter((block) => block.language === "lua" || block.language === "luau");
checkTypeScript(ts);
checkLuau(luau);
for (const block of blocks.filter((block) => block.language === "json")) {
	try {
		JSON.parse(block.source);
		report(block, true);
	} catch (problem) {
		report(block, false, `not JSON: ${problem.message}`);
	}
}
const passed = results.filter(Boolean).length;
console.log(
	`TypeScript ${ts.length}, Luau ${luau.length}, JSON ${results.length - ts.length - luau.length} blocks checked`,
);
console.log(`${passed} passed, ${results.length - passed} failed`);
process.exit(passed === results.length && passed > 0 ? 0 : 1);
