import { HttpService } from "@rbxts/services";
import { t } from "@rbxts/t";
import { isFiniteNumber, Rule } from "../api/arguments";
import type { StaffOpsConfig, StaffOpsSettings } from "./config";
import type { SecretReader, SettingName, SettingProblem } from "./feature";
import { DECLARATIONS, SETTINGS } from "./features";

/** A number setting's rule, from the range its feature declares. */
function declaredRange(field: string): Rule {
	const setting = SETTINGS.get(field)!;
	const [min, max] = [setting.min!, setting.max!];
	return [(value) => isFiniteNumber(value) && value >= min && value <= max, `a number from ${min} to ${max}`];
}
const bool: Rule = [t.boolean, "true or false"];
const text: Rule = [t.string, "a string"];

/**
 * How each top-level setting is checked: its own rule (its declaration's `check`; a nested setting's table has it on
 * its first setting), or what its declaration (`features/<feature>/index.ts`) says: a number in its range, true or
 * false, or a string. A declared setting without either is this library's mistake, caught at load.
 */
const RULES = new Map<string, Rule>();
/** The settings resolved otherwise than "as given, else the default" (their declaration's `resolve`), by field. */
const RESOLVERS = new Map<string, (given: unknown) => unknown>();
for (const [field, setting] of SETTINGS) {
	const [top] = field.split(".");
	if (setting.resolve !== undefined) RESOLVERS.set(top, setting.resolve);
	if (setting.check !== undefined) RULES.set(top, setting.check);
	else if (top !== field && RULES.has(top)) continue;
	else if (setting.min !== undefined) RULES.set(field, declaredRange(field));
	else if (typeIs(setting.default ?? setting.modelDefault, "boolean")) RULES.set(field, bool);
	else if (typeIs(setting.default ?? setting.modelDefault, "string")) RULES.set(field, text);
	else error(`StaffOps declares no way to check the setting ${field}`);
}

/** Names settings as `config.<field>`, except those `names` spells otherwise (the drop-in model's attributes). @internal */
export function settingNamer(names?: Readonly<Record<string, string>>): SettingName {
	return (field) => names?.[field] ?? `config.${field}`;
}

/**
 * Screens a configuration, failing safe (README#quick-start-luau-drop-in-model): what StaffOps cannot work without (a configuration
 * table, the address, the key; a setting name it does not know, most likely a misspelled one of those) stops it with
 * one sentence; a bad optional setting is left out, so its default applies, and named in `problems`. No sentence
 * ever quotes a value: a value might be the key.
 * @internal
 */
export function screenConfig(
	config: unknown,
	nameOf: SettingName = settingNamer(),
): [usable: true, config: StaffOpsConfig, problems: ReadonlyArray<SettingProblem>] | [usable: false, problem: string] {
	if (!typeIs(config, "table")) return [false, "StaffOps.start needs a configuration table"];
	const record = config as Record<string, unknown>;
	for (const [key] of pairs(record)) {
		if (!typeIs(key, "string")) return [false, "the configuration may have only named fields"];
		if (!RULES.has(key)) return [false, `config has an unknown field \`${key}\``];
	}
	// What StaffOps cannot work without (the address, the key), each feature's in the features' order.
	for (const declaration of DECLARATIONS) {
		const refusal = declaration.checks?.refuse?.(record, nameOf);
		if (refusal !== undefined) return [false, refusal];
	}
	const names = new Array<string>();
	for (const [key] of RULES) names.push(key);
	names.sort();
	const usable: Record<string, unknown> = {};
	const problems = new Array<SettingProblem>();
	for (const field of names) {
		const value = record[field];
		const [check, expects] = RULES.get(field)!;
		if (value === undefined || check(value)) {
			usable[field] = value;
			continue;
		}
		const problem = `${nameOf(field)} must be ${expects}`;
		if (SETTINGS.get(field)?.required === true) return [false, problem];
		problems.push({ field, problem });
	}
	for (const declaration of DECLARATIONS) {
		const problem = declaration.checks?.between?.(usable, nameOf);
		if (problem !== undefined) problems.push(problem);
	}
	return [true, usable as unknown as StaffOpsConfig, problems];
}

/**
 * Checks a configuration: undefined when every setting is good, else the sentence naming the first bad one as
 * `nameOf` spells it (see {@link screenConfig} for which of them stop StaffOps).
 * @internal
 */
export function checkConfig(config: unknown, nameOf: SettingName = settingNamer()): string | undefined {
	const screened = screenConfig(config, nameOf);
	return screened[0] ? screened[2][0]?.problem : screened[1];
}

/**
 * Fills in the defaults (each feature's declaration) and resolves a configuration {@link screenConfig} accepted
 * (each setting's own `resolve`, then each feature's `checks.resolve`, which reads the keys' Secrets): the resolved
 * configuration with the warnings to print (an optional key that cannot be read), or one sentence saying why a key
 * StaffOps cannot work without cannot be had.
 * @internal
 */
export function resolveConfig(
	config: StaffOpsConfig,
	readSecret: SecretReader = (secretName) => HttpService.GetSecret(secretName),
	nameOf: SettingName = settingNamer(),
): [ok: true, config: StaffOpsSettings, warnings: ReadonlyArray<string>] | [ok: false, problem: string] {
	// Each setting as given, else its declared default, unless its declaration resolves it.
	const given = config as unknown as Record<string, unknown>;
	const settings: Record<string, unknown> = {};
	for (const [field] of RULES) {
		const resolve = RESOLVERS.get(field);
		settings[field] =
			resolve !== undefined ? resolve(given[field]) : (given[field] ?? SETTINGS.get(field)?.default);
	}
	// Then what each feature resolves from several settings (the keys from their Secrets), in the features' order.
	const warnings = new Array<string>();
	for (const declaration of DECLARATIONS) {
		const resolved = declaration.checks?.resolve?.(given, settings, readSecret, nameOf);
		if (resolved === undefined) continue;
		if (!resolved[0]) return [false, resolved[1]];
		if (resolved[1] !== undefined) warnings.push(resolved[1]);
	}
	return [true, settings as unknown as StaffOpsSettings, warnings];
}
