// Runs every ```lua block of the README and of docs/ (scripts/readme-blocks.mjs) against the reference service:
// lune/readme/run.luau places each block where its first line says it goes, beside the drop-in model (configured as
// the Luau quick start says) or in a Wally user's place, and checks what the block claims (lune/readme/examples.luau,
// picked by the block's `<!-- example: NAME -->` name). A Luau block without a name fails: every block runs.
// Prints one `ok`/`not ok` line per check and, last, `N passed, N failed`; exits non-zero on any failure.
//
//   node scripts/readme-luau.mjs [--model PATH]
//
// Needs build/StaffOps.rbxm and build/wally-consumer.rbxl (`node scripts/build.mjs --tests`; --model picks another
// model file) and the compiled reference service (`npm run service -- --build-only`), and Lune.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { exampleDocuments, readmeBlocks } from "./readme-blocks.mjs";
import { requireTool } from "./tools.mjs";
import { buildService, startService } from "./service-process.mjs";

// docs/luau-types.md's block is a type sample (it opens with `--!strict`, not with where it goes in a place): it runs
// nowhere, and scripts/readme-examples.mjs compiles it.
const DOCUMENTS = exampleDocuments().filter((document) => document !== "docs/luau-types.md");
const WORK = "build/readme-luau";
const WALLY_PLACE = "build/wally-consumer.rbxl";
const modelIndex = process.argv.indexOf("--model");
const model = modelIndex >= 0 ? process.argv[modelIndex + 1] : "build/StaffOps.rbxm";

let passed = 0;
let failed = 0;
function fail(label, why) {
	failed += 1;
	console.log(`not ok - ${label}\n  ${why}`);
}

const blocks = DOCUMENTS.flatMap((document) =>
	readmeBlocks(readFileSync(document, "utf8"))
		.filter((block) => block.language === "lua" || block.language === "luau")
		.map((block) => ({ ...block, document })),
);
const missing = [model, WALLY_PLACE].filter((path) => !existsSync(path));
if (missing.length > 0) {
	fail("the places to run in", `${missing.join(", ")} missing: run node scripts/build.mjs --tests first`);
} else if (!existsSync("build/service/src/main.js") && !buildService()) {
	fail("the reference service", "it did not compile");
} else {
	const service = await startService();
	const lune = requireTool("lune");
	mkdirSync(WORK, { recursive: true });
	try {
		for (const block of blocks) {
			const where = `${block.document}:${block.line}`;
			if (block.example === undefined) {
				fail(where, "a Luau block without `<!-- example: NAME -->` above it, so nothing runs it");
				continue;
			}
			const file = `${WORK}/${block.example}.luau`;
			writeFileSync(file, block.source);
			console.log(`# ${where} (${block.example})`);
			const result = spawnSync(lune, ["run", "lune/readme/run.luau", block.example, file, model, WALLY_PLACE], {
				encoding: "utf8",
				env: { ...process.env, STAFFOPS_SERVICE_URL: service.baseUrl, STAFFOPS_SERVICE_KEY: service.key },
			});
			const output = result.stdout ?? "";
			process.stdout.write(output.replace(/^\d+ passed, \d+ failed\n?/m, ""));
			const counts = /^(\d+) passed, (\d+) failed$/m.exec(output);
			passed += counts ? Number(counts[1]) : 0;
			failed += counts ? Number(counts[2]) : 0;
			// An error in a thread the block started, after its first yield, reaches only Lune's stderr.
			const stderr = (result.stderr ?? "").trim();
			if (stderr !== "") fail(`${where}: nothing on stderr`, stderr.split("\n").join("\n  "));
			else if (result.status !== 0 && (!counts || Number(counts[2]) === 0))
				fail(`${where}: the run ends cleanly`, `lune exited with ${result.status}`);
		}
	} finally {
		service.stop();
	}
}
console.log(`Luau blocks run: ${blocks.length}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
