// Checks several features' settings share, for their declarations' `check` (core: it names no feature).
import { t } from "@rbxts/t";
import type { Rule } from "../api/arguments";

/**
 * A table of optional flags, `{ a?: boolean, b?: boolean }` (the table of a nested setting's flags); any other
 * field, or a flag that is not a boolean, fails it.
 * @internal
 */
export function flagsRule(flags: ReadonlyArray<string>): Rule {
	const shape: { [flag: string]: t.check<boolean | undefined> } = {};
	for (const flag of flags) shape[flag] = t.optional(t.boolean);
	const check = t.strictInterface(shape);
	return [(value) => check(value), `{ ${flags.map((flag) => `${flag}?: boolean`).join(", ")} }`];
}
