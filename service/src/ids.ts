import { randomBytes, randomUUID } from "node:crypto";

/** A 24-hex-digit document id (seconds since epoch, then random), the form the hosted service uses for `_id`. */
export function newDocumentId(now = Date.now()): string {
	const seconds = Math.floor(now / 1000)
		.toString(16)
		.padStart(8, "0");
	return seconds + randomBytes(8).toString("hex");
}

/** Internal game ids are UUIDs so they are never mistaken for a running game's `_id` when debugging. */
export function newInternalGameId(): string {
	return randomUUID();
}
