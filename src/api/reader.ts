import { t } from "@rbxts/t";
import type { Slicer } from "../shared/slicer";

// A tolerant reader for the service's answers (docs/service-contract.md#answers-are-read-tolerantly): a field the library or game code cannot do without
// must be there with a usable type; any other field that is missing, null, or of a type we cannot use is left
// out, and fields we do not know are kept. Reading works in place on the table JSONDecode just made (nothing
// else holds it), so a usable answer costs no copy. A large answer is read in slices that give the frame back.

/**
 * Reads one value in place: undefined when usable (after dropping the parts it could not use), else what is
 * wrong, naming the path. The phantom `type` carries the TypeScript type of a usable value.
 * @internal
 */
export interface Reader<T> {
	/** `slices`, when given, is stepped per field and item, so a large answer gives the frame back while read. */
	readonly read: (value: unknown, path: string, slices?: Slicer) => string | undefined;
	/** Never set: only carries `T` for the compiler. */
	readonly type?: T;
}

/** The type a reader yields. @internal */
export type ReadType<R> = R extends Reader<infer T> ? T : never;

function leaf<T>(check: (value: unknown) => boolean, expects: string): Reader<T> {
	return { read: (value, path) => (check(value) ? undefined : `\`${path}\` is not ${expects}`) };
}

/** @internal */
export const str = leaf<string>(t.string, "a string");
/** @internal */
export const num = leaf<number>((value) => typeIs(value, "number") && value === value, "a number");
/** @internal */
export const bool = leaf<boolean>(t.boolean, "a boolean");
/** An object whose inner fields are not described (e.g. `goals`). @internal */
export const anyTable = leaf<object>(t.table, "an object");

/** One of the given literal values. @internal */
export function literal<T extends string | boolean>(...values: Array<T>): Reader<T> {
	const allowed = new Set<unknown>(values);
	return leaf<T>((value) => allowed.has(value), `one of ${values.map((v) => tostring(v)).join(", ")}`);
}

/** The first reader that accepts the value. @internal */
export function either<A, B>(a: Reader<A>, b: Reader<B>): Reader<A | B> {
	return {
		read: (value, path, slices) => {
			const problem = a.read(value, path, slices);
			return problem === undefined ? undefined : b.read(value, path, slices);
		},
	};
}

/** A field of an object reader. @internal */
export interface Field<T, Required extends boolean> {
	readonly reader: Reader<T>;
	readonly required: Required;
	/** Put in place of an absent value (only for fields that are not required). */
	readonly absent?: () => T;
}

/** A field the answer is useless without: missing or unusable fails the whole answer. @internal */
export function req<T>(reader: Reader<T>): Field<T, true> {
	return { reader, required: true };
}

/** A field that may be absent; an unusable value is left out. @internal */
export function opt<T>(reader: Reader<T>): Field<T, false> {
	return { reader, required: false };
}

/**
 * A list the service leaves out when it is empty: absent (or null) reads as `[]`; an unusable value is refused.
 * @internal
 */
export function list<T>(item: Reader<T>): Field<Array<T>, true> {
	return { reader: array(item), required: true, absent: () => [] };
}

type Fields = { readonly [name: string]: Field<unknown, boolean> };
type RequiredKeys<F extends Fields> = { [K in keyof F]: F[K] extends Field<unknown, true> ? K : never }[keyof F];
type OptionalKeys<F extends Fields> = Exclude<keyof F, RequiredKeys<F>>;
type FieldType<X> = X extends Field<infer T, boolean> ? T : never;
/** The object type an object reader yields. @internal */
export type ObjectOf<F extends Fields> = { [K in RequiredKeys<F>]: FieldType<F[K]> } & {
	[K in OptionalKeys<F>]?: FieldType<F[K]>;
};

/** A JSON object with these fields; other fields pass untouched. @internal */
export function object<F extends Fields>(fields: F): Reader<ObjectOf<F>> {
	const names = new Array<string>();
	for (const [name] of pairs(fields)) names.push(name as string);
	names.sort();
	return {
		read: (value, path, slices) => {
			if (!typeIs(value, "table")) return `\`${path}\` is not an object`;
			const record = value as Record<string, unknown>;
			for (const name of names) {
				const field = fields[name];
				const fieldPath = path === "" ? name : `${path}.${name}`;
				const item = record[name];
				if (item === undefined) {
					if (field.absent !== undefined) record[name] = field.absent();
					else if (field.required) return `\`${fieldPath}\` is missing`;
					continue;
				}
				slices?.step();
				const problem = field.reader.read(item, fieldPath, slices);
				if (problem === undefined) continue;
				if (field.required) return problem;
				record[name] = undefined;
			}
			return undefined;
		},
	};
}

/** A JSON array; items the item reader cannot use are left out, the rest keep their order. @internal */
export function array<T>(item: Reader<T>): Reader<Array<T>> {
	return {
		read: (value, path, slices) => {
			if (!typeIs(value, "table")) return `\`${path}\` is not a list`;
			const items = value as Array<defined>;
			const size = items.size();
			// A decoded JSON array has exactly the keys 1..n; anything else is an object, not a list.
			let keys = 0;
			for (const [key] of pairs(value as object)) {
				keys += 1;
				if (!typeIs(key, "number")) return `\`${path}\` is not a list`;
			}
			if (keys !== size) return `\`${path}\` is not a list`;
			let kept = 0;
			for (let i = 0; i < size; i++) {
				const entry = items[i];
				slices?.step();
				if (item.read(entry, `${path}[${i + 1}]`, slices) === undefined) {
					items[kept] = entry;
					kept += 1;
				}
			}
			for (let i = size - 1; i >= kept; i--) items.remove(i);
			return undefined;
		},
	};
}

/**
 * A reader with one more rule its fields cannot say (e.g. "this field or that one"), run once the reader found the
 * value usable. The rule returns what is wrong, or undefined.
 * @internal
 */
export function withRule<T>(reader: Reader<T>, rule: (value: T) => string | undefined): Reader<T> {
	return {
		read: (value, path, slices) => reader.read(value, path, slices) ?? rule(value as T),
	};
}

/** A list of strings. @internal */
export const strings = array(str);

/** The `success: true` every answer of the service carries. @internal */
export const succeeded = req(literal(true));
