// Checks every relative link of the project's Markdown: the file or folder it names exists, and an `#anchor` names a
// heading of the target as GitHub renders it (or an explicit `<a id>`/`<a name>`). Links to other sites are not
// fetched. Checks README.md, CONTRIBUTING.md, CHANGELOG.md, docs/*.md and the READMEs beside the code (lune/,
// service/, examples/), or the files given as arguments; and, with no arguments, the TSDoc `@see README#section`
// tags of src/ (CONTRIBUTING.md, "Citing facts"). Prints one `not ok` line per broken link and, last,
// `N passed, N failed` over the links checked; exits non-zero when a link is broken or none was checked.
//
//   node scripts/check-links.mjs [FILE.md ...]
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

const DEFAULT_FILES = [
	"README.md",
	"CONTRIBUTING.md",
	"CHANGELOG.md",
	...readdirSync("docs")
		.filter((name) => name.endsWith(".md"))
		.map((name) => `docs/${name}`),
	"examples/README.md",
	"lune/bench/README.md",
	"lune/roblox/README.md",
	"service/README.md",
].filter((path) => existsSync(path));

/** Lines outside fenced code blocks, with inline code spans blanked (a link inside code is not a link). */
function proseLines(text) {
	const lines = text.split("\n");
	let fence = undefined;
	return lines.map((line) => {
		const opens = /^\s*(`{3,}|~{3,})/.exec(line);
		if (fence !== undefined) {
			if (opens && opens[1][0] === fence[0] && opens[1].length >= fence.length) fence = undefined;
			return "";
		}
		if (opens) {
			fence = opens[1];
			return "";
		}
		return line.replace(/(`+)[^`]*?\1/g, (span) => " ".repeat(span.length));
	});
}

/** A heading's anchor as GitHub makes it: lower case, punctuation other than `-` and `_` dropped, spaces to `-`. */
export function slug(heading) {
	return heading
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // a link in a heading keeps its text
		.replace(/<[^>]+>/g, "")
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, "")
		.replace(/\s/g, "-");
}

const anchorCache = new Map();
/** The anchors a Markdown file offers: its headings (repeats numbered -1, -2, ... as GitHub does) and `<a id>`s. */
function anchorsOf(path) {
	if (anchorCache.has(path)) return anchorCache.get(path);
	const text = readFileSync(path, "utf8");
	const anchors = new Set();
	const seen = new Map();
	const raw = text.split("\n");
	let fence = undefined;
	for (const line of raw) {
		const opens = /^\s*(`{3,}|~{3,})/.exec(line);
		if (fence !== undefined) {
			if (opens && opens[1][0] === fence[0] && opens[1].length >= fence.length) fence = undefined;
			continue;
		}
		if (opens) {
			fence = opens[1];
			continue;
		}
		const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (heading) {
			const base = slug(heading[1].replace(/`/g, ""));
			const count = seen.get(base) ?? 0;
			seen.set(base, count + 1);
			anchors.add(count === 0 ? base : `${base}-${count}`);
		}
		for (const match of line.matchAll(/<a\s+(?:[^>]*\s)?(?:id|name)="([^"]+)"/g)) anchors.add(match[1]);
	}
	anchorCache.set(path, anchors);
	return anchors;
}

/** The relative links of a file: `[text](target)` and reference definitions `[name]: target`, with their lines. */
function linksOf(path) {
	const links = [];
	proseLines(readFileSync(path, "utf8")).forEach((line, index) => {
		for (const match of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
			links.push({ target: match[1], line: index + 1 });
		const definition = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(line);
		if (definition) links.push({ target: definition[1], line: index + 1 });
	});
	return links.filter((link) => !/^[a-z][a-z0-9+.-]*:/i.test(link.target));
}

/** Why the link is broken, or undefined when it resolves. */
export function problemOf(from, target) {
	const hash = target.indexOf("#");
	const pathPart = decodeURI(hash === -1 ? target : target.slice(0, hash));
	const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
	const resolved = pathPart === "" ? from : normalize(join(dirname(from), pathPart));
	if (relative(".", resolved).startsWith("..")) return `${target} points outside the repository`;
	if (!existsSync(resolved)) return `${resolved} does not exist`;
	if (anchor === undefined || anchor === "") return undefined;
	if (statSync(resolved).isDirectory() || !resolved.endsWith(".md")) return undefined;
	if (!anchorsOf(resolved).has(anchor)) return `${resolved} has no heading with the anchor #${anchor}`;
	return undefined;
}

const files = process.argv.length > 2 ? process.argv.slice(2) : DEFAULT_FILES;
let passed = 0;
let failed = 0;
for (const file of files) {
	for (const link of linksOf(file)) {
		const problem = problemOf(file, link.target);
		if (problem === undefined) passed += 1;
		else {
			failed += 1;
			console.log(`not ok - ${file}:${link.line} (${link.target})\n  ${problem}`);
		}
	}
}
/** The `@see README#section` (or `@see docs/page.md#section`) tags of src/, read from the repository's root. */
function seeTags() {
	const tags = [];
	for (const entry of readdirSync("src", { recursive: true })) {
		const file = join("src", String(entry));
		if (!file.endsWith(".ts")) continue;
		readFileSync(file, "utf8")
			.split("\n")
			.forEach((line, index) => {
				for (const match of line.matchAll(/@see ((?:README|docs\/[\w-]+\.md)#[\w-]+)/g))
					tags.push({ file, line: index + 1, target: match[1].replace(/^README#/, "README.md#") });
			});
	}
	return tags;
}
if (process.argv.length <= 2) {
	for (const tag of seeTags()) {
		const problem = problemOf("README.md", tag.target);
		if (problem === undefined) passed += 1;
		else {
			failed += 1;
			console.log(`not ok - ${tag.file}:${tag.line} (@see ${tag.target})\n  ${problem}`);
		}
	}
}
console.log(`${files.length} files and src/'s @see tags: ${passed + failed} relative links and anchors`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
