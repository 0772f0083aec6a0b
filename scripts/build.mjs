// Builds the three outputs from src/: the npm package (out/), the drop-in model (build/StaffOps.rbxm) and the Wally
// package (build/wally/, scripts/wally.mjs); then the example place that uses the model (build/example.rbxl,
// examples/), so a change that breaks it fails the build; plus, with --tests, the test place (build/test-place.rbxl) that the Lune
// runner loads and the Wally consumer's places (build/wally-consumer.rbxl, test/wally-consumer/, and
// build/wally-unzipped.rbxl, the same project with the Wally zip unzipped as docs/install.md says).
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { ensureSetup } from "./setup.mjs";
import { requireTool } from "./tools.mjs";
import { buildWallyPackage, installForConsumer, unzipForConsumer } from "./wally.mjs";
import { writeNoticeTexts } from "./notices.mjs";

const withTests = process.argv.includes("--tests");
// `--package`: out/ only, for npm's `prepack` (run by npm pack and npm publish); needs no Roblox tools. It is `prepack`
// and not `prepare` so that the published package.json carries no install script (npm runs `prepare` on install) and
// installing the npm packages here (npm ci) compiles nothing: each command's build compiles once.
const packageOnly = process.argv.includes("--package");

function step(label, command, args) {
	const started = Date.now();
	process.stdout.write(`[build] ${label} ... `);
	const result = spawnSync(command, args, { encoding: "utf8" });
	const output = `${result.stdout ?? ""}${result.stderr ?? ""}`
		.split("\n")
		.filter((line) => line.trim() !== "" && !line.includes('Unknown user config "nodedir"'))
		.join("\n");
	if (result.status !== 0) {
		console.log("failed");
		// Name the reason too: a command that could not start (a missing rbxtsc, say) prints nothing of its own.
		const reason =
			result.error !== undefined
				? `could not run ${command}: ${result.error.message}`
				: result.signal !== null
					? `${command} was killed by ${result.signal}`
					: `${command} exited with code ${result.status}`;
		if (output !== "") console.error(output);
		console.error(`[build] ${label}: ${reason}`);
		process.exit(result.status ?? 1);
	}
	console.log(`done (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

// npm packages and the one tool the build needs, Rojo (quick when they are there already); --package needs no tool.
ensureSetup(packageOnly ? [] : ["rojo"]);
// Only now: it imports typescript, which a fresh clone has once the set-up above has installed the npm packages.
const { modelSettingProblems, writeGeneratedFiles } = await import("./model-settings.mjs");
const rbxtsc = "node_modules/.bin/rbxtsc";

// The model's attributes, the Luau config type's fields and the remotes' names, from the features' declarations
// (before compiling: the sources name remotes by the generated `RemoteName`).
for (const path of writeGeneratedFiles()) console.log(`[build] wrote ${path} from the features' declarations`);
rmSync("out", { recursive: true, force: true });
step("compile src/ to out/ (npm package)", rbxtsc, ["--type", "package"]);
if (packageOnly) process.exit(0);

const rojo = requireTool("rojo");
mkdirSync("build", { recursive: true });

// The model carries its own copy of the roblox-ts runtime (package mode does not copy it).
rmSync("include", { recursive: true, force: true });
cpSync("node_modules/roblox-ts/include", "include", { recursive: true });
writeNoticeTexts("build/notices");
const settingProblems = modelSettingProblems();
if (settingProblems.length > 0) {
	console.error(`[build] the model's settings disagree:\n  ${settingProblems.join("\n  ")}`);
	process.exit(1);
}
step("bundle build/StaffOps.rbxm (drop-in model)", rojo, [
	"build",
	"default.project.json",
	"-o",
	"build/StaffOps.rbxm",
]);

// A game made the way a Luau developer makes one with the model: its project includes build/StaffOps.rbxm.
step("bundle build/example.rbxl (examples/, a game using the drop-in model)", rojo, [
	"build",
	"examples/default.project.json",
	"-o",
	"build/example.rbxl",
]);

{
	const started = Date.now();
	process.stdout.write("[build] Wally package build/wally/ ... ");
	try {
		buildWallyPackage();
	} catch (error) {
		console.log("failed");
		console.error(error.message);
		process.exit(1);
	}
	console.log(`done (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

if (withTests) {
	step("compile src/ + test/ to build/test/", rbxtsc, [
		"-p",
		"tsconfig.test.json",
		"--type",
		"game",
		"--rojo",
		"test/place.project.json",
		"-i",
		"include",
	]);
	step("bundle build/test-place.rbxl", rojo, ["build", "test/place.project.json", "-o", "build/test-place.rbxl"]);
	// As `wally install` would lay it out, then built by Rojo like any Wally user's project.
	installForConsumer("test/wally-consumer");
	step("bundle build/wally-consumer.rbxl (a Wally user's project)", rojo, [
		"build",
		"test/wally-consumer/default.project.json",
		"-o",
		"build/wally-consumer.rbxl",
	]);
	// The same project with the release's Wally zip unzipped as docs/install.md says, for users without the registry.
	const unzipped = unzipForConsumer("test/wally-consumer", "build/wally-unzipped");
	step("bundle build/wally-unzipped.rbxl (the Wally zip unzipped, docs/install.md)", rojo, [
		"build",
		unzipped,
		"-o",
		"build/wally-unzipped.rbxl",
	]);
}
