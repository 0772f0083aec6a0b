// One version everywhere it is written (the "Version" suite of npm test; scripts/release.mjs refuses to build when
// this finds a problem): package.json's version is the one package-lock.json, the library's `VERSION` (src/index.ts,
// so the model, the npm package and the Wally package say it), the Wally consumer's dependency and every install line
// of the README and docs/ (`staffops/staffops@X`, `staffops_staffops@X`, `rbxts-staffops-X.tgz`, tag `vX`) name, and
// CHANGELOG.md has its dated section. Prints `ok`/`not ok` per place and, last, `N passed, N failed`.
//   node scripts/version.mjs
import { readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";

// Where a version is written, each as the pattern that captures it. The CHANGELOG names every version it records, so
// it is checked apart; service/ versions the interface, not the library.
const WRITTEN = [
	/staffops\/staffops@(\d+\.\d+\.\d+)/g,
	/staffops_staffops@(\d+\.\d+\.\d+)/g,
	/rbxts-staffops-(\d+\.\d+\.\d+)\.tgz/g,
	/\bexport const VERSION = "([^"]+)"/g,
	/\bVERSION\)\.to\.equal\("([^"]+)"\)/g,
	/`v(\d+\.\d+\.\d+)`/g,
];

/** Each problem with the version, as a sentence, and how many places agreed. */
export function versionProblems() {
	const version = JSON.parse(readFileSync("package.json", "utf8")).version;
	const problems = [];
	let agreed = 0;
	const lock = JSON.parse(readFileSync("package-lock.json", "utf8"));
	for (const [where, found] of [
		["package-lock.json", lock.version],
		['package-lock.json packages[""]', lock.packages?.[""]?.version],
	]) {
		if (found === version) agreed += 1;
		else problems.push(`${where} says ${found}, package.json ${version}`);
	}
	const files = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
		encoding: "utf8",
	})
		.stdout.split("\0")
		.filter((file) => /\.(md|ts|toml|luau)$/.test(file) && file !== "CHANGELOG.md" && !file.startsWith("service/"));
	for (const file of files) {
		let text;
		try {
			text = readFileSync(file, "utf8");
		} catch {
			continue;
		}
		for (const pattern of WRITTEN) {
			for (const match of text.matchAll(pattern)) {
				if (match[1] === version) agreed += 1;
				else {
					const line = text.slice(0, match.index).split("\n").length;
					problems.push(`${file}:${line} names ${match[0]}, package.json ${version}`);
				}
			}
		}
	}
	const changelog = readFileSync("CHANGELOG.md", "utf8");
	const escaped = version.replace(/\./g, "\\.");
	if (new RegExp(`^## \\[${escaped}\\] - \\d{4}-\\d{2}-\\d{2}\\s*$`, "m").test(changelog)) agreed += 1;
	else problems.push(`CHANGELOG.md has no dated "## [${version}] - YYYY-MM-DD" section`);
	return { version, agreed, problems };
}

if (process.argv[1]?.endsWith("version.mjs")) {
	const { version, agreed, problems } = versionProblems();
	for (const problem of problems) console.log(`not ok - ${problem}`);
	console.log(`ok - ${agreed} places name version ${version}`);
	console.log(`${agreed} passed, ${problems.length} failed`);
	process.exit(problems.length > 0 || agreed === 0 ? 1 : 0);
}
