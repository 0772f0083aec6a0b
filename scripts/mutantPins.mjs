// Where each mutant of scripts/mutants.list.mjs is in src/ today. A mutant is pinned by its exact original snippet
// and the file that holds it; refactors move code between files and rename files, so the file is found again by
// searching every source file of src/ for the snippet (`node scripts/mutants.mjs --repin`), and only the `file`
// fields of the list are rewritten. Source-comment markers would survive edits inside a snippet too, but they
// would put mutation-run bookkeeping into the library's code and still need a snippet to know what to replace;
// the snippet is already the mutant's identity, so it is the only thing searched for.
//
// A mutant is, in order:
//   ok         its file holds the snippet exactly once (even if other files hold it as well: `alsoIn` lists them);
//   duplicate  its file holds the snippet more than once: the snippet must be made longer by hand;
//   moved      its file does not hold it, and exactly one other file holds it exactly once;
//   ambiguous  its file does not hold it, and several files (or one file several times) do: pick one by hand;
//   lost       no file of src/ holds it: the code changed, the mutant must be re-cut by hand.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, sep } from "node:path";

/** Every .ts file under `dir`, as paths relative to `root` with forward slashes. */
function sourceFiles(root, dir) {
	const files = [];
	for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) files.push(...sourceFiles(root, path));
		else if (entry.name.endsWith(".ts")) files.push(path.split(sep).join("/"));
	}
	return files.sort();
}

function occurrences(text, snippet) {
	return text.split(snippet).length - 1;
}

/**
 * Locates every mutant under `root` (the repository). Returns one entry per mutant: `{ mutant, status, file,
 * count, alsoIn, candidates }`, where `file` is where the mutant should point (the new path for `moved`).
 */
export function locateMutants(mutants, root) {
	const files = sourceFiles(root, "src");
	const texts = new Map(files.map((file) => [file, readFileSync(join(root, file), "utf8")]));
	return mutants.map((mutant) => {
		const counts = files
			.map((file) => ({ file, count: occurrences(texts.get(file), mutant.from) }))
			.filter((hit) => hit.count > 0);
		const own = counts.find((hit) => hit.file === mutant.file);
		const others = counts.filter((hit) => hit.file !== mutant.file);
		const base = { mutant, file: mutant.file, alsoIn: others.map((hit) => hit.file), candidates: counts };
		if (own !== undefined) return { ...base, status: own.count === 1 ? "ok" : "duplicate", count: own.count };
		if (counts.length === 0) return { ...base, status: "lost", count: 0 };
		if (counts.length === 1 && counts[0].count === 1)
			return { ...base, status: "moved", file: counts[0].file, count: 1 };
		return { ...base, status: "ambiguous", count: counts.reduce((sum, hit) => sum + hit.count, 0) };
	});
}

/** The first `length` characters of a snippet, on one line, for a report. */
export function preview(snippet, length = 60) {
	const line = snippet.replace(/\s+/g, " ").trim();
	return line.length > length ? `${line.slice(0, length - 3)}...` : line;
}

/** One line per mutant that is not simply `ok`, in the words `--repin` and the normal run print. */
export function describeLocation(location) {
	const { mutant, status } = location;
	switch (status) {
		case "moved":
			return `moved: ${mutant.id}  ${mutant.file} -> ${location.file}`;
		case "lost":
			return `lost: ${mutant.id}  ${preview(mutant.from)}`;
		case "duplicate":
			return `duplicate: ${mutant.id}  occurs ${location.count} times in ${mutant.file}: ${preview(mutant.from)}`;
		case "ambiguous": {
			const where = location.candidates.map((hit) => `${hit.file}${hit.count > 1 ? ` (${hit.count}x)` : ""}`);
			return `ambiguous: ${mutant.id}  not in ${mutant.file}; found in ${where.join(", ")}`;
		}
		default:
			return location.alsoIn.length > 0
				? `ambiguous: ${mutant.id}  also in ${location.alsoIn.join(", ")} (kept ${mutant.file})`
				: undefined;
	}
}

/**
 * Rewrites the `file` field of each moved mutant in the list's source text. The list keeps one object per mutant
 * with `id` before `file`, so the first `file:` after the mutant's `id:` is its own.
 */
export function rewriteListPaths(listText, moves) {
	let text = listText;
	for (const { id, to } of moves) {
		const idAt = text.indexOf(`id: ${JSON.stringify(id)},`);
		if (idAt < 0) throw new Error(`mutant ${id} is not in the list's text`);
		const fileField = /file: "[^"]*",/g;
		fileField.lastIndex = idAt;
		const match = fileField.exec(text);
		if (match === null) throw new Error(`mutant ${id} has no file field after its id`);
		text = `${text.slice(0, match.index)}file: ${JSON.stringify(to)},${text.slice(match.index + match[0].length)}`;
	}
	return text;
}

/**
 * `--repin`: prints what moved, what is ambiguous and what is lost, rewrites the list's paths for the moved ones,
 * and returns the number of mutants left unresolved (lost, duplicate, or ambiguous away from their file).
 */
export function repin(mutants, root, listPath) {
	const locations = locateMutants(mutants, root);
	for (const location of locations) {
		const line = describeLocation(location);
		if (line !== undefined) console.log(line);
	}
	const moves = locations
		.filter((location) => location.status === "moved")
		.map((location) => ({ id: location.mutant.id, to: location.file }));
	if (moves.length > 0) {
		if (!existsSync(listPath)) throw new Error(`${listPath} does not exist`);
		writeFileSync(listPath, rewriteListPaths(readFileSync(listPath, "utf8"), moves));
	}
	const unresolved = locations.filter((location) => !["ok", "moved"].includes(location.status)).length;
	const ok = locations.filter((location) => location.status === "ok").length;
	const rewritten = moves.length > 0 ? `, ${listPath} rewritten` : "";
	console.log(`[mutants] repin: ${ok} in place, ${moves.length} moved${rewritten}, ${unresolved} to fix by hand`);
	return unresolved;
}
