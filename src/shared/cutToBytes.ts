/**
 * The first `bytes` bytes of `text` or fewer, cut where a character starts: stepping back over UTF-8 continuation
 * bytes (0x80-0xBF) never splits a character, so a cut text stays valid UTF-8 for any limit a wire or a store sets.
 * @internal
 */
export function cutToBytes(text: string, bytes: number): string {
	let keep = math.max(0, math.min(bytes, text.size()));
	while (keep > 0 && keep < text.size()) {
		const [byte] = string.byte(text, keep + 1);
		if (byte === undefined || byte < 0x80 || byte >= 0xc0) break;
		keep -= 1;
	}
	return text.sub(1, keep);
}
