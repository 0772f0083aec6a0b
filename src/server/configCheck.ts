import { HttpService } from "@rbxts/services";
import { t } from "@rbxts/t";
import { isFiniteNumber, Rule } from "../api/arguments";
import { characterCount } from "../shared/textLength";
import { RequestBudget } from "../transport/budget";
import { checkApiKey, checkBaseUrl } from "../transport/settingsChecks";
import type { StaffOpsConfig, StaffOpsSettings } from "./config";
import { declaredDefault, SETTINGS } from "./features";

/** A number setting's rule, from the range its feature declares. */
function declaredRange(field: string): Rule {
	const setting = SETTINGS.get(field)!;
	const [min, max] = [setting.min!, setting.max!];
	return [(value) => isFiniteNumber(value) && value >= min && value <= max, `a number from ${min} to ${max}`];
}
const name: Rule = [
	(value) => typeIs(value, "string") && value.size() > 0 && value.size() <= 128 && value.find("%c")[0] === undefined,
	"the name of a Roblox Secret (a non-empty string)",
];
const bool: Rule = [t.boolean, "true or false"];
const text: Rule = [t.string, "a string"];
const numberFields = (fields: ReadonlyArray<string>): Rule => [
	(value) => {
		if (!typeIs(value, "table") || getmetatable(value) !== undefined) return false;
		for (const [key, field] of pairs(value as Record<string, unknown>)) {
			if (!typeIs(key, "string") || !fields.includes(key) || !isFiniteNumber(field)) return false;
		}
		return true;
	},
	`a table of numbers with fields among ${fields.join(", ")}`,
];
const budgetOptions = numberFields(["perMinute", "burst", "maxWait", "limitPause"]);

/**
 * The settings whose check their declaration cannot say: the address, the key, tables, functions, choices. Keyed by
 * the config's fields: a rule for a setting that does not exist does not compile.
 */
const OWN_RULES: Readonly<Partial<Record<keyof StaffOpsConfig, Rule>>> = {
	baseUrl: [(value) => checkBaseUrl(value)[0], "an https:// address"],
	apiKeySecret: name,
	apiKey: [(value) => checkApiKey(value) === undefined, "a non-empty string or a Secret"],
	rankingKeySecret: name,
	rankingKey: [(value) => checkApiKey(value) === undefined, "a non-empty string or a Secret"],
	kickMessage: [
		(value) => typeIs(value, "function") || (typeIs(value, "string") && characterCount(value) <= 400),
		"a string of at most 400 characters (with {reason}) or a function of the reason",
	],
	budget: [
		(value) => value instanceof RequestBudget || budgetOptions[0](value),
		`a RequestBudget or ${budgetOptions[1]}`,
	],
	retry: numberFields(["maxAttempts", "baseDelay", "maxDelay", "maxRetryAfter"]),
	staffHint: [
		(value) =>
			t.strictInterface({
				groupId: (id: unknown): id is number => isFiniteNumber(id) && id > 0 && id % 1 === 0,
				minRank: (rank: unknown): rank is number =>
					isFiniteNumber(rank) && rank >= 1 && rank <= 255 && rank % 1 === 0,
			})(value),
		"{ groupId: a group id, minRank: a rank from 1 to 255 }",
	],
	keepAlive: [
		(value) =>
			t.strictInterface({
				method: t.literal("GET", "POST", "PUT", "PATCH"),
				path: (path: unknown): path is string =>
					typeIs(path, "string") &&
					path.sub(1, 1) === "/" &&
					path.size() <= 512 &&
					path.find("[%s%c#]")[0] === undefined,
			})(value),
		'{ method: "POST" (or GET, PUT, PATCH), path: "/..." }',
	],
	sessions: [
		(value) => t.strictInterface({ reportLeaves: t.optional(t.boolean), endServer: t.optional(t.boolean) })(value),
		"{ reportLeaves?: boolean, endServer?: boolean }",
	],
	serviceProfile: [t.literal("auto", "deployed", "interface"), '"auto", "deployed" or "interface"'],
	logLevel: [t.literal("quiet", "info", "verbose"), '"quiet", "info" or "verbose"'],
	activity: [
		(value) => t.strictInterface({ everyone: t.optional(t.boolean), chatMessages: t.optional(t.boolean) })(value),
		"{ everyone?: boolean, chatMessages?: boolean }",
	],
	// Each command is checked when the commands are listed (commands/registry.ts): a bad one is left out alone.
	gameCommands: [(value) => t.array(t.table)(value), "a list of staff commands { name, parameters?, run }"],
};

/**
 * How each top-level setting is checked: its own rule, or what its declaration (`features/*.ts`) says: a number in
 * its range, true or false, or a string. A declared setting without either is this library's mistake, caught at load.
 */
const RULES = new Map<string, Rule>();
for (const [field, setting] of SETTINGS) {
	const [top] = field.split(".");
	const own = OWN_RULES[top as keyof StaffOpsConfig];
	if (own !== undefined) RULES.set(top, own);
	else if (setting.min !== undefined) RULES.set(field, declaredRange(field));
	else if (typeIs(setting.default ?? setting.modelDefault, "boolean")) RULES.set(field, bool);
	else if (typeIs(setting.default ?? setting.modelDefault, "string")) RULES.set(field, text);
	else error(`StaffOps declares no way to check the setting ${field}`);
}

function templateMessage(template: string): (reason: string) => string {
	return (reason) => {
		const [text] = template.gsub("{reason}", () => reason);
		return text;
	};
}

/**
 * How a warning names a setting: what the user edited. Code's own configuration: `config.baseUrl`; the drop-in
 * model passes its attribute names (`attribute BaseUrl`) through {@link settingNamer}.
 * @internal
 */
export type SettingName = (field: string) => string;

/** Names settings as `config.<field>`, except those `names` spells otherwise (the drop-in model's attributes). @internal */
export function settingNamer(names?: Readonly<Record<string, string>>): SettingName {
	return (field) => names?.[field] ?? `config.${field}`;
}

/** A bad optional setting: its field and the sentence naming it. @internal */
export interface SettingProblem {
	readonly field: string;
	readonly problem: string;
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
	if (record.baseUrl === undefined) {
		return [false, `${nameOf("baseUrl")} is required: the Staff Operations Service's address (https://...)`];
	}
	const [urlOk, urlProblem] = checkBaseUrl(record.baseUrl, nameOf("baseUrl"));
	if (!urlOk) return [false, urlProblem];
	if (record.apiKey !== undefined && record.apiKeySecret !== undefined) {
		return [
			false,
			`${nameOf("apiKey")} and ${nameOf("apiKeySecret")} are both set; keep one (the Secret is preferred)`,
		];
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
	if (usable.rankingKey !== undefined && usable.rankingKeySecret !== undefined) {
		// Optional, unlike the API key: /rank stays off (its default) rather than guessing which one was meant.
		const problem = `${nameOf("rankingKey")} and ${nameOf("rankingKeySecret")} are both set; keep one`;
		problems.push({ field: "rankingKey", problem });
		usable.rankingKey = undefined;
		usable.rankingKeySecret = undefined;
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

/** The default name of the Secret that holds the key (the drop-in model's `ApiKeySecret` default). @internal */
export const DEFAULT_SECRET_NAME = declaredDefault<string>("apiKeySecret");

/** The default kick message template. @internal */
export const DEFAULT_KICK_MESSAGE = declaredDefault<string>("kickMessage");

/**
 * Names a Secret in a warning. Only the default name is quoted: a name of the user's own may be a key pasted into
 * the wrong setting, and a warning must never print a key.
 */
function describeSecretName(secretName: string): string {
	return secretName === DEFAULT_SECRET_NAME
		? `"${secretName}"`
		: `named in the setting (${secretName.size()} characters)`;
}

/** Reads a Roblox Secret by name. @internal */
export type SecretReader = (name: string) => Secret;

/**
 * The ranking key (`rankingKey`, or the Secret `rankingKeySecret` names), or undefined with a warning when that Secret
 * cannot be read: the ranking key is optional, so without it only `/rank` is off.
 */
function resolveRankingKey(
	config: StaffOpsConfig,
	readSecret: SecretReader,
	nameOf: SettingName,
): [key: string | Secret | undefined, warning?: string] {
	if (config.rankingKey !== undefined) return [config.rankingKey];
	const secretName = config.rankingKeySecret;
	if (secretName === undefined) return [undefined];
	const [ok, secret] = pcall(readSecret, secretName);
	if (ok && typeIs(secret, "Secret")) return [secret];
	return [
		undefined,
		`could not read the Roblox Secret ${describeSecretName(secretName)} (${nameOf("rankingKeySecret")}); ` +
			"/rank is off, every other command works",
	];
}

/**
 * Fills in the defaults (each feature's declaration) and resolves the keys of a configuration {@link screenConfig}
 * accepted: the resolved configuration with the warnings to print (an optional ranking key that cannot be read), or
 * one sentence saying why the API key cannot be had.
 * @internal
 */
export function resolveConfig(
	config: StaffOpsConfig,
	readSecret: SecretReader = (secretName) => HttpService.GetSecret(secretName),
	nameOf: SettingName = settingNamer(),
): [ok: true, config: StaffOpsSettings, warnings: ReadonlyArray<string>] | [ok: false, problem: string] {
	let apiKey: string | Secret;
	if (config.apiKey === undefined) {
		// Neither given (only possible from Luau): the default name, the one the model and the docs use.
		const secretName = config.apiKeySecret ?? DEFAULT_SECRET_NAME;
		const [ok, secret] = pcall(readSecret, secretName);
		if (!ok || !typeIs(secret, "Secret")) {
			return [
				false,
				`could not read the Roblox Secret ${describeSecretName(secretName)} (${nameOf("apiKeySecret")}). ` +
					"Add it on the Creator Dashboard under your game's Secrets, and for Studio playtests in Studio under " +
					"File > Experience Settings > Security > Secrets",
			];
		}
		apiKey = secret;
	} else {
		apiKey = config.apiKey;
	}
	// Each setting as given, else its declared default (a nested one's parent is a table, `{}` when left out).
	const given = config as unknown as Record<string, unknown>;
	const settings: Record<string, unknown> = {};
	for (const [field] of RULES) settings[field] = given[field] ?? SETTINGS.get(field)?.default;
	settings.apiKey = apiKey;
	settings.apiKeySecret = undefined;
	const [rankingKey, rankingWarning] = resolveRankingKey(config, readSecret, nameOf);
	settings.rankingKey = rankingKey;
	settings.rankingKeySecret = undefined;
	settings.sessions = config.sessions ?? {};
	settings.activity = config.activity ?? {};
	const kickMessage = config.kickMessage;
	settings.kickMessage = typeIs(kickMessage, "function")
		? kickMessage
		: templateMessage(kickMessage !== undefined && kickMessage !== "" ? kickMessage : DEFAULT_KICK_MESSAGE);
	return [true, settings as unknown as StaffOpsSettings, rankingWarning !== undefined ? [rankingWarning] : []];
}
