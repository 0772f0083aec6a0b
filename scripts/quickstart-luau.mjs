// `npm run quickstart:luau`: the README's Luau quick start from the release artefacts, measured. Builds the release
// (`npm run release -- --draft`, dry; a draft when CHANGELOG.md has entries under [Unreleased]) unless --no-release,
// checks dist/StaffOps.rbxm against dist/SHA256SUMS as docs/install.md says, then lune/readme/quickstart.luau
// inserts that file into an empty place, makes the settings the quick start names and plays against the reference
// service on loopback. Prints the quick start's steps, the tools a user needs
// to build, and the seconds from Play to the registered server. A person's time in Studio is not measured.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { requireTool } from "./tools.mjs";
import { ensureSetup } from "./setup.mjs";
import { buildService, startService } from "./service-process.mjs";

const MODEL = "dist/StaffOps.rbxm";
const SUMS = "dist/SHA256SUMS";

function fail(text) {
	console.error(`[quickstart] failed: ${text}`);
	process.exit(1);
}

/** The numbered steps under the README's "Quick start: Luau (drop-in model)" heading. */
function quickStartSteps() {
	const readme = readFileSync("README.md", "utf8");
	const start = readme.indexOf("## Quick start: Luau (drop-in model)");
	if (start === -1) fail("the README has no Luau quick start");
	const section = readme.slice(start).split(/\n## /)[0];
	// Each step with its indented continuation lines, joined.
	const steps = [];
	for (const line of section.split("\n")) {
		if (/^\d+\. /.test(line)) steps.push(line);
		else if (steps.length > 0 && /^ {3}\S/.test(line)) steps[steps.length - 1] += ` ${line.trim()}`;
	}
	return steps;
}

// The release's build needs Rojo, the quick start's place Lune; the service the npm packages.
ensureSetup(["rojo", "lune"]);
if (!process.argv.includes("--no-release")) {
	const began = Date.now();
	const release = spawnSync("node", ["scripts/release.mjs", "--draft"], { encoding: "utf8" });
	if (release.status !== 0) fail(`npm run release:\n${release.stdout}${release.stderr}`);
	console.log(`[quickstart] npm run release (the maintainer's side): ${((Date.now() - began) / 1000).toFixed(1)} s`);
}
if (!existsSync(MODEL) || !existsSync(SUMS)) fail(`${MODEL} or ${SUMS} missing: run npm run release`);
const listed = readFileSync(SUMS, "utf8")
	.split("\n")
	.map((line) => /^([0-9a-f]{64}) [ *](.+)$/.exec(line))
	.find((match) => match !== null && match[2] === "StaffOps.rbxm");
const actual = createHash("sha256").update(readFileSync(MODEL)).digest("hex");
if (listed === undefined || listed[1] !== actual) fail(`${MODEL} does not match its line in ${SUMS}`);

if (!existsSync("build/service/src/main.js") && !buildService()) fail("the reference service did not compile");
const service = await startService();
const result = spawnSync(requireTool("lune"), ["run", "lune/readme/quickstart.luau", MODEL], {
	encoding: "utf8",
	env: { ...process.env, STAFFOPS_SERVICE_URL: service.baseUrl, STAFFOPS_SERVICE_KEY: service.key },
});
service.stop();
process.stdout.write(result.stdout ?? "");
process.stderr.write(result.stderr ?? "");
const verdict = /^QUICKSTART registered_after_play_s=(\S+) service_has_server=(\w+) warnings=(\d+)$/m.exec(
	result.stdout ?? "",
);
if (result.status !== 0 || verdict === null) fail("the server did not register");

const steps = quickStartSteps();
// The commands the steps ask a user to run, leaving out the "(or run `npm run build` in a clone ...)" alternative:
// each would need a tool built or installed first.
const commands = steps.flatMap((step) =>
	[...step.replace(/\([^)]*\)/g, "").matchAll(/`((?:npm|npx|cargo|rojo|lune|wally|rokit|git) [^`]*)`/g)].map(
		(match) => match[1],
	),
);
const rows = [
	["artefact", `${MODEL} (sha256 matches ${SUMS})`],
	["README quick-start steps", `${steps.length}, done by the script as a person does them in Studio`],
	[
		"commands the steps ask for",
		`${commands.length}${commands.length > 0 ? `: ${commands.join(", ")}` : " (a model file and Roblox Studio: no tool to build)"}`,
	],
	["Play to registered server", `${verdict[1]} s (reference service on loopback)`],
	["the service has the server", verdict[2]],
	["warnings", verdict[3]],
	["not measured", "a person's time: downloading, Insert from File, the Secret, typing BaseUrl"],
];
console.log("\nLuau quick start from the release artefacts");
for (const [name, value] of rows) console.log(`  ${name.padEnd(28)} ${value}`);
