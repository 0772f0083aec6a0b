// The fenced code blocks of the README and of the user's docs it links to, for the scripts that check them
// (scripts/readme-examples.mjs compiles them, scripts/readme-luau.mjs runs the Luau ones). A block may be named by an
// HTML comment on the nearest non-blank line above its fence, `<!-- example: NAME -->`, which renders as nothing: the
// name picks the check that runs it.
import { readdirSync } from "node:fs";

/** The documents whose examples are checked: the README and every page of docs/ (a page moved there stays checked). */
export function exampleDocuments() {
	const pages = readdirSync("docs")
		.filter((name) => name.endsWith(".md"))
		.sort()
		.map((name) => `docs/${name}`);
	return ["README.md", ...pages];
}

/** The fenced blocks of a Markdown text: language, the line the fence opens on, the body, and the example's name. */
export function readmeBlocks(text) {
	const blocks = [];
	const lines = text.split("\n");
	for (let index = 0; index < lines.length; index++) {
		const open = /^```(\w*)\s*$/.exec(lines[index]);
		if (!open) continue;
		const start = index + 1;
		let above = index - 1;
		while (above >= 0 && lines[above].trim() === "") above--;
		const named = above >= 0 ? /^<!-- example: ([\w-]+) -->$/.exec(lines[above].trim()) : null;
		const body = [];
		for (index++; index < lines.length && !/^```\s*$/.test(lines[index]); index++) body.push(lines[index]);
		blocks.push({ language: open[1], line: start, source: body.join("\n") + "\n", example: named?.[1] });
	}
	return blocks;
}
