// How user text is measured: in characters wherever a person counts (a reason, a command line, a message), in bytes
// only where a wire or Roblox limit is in bytes. A Cyrillic or CJK character is 2 to 4 bytes of UTF-8.

/** The characters of `text` (UTF-8 code points); a text that is not valid UTF-8 counts its bytes, never fewer. @internal */
export function characterCount(text: string): number {
	const [count] = utf8.len(text);
	return typeIs(count, "number") ? count : text.size();
}

/** `text` cut to at most `maxBytes` bytes, never inside a UTF-8 sequence (a cut character would show as junk). @internal */
export function cutToBytes(text: string, maxBytes: number): string {
	if (text.size() <= maxBytes) return text;
	let cut = maxBytes + 1;
	// Bytes 0x80 to 0xBF continue a sequence: the cut moves back to the first byte of the character it fell in.
	while (cut > 1) {
		const [byte] = string.byte(text, cut);
		if (byte === undefined || byte < 0x80 || byte >= 0xc0) break;
		cut -= 1;
	}
	return text.sub(1, cut - 1);
}
