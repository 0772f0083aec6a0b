// The connection settings' checks: the address and the key (what StaffOps cannot work without), the tables of numbers.
import { isFiniteNumber, Rule } from "../../../api/arguments";
import { RequestBudget } from "../../../transport/budget";
import { checkApiKey, checkBaseUrl } from "../../../transport/settingsChecks";
import type { SettingsChecks } from "../../feature";

/** The default name of the Secret that holds the key (the drop-in model's `ApiKeySecret` default). @internal */
export const DEFAULT_SECRET_NAME = "staffops_api_key";

/** A Roblox Secret's name. @internal */
export const secretNameRule: Rule = [
	(value) => typeIs(value, "string") && value.size() > 0 && value.size() <= 128 && value.find("%c")[0] === undefined,
	"the name of a Roblox Secret (a non-empty string)",
];

/** A key itself, or a `Secret`. @internal */
export const keyRule: Rule = [(value) => checkApiKey(value) === undefined, "a non-empty string or a Secret"];

/** A table of numbers whose fields are among `fields`. */
function numberFields(fields: ReadonlyArray<string>): Rule {
	return [
		(value) => {
			if (!typeIs(value, "table") || getmetatable(value) !== undefined) return false;
			for (const [key, field] of pairs(value as Record<string, unknown>)) {
				if (!typeIs(key, "string") || !fields.includes(key) || !isFiniteNumber(field)) return false;
			}
			return true;
		},
		`a table of numbers with fields among ${fields.join(", ")}`,
	];
}
const budgetOptions = numberFields(["perMinute", "burst", "maxWait", "limitPause"]);

/** The request budget: a `RequestBudget`, or options for the library-wide one. @internal */
export const budgetRule: Rule = [
	(value) => value instanceof RequestBudget || budgetOptions[0](value),
	`a RequestBudget or ${budgetOptions[1]}`,
];

/** The transport's retry options. @internal */
export const retryRule = numberFields(["maxAttempts", "baseDelay", "maxDelay", "maxRetryAfter"]);

/** The service's address. @internal */
export const baseUrlRule: Rule = [(value) => checkBaseUrl(value)[0], "an https:// address"];

/**
 * Names a Secret in a warning. Only the default name is quoted: a name of the user's own may be a key pasted into
 * the wrong setting, and a warning must never print a key.
 * @internal
 */
export function describeSecretName(secretName: string): string {
	return secretName === DEFAULT_SECRET_NAME
		? `"${secretName}"`
		: `named in the setting (${secretName.size()} characters)`;
}

/**
 * The address and the key, which StaffOps cannot work without: a missing or bad address, or both key settings, stop
 * it; the key resolved from its Secret (the default name when neither is given, only possible from Luau).
 * @internal
 */
export const SERVICE_CHECKS: SettingsChecks = {
	refuse: (record, nameOf) => {
		if (record.baseUrl === undefined) {
			return `${nameOf("baseUrl")} is required: the Staff Operations Service's address (https://...)`;
		}
		const [urlOk, urlProblem] = checkBaseUrl(record.baseUrl, nameOf("baseUrl"));
		if (!urlOk) return urlProblem;
		if (record.apiKey !== undefined && record.apiKeySecret !== undefined) {
			return `${nameOf("apiKey")} and ${nameOf("apiKeySecret")} are both set; keep one (the Secret is preferred)`;
		}
		return undefined;
	},
	resolve: (config, settings, readSecret, nameOf) => {
		let apiKey = config.apiKey as string | Secret | undefined;
		if (apiKey === undefined) {
			// Neither given (only possible from Luau): the default name, the one the model and the docs use.
			const secretName = (config.apiKeySecret as string | undefined) ?? DEFAULT_SECRET_NAME;
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
		}
		settings.apiKey = apiKey;
		settings.apiKeySecret = undefined;
		return [true];
	},
};
