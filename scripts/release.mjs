// `npm run release`: builds the release artefacts into dist/ from a full build, and prints their sizes and SHA-256
// sums.
//
//   dist/StaffOps.rbxm                       the drop-in model (Luau users insert it into ServerScriptService)
//   dist/rbxts-staffops-<version>.tgz        the npm package, exactly what `npm publish` uploads
//   dist/staffops-staffops-<version>.zip     the Wally package, as `wally package` lays it out
//   dist/RELEASE_NOTES.md                    CHANGELOG.md's section for package.json's version, and the commit
//   dist/SHA256SUMS                          `sha256sum -c SHA256SUMS` checks the files above
//
// What it is built from: the commit checked out (`git rev-parse HEAD`, with "dirty" when the tree has uncommitted
// changes), named in its output and at the end of the notes. The version's tag, `v<version>` (v0.1.0), is an annotated
// tag on the release commit; pushing it starts the release workflow (.github/workflows/release.yml). This script never
// makes the tag. When the tag is absent the dry run says so and builds anyway, naming the commit instead; a publish
// then creates it at exactly that commit (the GitHub release's `--target`); when the tag exists and points at another
// commit, or the tree is dirty, a publish stops.
//
// The notes must be the truth about what it packs, or it refuses (exit 1) before building: one version everywhere
// (scripts/version.mjs), a dated CHANGELOG section for it, and no entry left under [Unreleased] (a change in the
// code the notes would not mention). `--draft` builds anyway, for trying the artefacts (npm run quickstart:luau), and
// says in the notes' first line that they are a draft and how many entries they leave out; a draft is never published.
//
// Dry by default. `npm run release -- --publish` publishes where it has credentials and is in CI (the release
// workflow, .github/workflows/release.yml): the npm tarball with provenance (NODE_AUTH_TOKEN), the Wally package
// (WALLY_AUTH_TOKEN) and a GitHub release with the files attached (GH_TOKEN). Elsewhere it prints each command it
// would run instead.
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { WALLY_DIR, WALLY_NAME, WALLY_SCOPE } from "./wally.mjs";
import { ensureSetup } from "./setup.mjs";
import { versionProblems } from "./version.mjs";

const DIST = "dist";
const publish = process.argv.includes("--publish");
const draft = process.argv.includes("--draft");
const pkg = JSON.parse(readFileSync("package.json", "utf8"));
const version = pkg.version;

function say(text) {
	console.log(`[release] ${text}`);
}

function fail(text) {
	console.error(`[release] failed: ${text}`);
	process.exit(1);
}

/** Runs a command, streaming its output; stops the release with the step's name and the reason when it fails. */
function run(label, command, args, options = {}) {
	say(label);
	const result = spawnSync(command, args, { stdio: "inherit", ...options });
	if (result.error !== undefined) fail(`${label}: could not run ${command}: ${result.error.message}`);
	if (result.status !== 0) fail(`${label}: ${command} ${args.join(" ")} exited with code ${result.status}`);
}

/** The `## [version] - date` heading and the text under it in CHANGELOG.md, up to the next `## ` heading. */
function changelogSection(changelog, wanted) {
	const lines = changelog.split("\n");
	const start = lines.findIndex((line) => line.startsWith(`## [${wanted}]`));
	if (start === -1) return undefined;
	const rest = lines.slice(start + 1);
	const end = rest.findIndex((line) => line.startsWith("## "));
	const body = (end === -1 ? rest : rest.slice(0, end)).join("\n").trim();
	const date = /^## \[[^\]]+\] - (\d{4}-\d{2}-\d{2})\s*$/.exec(lines[start])?.[1];
	return { date, body };
}

/** The commit the release is built from, whether the tree has uncommitted changes, and where the version's tag is. */
function gitFacts(tagName) {
	const git = (...args) => spawnSync("git", args, { encoding: "utf8" });
	const head = git("rev-parse", "HEAD");
	if (head.status !== 0) return undefined;
	const status = git("status", "--porcelain");
	const tag = git("rev-parse", "-q", "--verify", `refs/tags/${tagName}^{commit}`);
	return {
		commit: head.stdout.trim(),
		dirty: status.stdout.trim() !== "",
		taggedCommit: tag.status === 0 ? tag.stdout.trim() : undefined,
	};
}

function sha256(path) {
	return createHash("sha256").update(readFileSync(path)).digest("hex");
}

function sizeText(bytes) {
	return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(2)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`;
}

// 0. The set-up its build needs (npm packages, Rojo), first, so that it works as the first command in a fresh clone
// and that the checks below never depend on what is installed (scripts/fresh-commands.mjs runs it up to here).
ensureSetup(["rojo"]);

// 1. What the release is made from: the version's notes must exist before anything is built.
if (!existsSync("CHANGELOG.md")) fail("CHANGELOG.md is missing");
const changelog = readFileSync("CHANGELOG.md", "utf8");
const section = changelogSection(changelog, version);
if (section === undefined || section.body === "")
	fail(`CHANGELOG.md has no "## [${version}] - YYYY-MM-DD" section with text (package.json's version)`);
if (section.date === undefined)
	fail(`CHANGELOG.md's "## [${version}]" heading has no release date (write "## [${version}] - YYYY-MM-DD")`);
// Entries still under [Unreleased] are in the code it packs, and the notes would not say so.
const unreleased = changelogSection(changelog, "Unreleased");
const waiting =
	unreleased === undefined ? 0 : unreleased.body.split("\n").filter((line) => line.startsWith("- ")).length;
if (publish && draft) fail("a draft (--draft) is never published");
if (waiting > 0) {
	const text =
		`CHANGELOG.md has ${waiting} entries under [Unreleased]: the code has changes that ${version}'s notes leave out; ` +
		`move them into [${version}] (or into a new version's section, with package.json's version) so the notes hold them`;
	if (!draft) fail(`${text} (--draft builds anyway, with notes marked a draft)`);
	say(`draft: ${text}`);
}
const versions = versionProblems();
if (versions.problems.length > 0)
	fail(`the version is not the same everywhere (node scripts/version.mjs):\n  ${versions.problems.join("\n  ")}`);
const ciTag = process.env.GITHUB_REF_TYPE === "tag" ? process.env.GITHUB_REF_NAME : undefined;
if (ciTag !== undefined && ciTag !== `v${version}`)
	fail(`the tag ${ciTag} does not match package.json's version ${version}`);

const tagName = `v${version}`;
const git = gitFacts(tagName);
const source =
	git === undefined
		? "not a git checkout"
		: `commit ${git.commit}${git.dirty ? " (dirty: uncommitted changes)" : ""}, ` +
			(git.taggedCommit === undefined
				? `no tag ${tagName} yet`
				: git.taggedCommit === git.commit
					? `tagged ${tagName}`
					: `but the tag ${tagName} is commit ${git.taggedCommit}`);
say(`StaffOps ${version}${publish ? " (publish)" : " (dry run; --publish to publish)"}, from ${source}`);
if (publish && (git === undefined || git.dirty))
	fail("a release is published only from a clean git checkout, so its notes can name the commit");
if (publish && git.taggedCommit !== undefined && git.taggedCommit !== git.commit)
	fail(`the tag ${tagName} names commit ${git.taggedCommit}, not the one checked out (${git.commit})`);

// 2. One full build (the set-up done above): out/, the model and build/wally/.
run("build (npm run build)", "node", ["scripts/build.mjs"]);

rmSync(DIST, { recursive: true, force: true });
mkdirSync(DIST, { recursive: true });

// 3. The drop-in model.
say("drop-in model");
cpSync("build/StaffOps.rbxm", join(DIST, "StaffOps.rbxm"));

// 4. The npm tarball. The build above has just compiled out/, so the `prepack` compile is skipped here.
run("npm package (npm pack)", "npm", ["pack", "--pack-destination", DIST, "--ignore-scripts", "--silent"], {
	stdio: ["ignore", "ignore", "inherit"],
});
const tarball = `${pkg.name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
if (!existsSync(join(DIST, tarball))) fail(`npm pack did not write ${join(DIST, tarball)}`);

// 5. The Wally package: `wally package` when the pinned Wally is on PATH, else the same zip of build/wally/ (its
// wally.toml `include` names every file scripts/wally.mjs writes there, so the two agree).
const wallyZip = `${WALLY_SCOPE}-${WALLY_NAME}-${version}.zip`;
const wallyZipPath = join(process.cwd(), DIST, wallyZip);
const wallyVersion = /^wally\s*=\s*"[^"@]*@([^"]+)"/m.exec(readFileSync("rokit.toml", "utf8"))?.[1];
const hasWally = spawnSync("wally", ["--version"], { encoding: "utf8" }).stdout?.includes(wallyVersion ?? "?");
if (hasWally) {
	run(`Wally package (wally ${wallyVersion} package)`, "wally", [
		"package",
		"--project-path",
		WALLY_DIR,
		"--output",
		wallyZipPath,
	]);
} else {
	run("Wally package (zip of build/wally/; no wally on PATH)", "zip", ["-q", "-X", "-r", wallyZipPath, "."], {
		cwd: WALLY_DIR,
	});
}

// 6. Release notes and sums.
say("release notes from CHANGELOG.md");
const built =
	git === undefined
		? "Built outside a git checkout."
		: `Built from commit \`${git.commit}\`${git.dirty ? ", with uncommitted changes (dirty)" : ""}` +
			(git.taggedCommit === git.commit
				? `, tagged \`${tagName}\`.`
				: `; the tag \`${tagName}\` is not made yet.`);
writeFileSync(
	join(DIST, "RELEASE_NOTES.md"),
	`# StaffOps ${version} (${section.date})\n\n` +
		(waiting > 0
			? `**Draft:** ${waiting} changes under [Unreleased] in CHANGELOG.md are in these files and not in these notes.\n\n`
			: "") +
		`${section.body}\n\n---\n\n${built}\n`,
);
const files = ["StaffOps.rbxm", tarball, wallyZip, "RELEASE_NOTES.md"];
const sums = files.map((file) => ({ file, sum: sha256(join(DIST, file)), size: statSync(join(DIST, file)).size }));
writeFileSync(join(DIST, "SHA256SUMS"), sums.map(({ file, sum }) => `${sum}  ${file}\n`).join(""));

say(`${DIST}/:`);
const width = Math.max(...files.map((file) => file.length));
for (const { file, sum, size } of sums) console.log(`  ${file.padEnd(width)}  ${sizeText(size).padStart(10)}  ${sum}`);
console.log(`  ${"SHA256SUMS".padEnd(width)}  ${sizeText(statSync(join(DIST, "SHA256SUMS")).size).padStart(10)}`);

// 7. Publishing: each target runs only in CI with its credential, and otherwise shows what it would do.
const ci = process.env.CI === "true";
const targets = [
	{
		name: "npm",
		credential: "NODE_AUTH_TOKEN",
		command: ["npm", ["publish", join(DIST, tarball), "--provenance", "--access", "public"]],
	},
	{
		name: "Wally",
		credential: "WALLY_AUTH_TOKEN",
		before: ["wally", ["login", "--token", "$WALLY_AUTH_TOKEN"]],
		command: ["wally", ["publish", "--project-path", WALLY_DIR]],
	},
	{
		name: "GitHub release",
		credential: "GH_TOKEN",
		command: [
			"gh",
			[
				"release",
				"create",
				tagName,
				// The tag lands on the commit built (an existing one must already be there, checked above).
				...(git?.taggedCommit === undefined ? ["--target", git?.commit ?? "HEAD"] : ["--verify-tag"]),
				"--title",
				`StaffOps ${version}`,
				"--notes-file",
				join(DIST, "RELEASE_NOTES.md"),
				...[...files.filter((file) => file !== "RELEASE_NOTES.md"), "SHA256SUMS"].map((file) =>
					join(DIST, file),
				),
			],
		],
	},
];
for (const target of targets) {
	const steps = [target.before, target.command].filter((step) => step !== undefined);
	const live = publish && ci && (process.env[target.credential] ?? "") !== "";
	if (!live) {
		const why = !publish ? "dry run" : !ci ? "not in CI" : `${target.credential} is not set`;
		for (const [command, args] of steps)
			say(`would publish to ${target.name} (${why}): ${command} ${args.join(" ")}`);
		continue;
	}
	for (const [command, args] of steps) {
		// The token goes through the environment, never into the printed command line.
		const resolved = args.map((arg) => (arg === `$${target.credential}` ? process.env[target.credential] : arg));
		const shown = args.join(" ");
		say(`publishing to ${target.name}: ${command} ${shown}`);
		const result = spawnSync(command, resolved, { stdio: "inherit" });
		if (result.status !== 0) fail(`publishing to ${target.name}: ${command} ${shown} exited with ${result.status}`);
	}
}
say("done");
