import type { RequestPriority } from "../transport/budget";
import { safeEncode } from "../transport/httpDoor";
import { StaffOpsError } from "../transport/staffOpsError";
import type { HttpMethod, Transport } from "../transport/transport";
import { readCallOptions } from "./callOptions";
import { anyAnswer, decodeAnswer, redactEverywhere } from "./codec";

/**
 * A request to a route the interface does not list, for {@link StaffOpsApiClient.request}.
 * @see README#routes-the-interface-does-not-list
 */
export interface RawRequest {
	readonly method: HttpMethod;
	/** Starts with `/`; may carry a query string. Path segments you build from values must be percent-encoded. */
	readonly path: string;
	/** A JSON-encodable table, for methods other than GET. */
	readonly body?: object;
	/**
	 * Whether sending it again after an unknown outcome (a timeout, a dropped connection, a 500/502/504) is harmless.
	 * Default: true for GET, false otherwise. Requests the service certainly did not act on are retried either way.
	 */
	readonly safeToRepeat?: boolean;
	/** Default `normal`. */
	readonly priority?: RequestPriority;
	/** At most this many attempts (1 to 10), instead of the api client's retry settings. */
	readonly maxAttempts?: number;
}

/**
 * The largest `client.request` body sent, in bytes: as large as the largest answer read (`MAX_ANSWER_BYTES`); no
 * route of the service takes more, and a bigger body is a bug that would cost the server its HTTP time.
 * @internal
 */
export const MAX_REQUEST_BODY_BYTES = 1_000_000;

/** Any byte above 127: raw non-ASCII text (a Lua pattern; bytes, not characters). */
const NON_ASCII = `[${string.char(128)}-${string.char(255)}]`;

/**
 * Whether a path is one the client sends as given: no spaces or control characters (raw or percent-encoded), no raw
 * non-ASCII bytes (a no-break or ideographic space among them; encode such text), no `#`, backslash or encoded
 * slash, no empty segment, and no `.` or `..` segment in any spelling a server or proxy may read as one (`%2e%2e`,
 * `.%2E`, `..;x`).
 */
function pathIsPlain(path: string): boolean {
	if (path.find("[%s%c#\\]")[0] !== undefined || path.find(NON_ASCII)[0] !== undefined) return false;
	if (path.find("%%[01]%x")[0] !== undefined || path.find("%%7[fF]")[0] !== undefined) return false;
	if (path.find("%%2[fF]")[0] !== undefined || path.find("%%5[cC]")[0] !== undefined) return false;
	if (path.find("//", 1, true)[0] !== undefined) return false;
	for (const segment of path.sub(2).split("/")) {
		const [dots] = segment.gsub("%%2[eE]", ".");
		const [name] = dots.match("^[^;]*");
		if (name === "." || name === "..") return false;
	}
	return true;
}

/**
 * Checks and sends a {@link RawRequest} (`client.request`): the decoded answer of a 2xx status, with the key redacted
 * wherever it appears, or a {@link StaffOpsError}.
 * @internal
 */
export function sendRawRequest(transport: Transport, request: RawRequest): Promise<unknown> {
	const reject = (message: string, kind: "invalid" = "invalid") =>
		Promise.reject(new StaffOpsError({ kind, operation: "request", message })) as Promise<unknown>;
	if (transport.configProblem !== undefined) {
		return reject(`invalid configuration: ${transport.configProblem}`);
	}
	if (!typeIs(request, "table")) return reject("request must be a table");
	const method: unknown = request.method;
	if (method !== "GET" && method !== "POST" && method !== "PUT" && method !== "PATCH" && method !== "DELETE") {
		return reject("request.method must be GET, POST, PUT, PATCH or DELETE");
	}
	const path: unknown = request.path;
	if (!typeIs(path, "string") || path.sub(1, 1) !== "/" || path.size() > 2048 || !pathIsPlain(path)) {
		return reject(
			"request.path must start with / and hold no spaces, control or non-ASCII characters (percent-encode them), " +
				"//, . or .. segments in any encoding, #, backslashes or encoded slashes",
		);
	}
	let body: string | undefined;
	if (request.body !== undefined) {
		if (method === "GET") return reject("a GET request cannot carry a body");
		if (!typeIs(request.body, "table")) return reject("request.body must be a table");
		body = safeEncode(transport.json(), request.body);
		if (body === undefined) return reject("request.body cannot be encoded as JSON");
		if (body.size() > MAX_REQUEST_BODY_BYTES) {
			return reject(
				`request.body is ${math.ceil(body.size() / 1000)} kB as JSON; the largest body sent is ` +
					`${MAX_REQUEST_BODY_BYTES / 1000} kB`,
			);
		}
	}
	const [optionsOk, priority, maxAttempts] = readCallOptions(
		{ priority: request.priority, maxAttempts: request.maxAttempts },
		"normal",
	);
	if (!optionsOk) return reject(priority.gsub("^options", "request")[0]);
	const safeToRepeat: unknown = request.safeToRepeat;
	if (safeToRepeat !== undefined && !typeIs(safeToRepeat, "boolean")) {
		return reject("request.safeToRepeat must be true or false");
	}
	return transport
		.send({
			operation: "request",
			method,
			path,
			body,
			safeToRepeat: safeToRepeat ?? method === "GET",
			priority,
			maxAttempts,
		})
		.andThen((answer) => {
			const decoded = decodeAnswer<unknown>(
				transport.json(),
				"request",
				answer.status,
				answer.body,
				{
					attempts: answer.attempts,
					retryAfter: answer.retryAfter,
					earlierMayHaveActed: answer.earlierMayHaveActed,
					redact: (text) => transport.redact(text),
				},
				anyAnswer,
			);
			if (!decoded.ok) return Promise.reject(decoded.error) as Promise<unknown>;
			// An unknown route may echo the key anywhere (the deployed service's workspace does, as `loaderId`).
			return redactEverywhere(decoded.value, (text) => transport.redact(text));
		});
}
