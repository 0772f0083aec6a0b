// The licence texts that travel inside the drop-in model and the Wally package. Rojo turns a `.txt` file into a
// StringValue, so each text is written as `<name>.txt` and shows up in Studio as a StringValue named `LICENSE` or
// `THIRD_PARTY_NOTICES` beside the code it covers.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The texts, by the instance name they get: this project's licence and the bundled packages' licences. */
export const NOTICES = { LICENSE: "LICENSE", THIRD_PARTY_NOTICES: "THIRD_PARTY_NOTICES.md" };

/** Writes `LICENSE.txt` and `THIRD_PARTY_NOTICES.txt` into `dir`. */
export function writeNoticeTexts(dir) {
	mkdirSync(dir, { recursive: true });
	for (const [name, source] of Object.entries(NOTICES)) {
		writeFileSync(join(dir, `${name}.txt`), readFileSync(source, "utf8"));
	}
}
