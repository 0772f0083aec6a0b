/** What a "malformed" fault answers: not JSON, though labelled as JSON, like a proxy's error page. */
export const MALFORMED_BODY = "<html><body><h1>502 Bad Gateway</h1></body></html>";

/** The first half of the real answer; any proper prefix of a JSON object fails to parse. */
export function truncate(payload: string): string {
	return payload.slice(0, Math.floor(payload.length / 2));
}

function changeType(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(changeType);
	if (value !== null && typeof value === "object") {
		return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, changeType(inner)]));
	}
	if (typeof value === "number" || typeof value === "boolean") return String(value);
	if (typeof value === "string") {
		const numeric = Number(value);
		return value.trim() !== "" && Number.isFinite(numeric) ? numeric : value.length;
	}
	return value;
}

/** Names no answer may have a field set by: they would reach the object's prototype, not the answer. */
const UNSAFE_NAMES = new Set(["__proto__", "constructor", "prototype"]);

/**
 * Sets `value` at `path` (names and list positions from 0, joined by dots: `status`, `messages.0.origin`) in
 * `answer`. Every step but the last must already be there (an object, or a list with that position); a path that
 * leads nowhere changes nothing, so a fault never invents a list item or an object.
 */
function setAt(answer: Record<string, unknown>, path: string, value: string): void {
	const names = path.split(".");
	if (names.some((name) => name === "" || UNSAFE_NAMES.has(name))) return;
	let here: unknown = answer;
	for (const [index, name] of names.entries()) {
		if (here === null || typeof here !== "object") return;
		const last = index === names.length - 1;
		if (Array.isArray(here)) {
			if (!/^\d+$/.test(name) || Number(name) >= here.length) return;
			if (last) here[Number(name)] = value;
			else here = here[Number(name)];
		} else {
			const record = here as Record<string, unknown>;
			if (last) record[name] = value;
			else if (Object.hasOwn(record, name)) here = record[name];
			else return;
		}
	}
}

/**
 * The real answer with the fields named in `fields` set to the given values: a service that extended an enumerated
 * field (a call status, an action type, a message's origin) with a value the client has not met. A name is a
 * top-level field or a path into the answer (`messages.0.origin`, `ongoingChats.0.messages.1.origin`).
 */
export function extended(payload: string, fields: Record<string, string>): string {
	let answer: unknown;
	try {
		answer = JSON.parse(payload);
	} catch {
		return payload;
	}
	if (answer === null || typeof answer !== "object" || Array.isArray(answer)) return payload;
	for (const [path, value] of Object.entries(fields)) setAt(answer as Record<string, unknown>, path, value);
	return JSON.stringify(answer);
}

/**
 * The real answer's shape with every leaf's JSON type changed (numbers and booleans become strings, strings
 * become numbers), except the top-level `success`, so a client gets past its success check and must catch
 * the rest with its response schemas.
 */
export function wrongTypes(payload: string): string {
	let answer: Record<string, unknown>;
	try {
		answer = JSON.parse(payload) as Record<string, unknown>;
	} catch {
		return payload;
	}
	const spoiled = changeType(answer) as Record<string, unknown>;
	if ("success" in answer) spoiled.success = answer.success;
	return JSON.stringify(spoiled);
}
