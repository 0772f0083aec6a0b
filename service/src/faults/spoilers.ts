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

/**
 * The real answer with top-level `fields` set to the given values: a service that extended an enumerated field
 * (a call status, an action type) with a value the client has not met.
 */
export function extended(payload: string, fields: Record<string, string>): string {
	try {
		return JSON.stringify({ ...(JSON.parse(payload) as Record<string, unknown>), ...fields });
	} catch {
		return payload;
	}
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
