// The ranking key's settings checked together: both set leaves /rank off; a Secret that cannot be read, a warning.
import type { SettingsChecks } from "../../feature";
import { describeSecretName } from "../service/settingChecks";

/**
 * The ranking key (`rankingKey`, or the Secret `rankingKeySecret` names), optional unlike the API key: both set, or
 * a Secret that cannot be read, leave only `/rank` off, with a warning.
 * @internal
 */
export const RANKING_KEY_CHECKS: SettingsChecks = {
	between: (usable, nameOf) => {
		if (usable.rankingKey === undefined || usable.rankingKeySecret === undefined) return undefined;
		// Optional, unlike the API key: /rank stays off (its default) rather than guessing which one was meant.
		const problem = `${nameOf("rankingKey")} and ${nameOf("rankingKeySecret")} are both set; keep one`;
		usable.rankingKey = undefined;
		usable.rankingKeySecret = undefined;
		return { field: "rankingKey", problem };
	},
	resolve: (config, settings, readSecret, nameOf) => {
		settings.rankingKey = undefined;
		settings.rankingKeySecret = undefined;
		if (config.rankingKey !== undefined) {
			settings.rankingKey = config.rankingKey;
			return [true];
		}
		const secretName = config.rankingKeySecret as string | undefined;
		if (secretName === undefined) return [true];
		const [ok, secret] = pcall(readSecret, secretName);
		if (ok && typeIs(secret, "Secret")) {
			settings.rankingKey = secret;
			return [true];
		}
		return [
			true,
			`could not read the Roblox Secret ${describeSecretName(secretName)} (${nameOf("rankingKeySecret")}); ` +
				"/rank is off, every other command works",
		];
	},
};
