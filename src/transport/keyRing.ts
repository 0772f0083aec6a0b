// The keys a transport holds: the workspace's API key and, when the game gives it, the separate ranking key. Each
// request carries exactly one of them; every text that may echo either passes through `scrub`.
import { checkApiKey } from "./settingsChecks";
import { maskKeyLike, redact } from "./staffOpsError";

/**
 * Which key a request carries: the API key in the `loader-id` header (every route but one), or the ranking key in
 * the `api-key` header (the deployed service's `PUT /ranking/users/{id}/role/{rank}` alone).
 * @internal
 */
export type Credential = "apiKey" | "rankingKey";

/** One key as given: its header value and, when it is a string, its text (a Secret's cannot be read). */
interface HeldKey {
	readonly value: string | Secret;
	readonly text: string | undefined;
}

function hold(key: unknown): HeldKey {
	const value = key as string | Secret;
	return { value, text: typeIs(value, "string") ? value : undefined };
}

/**
 * The keys, kept in closures of this object so printing a transport shows neither. A key's problem is a sentence
 * naming the setting, never the key.
 * @internal
 */
export class KeyRing {
	/** Why the API key cannot be used (every request then fails), or undefined. */
	readonly apiKeyProblem: string | undefined;
	/** Why no request can carry the ranking key (none given, or not a usable one), or undefined. */
	readonly rankingKeyProblem: string | undefined;
	private readonly apiKey: HeldKey;
	private readonly rankingKey: HeldKey | undefined;
	/** Texts of both keys that can be read: each is removed from every text, whichever key a request carried. */
	private readonly texts: Array<string>;

	constructor(apiKey: unknown, rankingKey: unknown) {
		this.apiKeyProblem = checkApiKey(apiKey);
		this.apiKey = this.apiKeyProblem === undefined ? hold(apiKey) : { value: "", text: undefined };
		this.rankingKeyProblem =
			rankingKey === undefined ? "no rankingKey is configured" : checkApiKey(rankingKey, "rankingKey");
		this.rankingKey = this.rankingKeyProblem === undefined ? hold(rankingKey) : undefined;
		this.texts = [];
		for (const key of [this.apiKey, this.rankingKey]) if (key?.text !== undefined) this.texts.push(key.text);
	}

	/** The headers of a request carrying `credential`: its key under its header name, never the other key. */
	headers(hasBody: boolean, credential: Credential = "apiKey"): Map<string, string | Secret> {
		const headers = new Map<string, string | Secret>([["Accept", "application/json"]]);
		if (credential === "rankingKey") headers.set("api-key", this.rankingKey?.value ?? "");
		else headers.set("loader-id", this.apiKey.value);
		if (hasBody) headers.set("Content-Type", "application/json");
		return headers;
	}

	/**
	 * Removes both keys from a text a request carrying `credential` may have echoed. A key held as a Secret cannot be
	 * found by its text, so anything key-like is masked where that key travelled: on every request for a Secret API
	 * key, on ranking requests for a Secret ranking key (no other request carries it).
	 */
	scrub(text: string, credential: Credential = "apiKey"): string {
		let out = this.redactKnown(text);
		const sent = credential === "rankingKey" ? this.rankingKey : this.apiKey;
		if (this.apiKeyProblem === undefined && this.apiKey.text === undefined) out = maskKeyLike(out);
		else if (sent !== undefined && sent !== this.apiKey && sent.text === undefined) out = maskKeyLike(out);
		return out;
	}

	/** Removes the known text of both keys (nothing for a Secret), for every value of a typed answer. */
	redactKnown(text: string): string {
		let out = text;
		for (const key of this.texts) out = redact(out, key);
		return out;
	}
}
