import type { Slicer } from "../shared/slicer";

// A large answer decoded piece by piece (docs/service-contract.md#the-sync-route: the deployed service's sync answer
// carries every open call's whole transcript, megabytes with a few long calls). One JSONDecode of the whole body would
// hold the frame for as long as it takes, and one bad byte anywhere would lose everything in it, the dashboard's
// actions included. Instead a walk finds where each top-level member, and each item of a large list, begins and
// ends (string.find does the scanning, the walk steps the slicer), and each piece is decoded on its own: a piece
// that cannot be decoded loses only itself, and members before a break in the text are kept.

/** Any JSON text decoder: `HttpService:JSONDecode`, which throws on bad JSON. @internal */
export type JsonDecode = (text: string) => unknown;

/** What the walk stops at: brackets, braces, quotes and commas. */
const STRUCTURE = '[%[%]{}",]';
const BACKSLASH = 92;

/** The index of the quote that ends the string opened at `quote`, or undefined when it never ends. */
function endOfString(text: string, quote: number): number | undefined {
	let from = quote + 1;
	for (;;) {
		const [at] = text.find('"', from, true);
		if (at === undefined) return undefined;
		// An escaped quote has an odd run of backslashes before it.
		let backslashes = 0;
		while (string.byte(text, at - 1 - backslashes)[0] === BACKSLASH) backslashes += 1;
		if (backslashes % 2 === 0) return at;
		from = at + 1;
	}
}

/**
 * The spans `[first, last]` of the parts of the JSON object or array that starts at `open` (its first non-space
 * character), split at its own commas. `complete` is false when the text breaks off or breaks down before the
 * container closes; the spans found until then are given.
 */
function partsOf(
	text: string,
	open: number,
	slices?: Slicer,
): { readonly spans: Array<[number, number]>; readonly complete: boolean } {
	const spans = new Array<[number, number]>();
	let depth = 0;
	let start = open + 1;
	let from = open;
	for (;;) {
		const [at] = text.find(STRUCTURE, from);
		if (at === undefined) return { spans, complete: false };
		slices?.step();
		const byte = string.byte(text, at)[0];
		from = at + 1;
		if (byte === 34) {
			// A string: skipped whole, whatever it holds.
			const last = endOfString(text, at);
			if (last === undefined) return { spans, complete: false };
			from = last + 1;
		} else if (byte === 123 || byte === 91) {
			depth += 1;
		} else if (byte === 125 || byte === 93) {
			depth -= 1;
			if (depth === 0) {
				spans.push([start, at - 1]);
				return { spans, complete: true };
			}
		} else if (depth === 1) {
			spans.push([start, at - 1]);
			start = at + 1;
		}
	}
}

/** Decodes one value's text, or undefined (with `ok` false) when it is not JSON. */
function decodeValue(decode: JsonDecode, text: string): [ok: boolean, value: unknown] {
	// Wrapped in a list: a bare scalar is then JSON whatever the decoder accepts at the top level.
	const [ok, wrapped] = pcall(decode, `[${text}]`);
	if (!ok || !typeIs(wrapped, "table")) return [false, undefined];
	const list = wrapped as Array<unknown>;
	return list.size() === 1 ? [true, list[0]] : [false, undefined];
}

/** Whether a span holds only white space (the one part of an empty container). */
function blank(text: string, [first, last]: [number, number]): boolean {
	return last < first || text.sub(first, last).match("^%s*$")[0] !== undefined;
}

/** What {@link decodeSections} made of a text. @internal */
export interface Sections {
	/** The object with every member that could be decoded; undefined when the text is not a JSON object at all. */
	readonly value?: Record<string, unknown>;
	/** One phrase per piece left out (a list item or member that could not be decoded, a text that broke off). */
	readonly lost: Array<string>;
}

/**
 * Decodes the JSON object `text` member by member, each member of `listed` (a list) item by item, those members
 * first (in their order), and yields between pieces through `slices`. An item that cannot be decoded is kept as
 * `false` (the answer's reader then leaves it out, one by one); a member that cannot be, or that the text never
 * reaches, is left out. Duplicate member names: the last wins, as in JSONDecode.
 * @internal
 */
export function decodeSections(
	decode: JsonDecode,
	text: string,
	listed: ReadonlyArray<string>,
	slices?: Slicer,
): Sections {
	const lost = new Array<string>();
	const [open] = text.find("%S");
	if (open === undefined || string.byte(text, open)[0] !== 123) return { lost };
	const { spans, complete } = partsOf(text, open, slices);
	if (!complete) lost.push("the end of the answer (it breaks off)");
	const members = new Map<string, [number, number]>();
	const names = new Array<string>();
	for (const span of spans) {
		if (blank(text, span)) continue;
		const [quote] = text.find('"', span[0], true);
		const last = quote !== undefined ? endOfString(text, quote) : undefined;
		const [colon] = last !== undefined ? text.find(":", last + 1, true) : [undefined];
		const [keyOk, key] = last !== undefined ? decodeValue(decode, text.sub(quote!, last)) : [false, undefined];
		if (colon === undefined || colon > span[1] || !keyOk || !typeIs(key, "string")) {
			lost.push("a member whose name cannot be read");
			continue;
		}
		if (!members.has(key)) names.push(key);
		members.set(key, [colon + 1, span[1]]);
	}
	const value: Record<string, unknown> = {};
	const order = [...listed.filter((name) => members.has(name)), ...names.filter((name) => !listed.includes(name))];
	for (const name of order) {
		const span = members.get(name)!;
		slices?.check();
		const [first] = text.find("%S", span[0]);
		if (listed.includes(name) && first !== undefined && string.byte(text, first)[0] === 91) {
			value[name] = decodeList(decode, text, first, name, lost, slices);
			continue;
		}
		const [ok, member] = decodeValue(decode, text.sub(span[0], span[1]));
		if (ok) value[name] = member;
		else lost.push(`\`${name}\`, which is not JSON`);
	}
	return { value, lost };
}

/** One list member, item by item; an item that is not JSON stays as `false`, so its neighbours keep their places. */
function decodeList(
	decode: JsonDecode,
	text: string,
	open: number,
	name: string,
	lost: Array<string>,
	slices?: Slicer,
): Array<defined> {
	const { spans, complete } = partsOf(text, open, slices);
	if (!complete) lost.push(`the end of \`${name}\` (it breaks off)`);
	// A null item stays a value too (as `false`): a hole would cut a Luau list short.
	const items = new Array<defined>();
	for (const span of spans) {
		if (blank(text, span)) continue;
		const [ok, item] = decodeValue(decode, text.sub(span[0], span[1]));
		if (ok) items.push(item ?? false);
		else {
			items.push(false);
			lost.push(`an item of \`${name}\` that is not JSON`);
		}
		slices?.check();
	}
	return items;
}
