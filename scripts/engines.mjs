// Keeps `engines.node` in package.json true to what installs cleanly (part of `npm run lint`): every Node version it
// admits must be one that every installed package's own `engines.node` accepts (package-lock.json lists them), so
// `npm ci` on an admitted Node never warns EBADENGINE. Prints the packages that would refuse part of the range.
//   node scripts/engines.mjs
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

// semver comes with npm's own tooling in node_modules (typescript-eslint and others depend on it).
const semver = createRequire(import.meta.url)("semver");

const ours = JSON.parse(readFileSync("package.json", "utf8")).engines?.node;
const lock = JSON.parse(readFileSync("package-lock.json", "utf8"));
if (typeof ours !== "string" || semver.validRange(ours) === null) {
	console.error(`[engines] package.json has no valid engines.node (${ours})`);
	process.exit(1);
}

const refusing = [];
let counted = 0;
for (const [path, info] of Object.entries(lock.packages ?? {})) {
	const theirs = info.engines?.node;
	if (path === "" || typeof theirs !== "string" || info.optional) continue;
	counted += 1;
	if (semver.validRange(theirs) !== null && !semver.subset(ours, theirs))
		refusing.push(`${path.replace(/^.*node_modules\//, "")}@${info.version} needs node ${theirs}`);
}
if (refusing.length > 0) {
	console.error(`[engines] engines.node "${ours}" admits Node versions that some packages refuse:`);
	for (const line of refusing) console.error(`  ${line}`);
	process.exit(1);
}
console.log(`[engines] engines.node "${ours}": every one of the ${counted} packages with an engines field accepts it`);
