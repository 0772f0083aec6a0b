const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** The base64 digit for the 6-bit value `bits`. */
function digit(bits: number): string {
	return ALPHABET.sub(bits + 1, bits + 1);
}

/**
 * Standard base64 (RFC 4648, with `=` padding) of a string's bytes: the deployed service takes a chat line of a
 * `message` event this way (`encoded: true`, docs/service-contract.md#session-events), whatever its script.
 * @internal
 */
export function toBase64(text: string): string {
	const parts = new Array<string>();
	for (let i = 1; i <= text.size(); i += 3) {
		const [a, b, c] = text.byte(i, i + 2);
		const triple = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
		parts.push(digit((triple >>> 18) & 63), digit((triple >>> 12) & 63));
		parts.push(b === undefined ? "=" : digit((triple >>> 6) & 63), c === undefined ? "=" : digit(triple & 63));
	}
	return parts.join("");
}
