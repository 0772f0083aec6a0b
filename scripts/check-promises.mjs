// Keeps the promise ledger (test/promises.md) honest: every spec a row names must exist, so a renamed or removed spec
// fails the suite instead of leaving a promise silently unchecked. A row's last cell names its specs as
// `dir/file.spec.ts` "the it name" (the path under test/specs/); each must be a spec file whose text has
// `it("the it name"`. Also counts the rows by status (checked, or MISSING, SKIP or OTHER, also when some specs are
// named) and prints them. Prints one `not ok` line per spec that is not found and, last, `N passed, N failed` over
// the names checked; exits non-zero when a name is not found, a row has neither a spec nor a status, or nothing was
// checked.
//
//   node scripts/check-promises.mjs [LEDGER.md]
import { existsSync, readFileSync } from "node:fs";

const SPEC_ROOT = "test/specs";
const ledgerPath = process.argv[2] ?? "test/promises.md";
const SPEC_REF = /`([\w./-]+\.spec\.ts)`\s*"([^"]+)"/g;
const STATUS = /\b(MISSING|SKIP|OTHER)\b/;

/** The table rows of the ledger (not headers, not separators), each as its cells. */
function ledgerRows(text) {
	return text
		.split("\n")
		.filter((line) => line.startsWith("|") && !/^\|\s*:?-+/.test(line))
		.map((line) =>
			line
				.slice(1, line.endsWith("|") ? -1 : undefined)
				.split("|")
				.map((cell) => cell.trim()),
		)
		.filter((cells) => cells[0] !== "id");
}

const specTexts = new Map();
/** Whether `file` (under test/specs/) declares a spec named `name`. */
function specExists(file, name) {
	const path = `${SPEC_ROOT}/${file}`;
	if (!specTexts.has(path)) specTexts.set(path, existsSync(path) ? readFileSync(path, "utf8") : undefined);
	const text = specTexts.get(path);
	if (text === undefined) return false;
	return [...text.matchAll(/\bit\(\s*"((?:[^"\\]|\\.)*)"/g)].some((match) => match[1] === name);
}

const rows = ledgerRows(readFileSync(ledgerPath, "utf8"));
const counts = { covered: 0, MISSING: 0, SKIP: 0, OTHER: 0 };
let passed = 0;
let failed = 0;
const ids = new Set();
for (const cells of rows) {
	const [id] = cells;
	const checkedBy = cells[cells.length - 1];
	if (ids.has(id)) {
		console.log(`not ok ${id}: the id is used twice`);
		failed += 1;
	}
	ids.add(id);
	const refs = [...checkedBy.matchAll(SPEC_REF)];
	const status = STATUS.exec(checkedBy)?.[1];
	if (refs.length === 0 && status === undefined) {
		console.log(`not ok ${id}: names no spec and no status (MISSING, SKIP or OTHER)`);
		failed += 1;
	}
	// A row with specs and a status is checked only in part: it counts under its status.
	if (status === undefined) counts.covered += 1;
	else counts[status] += 1;
	for (const [, file, name] of refs) {
		if (specExists(file, name)) passed += 1;
		else {
			console.log(`not ok ${id}: no spec "${name}" in ${SPEC_ROOT}/${file}`);
			failed += 1;
		}
	}
}
console.log(
	`${rows.length} promises: ${counts.covered} checked by a spec, ${counts.MISSING} MISSING, ` +
		`${counts.SKIP} skipped (owned by another branch), ${counts.OTHER} checked outside the specs`,
);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
