// Where each mutant of scripts/mutants.list.mjs is in src/ today. A mutant is pinned by three things: the file it was
// cut in (`file`), the function, method or module-level constant that encloses it (`in`: a name, or `Class.method` when
// a file has several of that name), and a small snippet (`from`), matched with any run of whitespace standing for any
// other (code moved into a deeper or shallower block keeps its tokens, not its indentation). Refactors move functions
// between files (src/server/server.ts is being cut into src/server/features/*), so a pin is looked for where it was cut
// first and then in every source file of src/: the function with that name whose body holds the snippet exactly once.
// The run plants the bug wherever the pin is found and says how many were found away from their recorded place; only
// pins found nowhere, or in several places, stop it. `node scripts/mutants.mjs --repin` rewrites the recorded paths.
// Source-comment markers would also survive moves, but would put mutation-run bookkeeping into the library's code;
// function names are already there.
//
// A mutant is, in order:
//   ok         its file's function `in` (or, without `in`, the file) holds the snippet exactly once;
//   duplicate  that function (or file) holds it more than once: the snippet must be made longer by hand;
//   moved      not there, but exactly one place holds it once: a function named `in` in another file (or, when no
//              function of that name holds it, a single occurrence anywhere in src/: the function was renamed);
//   ambiguous  not there, and several places hold it: pick one by hand (qualify `in` as `Class.method`);
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

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The snippet as a pattern in which each run of whitespace matches any run (and leading/trailing runs any, or none). */
export function snippetPattern(snippet) {
	const lead = /^\s/.test(snippet) ? "[ \\t]*" : "";
	const trail = /\s$/.test(snippet) ? "\\s*" : "";
	const body = snippet.trim().split(/\s+/).map(escapeRegExp).join("\\s+");
	return new RegExp(`${lead}${body}${trail}`, "g");
}

/** Every match of the snippet in `text[from, to)`, as `{ start, end }` offsets of `text`. */
function matchesIn(text, snippet, from = 0, to = text.length) {
	const pattern = snippetPattern(snippet);
	const slice = text.slice(from, to);
	return [...slice.matchAll(pattern)].map((match) => ({
		start: from + match.index,
		end: from + match.index + match[0].length,
	}));
}

/**
 * At a comment or a string literal starting at `i`, the offset of its last character (a template's `${...}` parts
 * are skipped as code); anywhere else, undefined.
 */
function skipLiteral(text, i) {
	const char = text[i];
	if (char === "/" && text[i + 1] === "/") {
		const end = text.indexOf("\n", i);
		return end === -1 ? text.length : end;
	}
	if (char === "/" && text[i + 1] === "*") {
		const end = text.indexOf("*/", i + 2);
		return end === -1 ? text.length : end + 1;
	}
	if (char !== '"' && char !== "'" && char !== "`") return undefined;
	for (let j = i + 1; j < text.length; j++) {
		if (text[j] === "\\") j += 1;
		else if (text[j] === char) return j;
		else if (char === "`" && text[j] === "$" && text[j + 1] === "{") {
			const end = closingBrace(text, j + 1);
			if (end < 0) return text.length;
			j = end - 1;
		}
	}
	return text.length;
}

/** The offset just past the `}` that closes the `{` at `open`, skipping strings and comments; -1 when unclosed. */
function closingBrace(text, open) {
	let depth = 0;
	for (let i = open; i < text.length; i++) {
		const skipped = skipLiteral(text, i);
		if (skipped !== undefined) i = skipped;
		else if (text[i] === "{") depth += 1;
		else if (text[i] === "}") {
			depth -= 1;
			if (depth === 0) return i + 1;
		}
	}
	return -1;
}

/** The `)` closing the `(` at `open`; -1 when unclosed. */
function closingParen(text, open) {
	let depth = 0;
	for (let i = open; i < text.length; i++) {
		if (text[i] === "(") depth += 1;
		else if (text[i] === ")" && --depth === 0) return i;
	}
	return -1;
}

/**
 * The bodies of every function, method or class named `name` in `text`, as `{ start, end }` (from the declaration
 * to its closing brace). A body is the first `{` that ends a line after the parameter list (Prettier's layout), so a
 * return type such as `: { kick: number }` is not taken for it.
 */
export function bodiesNamed(text, name) {
	return declarations(text, escapeRegExp(name)).map(({ start, end }) => ({ start, end }));
}

const MODIFIERS =
	"(?:(?:export|default|async|static|private|public|protected|readonly|override|abstract|get|set|function|const|let)\\s+)*";
// Type parameters, nested up to three deep (`<const T extends Readonly<Record<string, object>>>`).
const TYPE_PARAMETERS = "(?:<(?:[^<>\\n]|<(?:[^<>\\n]|<[^<>\\n]*>)*>)*>)?";
const KEYWORDS = new Set(["if", "for", "while", "switch", "catch", "return", "function", "typeof", "new", "await"]);

/**
 * Declarations whose name matches the pattern `word`, each `{ name, start, end }`. A declaration starts its line
 * (after indentation and modifiers): a method or function `name(`, `name<T>(`, `name = (`, `name: (` whose signature
 * ends its line with `{`, or a class. Calls are not declarations: a call statement ends in `;`.
 */
function declarations(text, word) {
	const found = [];
	const pattern = new RegExp(
		`^[ \\t]*${MODIFIERS}(${word})\\s*${TYPE_PARAMETERS}\\s*(?:[=:]\\s*(?:async\\s*)?)?\\(|` +
			`^[ \\t]*(?:export\\s+)?(?:default\\s+)?(?:abstract\\s+)?class\\s+(${word})\\b`,
		"gm",
	);
	for (const match of text.matchAll(pattern)) {
		const name = match[1] ?? match[2];
		if (KEYWORDS.has(name)) continue;
		let from = match.index;
		if (match[1] !== undefined) {
			from = closingParen(text, match.index + match[0].length - 1);
			if (from < 0) continue;
		}
		const open = /\{[ \t]*\r?\n/.exec(text.slice(from));
		if (open === null) continue;
		// The signature ends its line with the body's brace: a `;` (outside an object type such as a return type's)
		// or a blank line before it means a call or a type.
		let between = text.slice(from, from + open.index);
		for (let inner = between; ; inner = between) {
			between = inner.replace(/\{[^{}]*\}/g, "");
			if (between === inner) break;
		}
		if (between.includes(";") || /\n\s*\n/.test(between)) continue;
		const end = closingBrace(text, from + open.index);
		if (end > 0) found.push({ name, start: match.index, end });
	}
	// A module-level constant or variable (a table, a number): its statement, to the `;` that ends it.
	const constants = new RegExp(`^(?:export\\s+)?(?:const|let)\\s+(${word})\\b`, "gm");
	for (const match of text.matchAll(constants)) {
		const end = statementEnd(text, match.index);
		if (end > 0 && !found.some((other) => other.start === match.index)) {
			found.push({ name: match[1], start: match.index, end });
		}
	}
	return found;
}

/** The offset just past the `;` that ends the statement starting at `from` (outside brackets and strings); -1 if none. */
function statementEnd(text, from) {
	let depth = 0;
	for (let i = from; i < text.length; i++) {
		const skipped = skipLiteral(text, i);
		if (skipped !== undefined) i = skipped;
		else if ("([{".includes(text[i])) depth += 1;
		else if (")]}".includes(text[i])) depth -= 1;
		else if (text[i] === ";" && depth === 0) return i + 1;
	}
	return -1;
}

/** The name of the innermost declaration whose body holds `[start, end)` in `text`, or undefined. */
export function enclosingName(text, start, end) {
	let best;
	for (const declaration of declarations(text, "[A-Za-z_$][\\w$]*")) {
		if (declaration.start > start || declaration.end < end) continue;
		if (best === undefined || declaration.start >= best.start) best = declaration;
	}
	return best?.name;
}

/** The bodies `in` names in `text`: `name`, or `Class.method` (the methods named so inside that class). */
function scopes(text, name) {
	const [outer, inner] = name.includes(".") ? name.split(".", 2) : [undefined, name];
	if (outer === undefined) return bodiesNamed(text, inner);
	return bodiesNamed(text, outer).flatMap((cls) =>
		bodiesNamed(text.slice(cls.start, cls.end), inner).map((body) => ({
			start: cls.start + body.start,
			end: cls.start + body.end,
		})),
	);
}

/** Where the snippet is in one file: the matches inside the scopes named `in` (or the whole file without `in`). */
function hitsIn(text, mutant) {
	if (mutant.in === undefined) return matchesIn(text, mutant.from);
	const hits = [];
	for (const scope of scopes(text, mutant.in)) hits.push(...matchesIn(text, mutant.from, scope.start, scope.end));
	// Nested scopes of the same name would see one match twice.
	return hits.filter((hit, i) => hits.findIndex((other) => other.start === hit.start) === i);
}

/**
 * Locates every mutant under `root` (the repository). Returns one entry per mutant: `{ mutant, status, file, start,
 * end, count, candidates }`, where `file` is where the pin is found (the new path for `moved`), `start`/`end` the
 * matched range in it, and `away` whether that is not where the list records it.
 */
export function locateMutants(mutants, root) {
	const files = sourceFiles(root, "src");
	const texts = new Map(files.map((file) => [file, readFileSync(join(root, file), "utf8")]));
	return mutants.map((mutant) => {
		const base = { mutant, file: mutant.file, away: false, candidates: [] };
		const own = texts.has(mutant.file) ? hitsIn(texts.get(mutant.file), mutant) : [];
		if (own.length === 1) return { ...base, status: "ok", count: 1, ...own[0] };
		if (own.length > 1) return { ...base, status: "duplicate", count: own.length };
		// Not where it was cut: the function named `in` elsewhere, then (a renamed function) the snippet anywhere.
		const search = (pin) =>
			files
				.map((file) => ({ file, hits: hitsIn(texts.get(file), pin) }))
				.filter((candidate) => candidate.hits.length > 0);
		let candidates = search(mutant);
		if (candidates.length === 0 && mutant.in !== undefined) candidates = search({ ...mutant, in: undefined });
		const count = candidates.reduce((sum, candidate) => sum + candidate.hits.length, 0);
		const where = candidates.map((candidate) => ({ file: candidate.file, count: candidate.hits.length }));
		if (count === 0) return { ...base, status: "lost", count: 0 };
		if (count > 1) return { ...base, status: "ambiguous", count, candidates: where };
		const [found] = candidates;
		return {
			...base,
			status: "moved",
			file: found.file,
			away: true,
			count: 1,
			candidates: where,
			...found.hits[0],
		};
	});
}

/** The file's text with the mutant planted at its located range. */
export function plant(text, location) {
	return `${text.slice(0, location.start)}${location.mutant.to}${text.slice(location.end)}`;
}

/** The first `length` characters of a snippet, on one line, for a report. */
export function preview(snippet, length = 60) {
	const line = snippet.replace(/\s+/g, " ").trim();
	return line.length > length ? `${line.slice(0, length - 3)}...` : line;
}

/** One line per mutant that is not simply `ok`, in the words `--repin` and the normal run print. */
export function describeLocation(location) {
	const { mutant, status } = location;
	const scope = mutant.in !== undefined ? ` (in ${mutant.in})` : "";
	switch (status) {
		case "moved":
			return `moved: ${mutant.id}${scope}  ${mutant.file} -> ${location.file}`;
		case "lost":
			return `lost: ${mutant.id}${scope}  ${preview(mutant.from)}`;
		case "duplicate":
			return `duplicate: ${mutant.id}  occurs ${location.count} times in ${mutant.file}${scope}: ${preview(mutant.from)}`;
		case "ambiguous": {
			const where = location.candidates.map((hit) => `${hit.file}${hit.count > 1 ? ` (${hit.count}x)` : ""}`);
			return `ambiguous: ${mutant.id}${scope}  not in ${mutant.file}; found in ${where.join(", ")}`;
		}
		default:
			return undefined;
	}
}

/** The one-line summary both the run and `--repin` print. */
export function summarize(locations) {
	const count = (status) => locations.filter((location) => location.status === status).length;
	const unresolved = locations.length - count("ok") - count("moved");
	return (
		`[mutants] pins: ${count("ok")} in place, ${count("moved")} found away from their recorded place, ` +
		`${unresolved} lost or ambiguous`
	);
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
		.filter((location) => location.status === "moved" && location.file !== location.mutant.file)
		.map((location) => ({ id: location.mutant.id, to: location.file }));
	if (moves.length > 0) {
		if (!existsSync(listPath)) throw new Error(`${listPath} does not exist`);
		writeFileSync(listPath, rewriteListPaths(readFileSync(listPath, "utf8"), moves));
	}
	console.log(`${summarize(locations)}${moves.length > 0 ? `; ${listPath} rewritten` : ""}`);
	return locations.filter((location) => !["ok", "moved"].includes(location.status)).length;
}
