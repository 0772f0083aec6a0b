import { RequestPriority } from "../transport/budget";
import type { HttpMethod } from "../transport/transport";
import { HttpServiceLike, safeDecode, safeEncode } from "../transport/httpDoor";
import { classifyOutcome } from "../transport/retry";
import { redact, REDACTED, StaffOpsError } from "../transport/StaffOpsError";
import { argSpecs, checkArgs, encodePathSegment, serviceIdRule } from "./arguments";
import { Reader } from "./reader";
import { answerReaders, extraAnswerRule, failureReason, otherErrorWords } from "./schemas";

/**
 * The ids of the twelve operations of the interface; errors carry them in `operation`.
 * @see README#typed-client
 */
export type OperationId =
	| "recordHistory"
	| "listHistory"
	| "createServer"
	| "playerJoin"
	| "getActivity"
	| "getRunningGame"
	| "createOrder"
	| "releaseOrder"
	| "listTimeOff"
	| "getTimeOff"
	| "getCallMessages"
	| "getUserTeams";

/**
 * Operations the deployed service has beyond the interface (DESIGN §3): ending a player's session, ending the
 * server, and reading the workspace by running game id. Errors carry these ids too.
 * @see README#deployed-service-extensions
 */
export type ExtensionId = "playerLeave" | "endServer" | "getServer" | "supportCreate" | "supportEnd" | "listCalls";

/** Every operation the typed client knows. @internal */
export type AnyOperationId = OperationId | ExtensionId;

/** How one operation goes on the wire. @internal */
export interface OperationSpec {
	readonly id: AnyOperationId;
	readonly method: HttpMethod;
	/** Path template; `{name}` is filled from the path values in order. */
	readonly path: string;
	/** Names of the path values, in order. */
	readonly pathParams: ReadonlyArray<string>;
	readonly hasBody: boolean;
	/** Whether repeating the request after an unknown outcome is harmless; see `RetryOptions`. */
	readonly safeToRepeat: boolean;
	readonly priority: RequestPriority;
}

function op(
	id: AnyOperationId,
	method: HttpMethod,
	path: string,
	safeToRepeat: boolean,
	priority: RequestPriority = "normal",
): OperationSpec {
	const pathParams = new Array<string>();
	for (const [name] of path.gmatch("{(%w+)}")) pathParams.push(name as string);
	return { id, method, path, pathParams, hasBody: method !== "GET", safeToRepeat, priority };
}

/** The twelve operations of the interface and the deployed service's extensions. @internal */
export const OPERATIONS: { readonly [K in AnyOperationId]: OperationSpec } = {
	recordHistory: op("recordHistory", "POST", "/staff/history", false),
	listHistory: op("listHistory", "GET", "/staff/history", true),
	createServer: op("createServer", "POST", "/activity/createServer", false, "high"),
	playerJoin: op("playerJoin", "POST", "/activity/playerJoin", false, "high"),
	getActivity: op("getActivity", "GET", "/activity/workspace/users/{userId}/activity", true),
	getRunningGame: op("getRunningGame", "GET", "/games/running/{internalGameId}", true),
	createOrder: op("createOrder", "POST", "/orders", false),
	releaseOrder: op("releaseOrder", "PUT", "/orders/{orderId}/release", true),
	listTimeOff: op("listTimeOff", "GET", "/time-off", true),
	getTimeOff: op("getTimeOff", "GET", "/time-off/{requestId}", true),
	getCallMessages: op("getCallMessages", "GET", "/calls/{callId}/messages", true),
	getUserTeams: op("getUserTeams", "GET", "/teams/users/{userId}", true),
	// Extensions: a leave is idempotent on that service (a repeat answers `finalized: false`); ending a server twice
	// finds nothing left to end; reading the workspace changes nothing.
	playerLeave: op("playerLeave", "POST", "/activity/playerLeave/v2", true),
	endServer: op("endServer", "DELETE", "/activity/endServer", true, "high"),
	getServer: op("getServer", "POST", "/activity/getServer", true),
	// Support calls (resources/supportCalls.ts): a create is never repeated blindly (look the call up instead).
	supportCreate: op("supportCreate", "POST", "/activity/support/create", false, "high"),
	supportEnd: op("supportEnd", "POST", "/activity/support/end", false, "high"),
	listCalls: op("listCalls", "GET", "/calls?status={status}", true),
};

/** A request ready for the transport. @internal */
export interface EncodedRequest {
	readonly method: HttpMethod;
	readonly path: string;
	readonly body?: string;
}

/** Either a value or a {@link StaffOpsError}. @internal */
export type Outcome<T> =
	{ readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: StaffOpsError };

function invalid(operation: AnyOperationId, message: string): Outcome<never> {
	return { ok: false, error: new StaffOpsError({ kind: "invalid", operation, message }) };
}

/**
 * Checks the arguments of `operation` and builds its request: the path (values percent-encoded) and the JSON body.
 * Sends nothing. The benchmark calls this directly.
 *
 * @param pathValues the path values in the order of the path template
 * @param body the body table for POST/PUT (checked against the operation's argument spec)
 * @internal
 */
export function encodeRequest(
	http: Pick<HttpServiceLike, "JSONEncode">,
	operation: AnyOperationId,
	pathValues: ReadonlyArray<unknown>,
	body?: unknown,
): Outcome<EncodedRequest> {
	const spec = OPERATIONS[operation];
	let path = spec.path;
	for (let i = 0; i < spec.pathParams.size(); i++) {
		const name = spec.pathParams[i];
		const value = pathValues[i];
		const [check, expects] = serviceIdRule;
		if (!check(value)) return invalid(operation, `\`${name}\` must be ${expects}`);
		path = path.gsub(`{${name}}`, () => encodePathSegment(value as string))[0];
	}
	if (!spec.hasBody) return { ok: true, value: { method: spec.method, path } };
	const argSpec = argSpecs[operation as keyof typeof argSpecs];
	if (argSpec !== undefined) {
		const problem = checkArgs(argSpec, body);
		if (problem !== undefined) return invalid(operation, problem);
	}
	const text = safeEncode(http, body);
	if (text === undefined) return invalid(operation, "the arguments cannot be encoded as JSON");
	return { ok: true, value: { method: spec.method, path, body: text } };
}

/** What the decoder knows about how the answer came about. @internal */
export interface AnswerContext {
	readonly attempts?: number;
	readonly retryAfter?: number;
	readonly earlierMayHaveActed?: boolean;
	/** Removes the API key from texts that may echo it. */
	readonly redact?: (text: string) => string;
}

/**
 * The largest answer body decoded, in bytes. The biggest answer of the interface (a running game with 700 players)
 * is about 130 kB; a body past this limit is a broken or hostile service, and decoding it would stall the server.
 * @internal
 */
export const MAX_ANSWER_BYTES = 1_000_000;

/**
 * The service echoes the workspace with `loaderId`, which is the API key itself (DESIGN §3): it is replaced before
 * the answer reaches game code, a log line or a signal.
 */
function redactKeyEcho(answer: unknown): void {
	const workspace = (answer as { workspace?: unknown }).workspace;
	if (typeIs(workspace, "table") && (workspace as { loaderId?: unknown }).loaderId !== undefined) {
		(workspace as { loaderId?: unknown }).loaderId = REDACTED;
	}
}

/**
 * For answers of routes StaffOps does not know (`client.request`): every `loaderId` field, at any depth, is
 * replaced, and every string that holds the key is redacted. Walks at most 32 levels.
 * @internal
 */
export function redactEverywhere(value: unknown, scrub: (text: string) => string, depth = 0): unknown {
	if (typeIs(value, "string")) return scrub(value);
	if (!typeIs(value, "table") || depth > 32) return value;
	const record = value as Record<string | number, unknown>;
	for (const [key, item] of pairs(record)) {
		record[key] = key === "loaderId" ? REDACTED : redactEverywhere(item, scrub, depth + 1);
	}
	return value;
}

/**
 * Whether a status says the outcome is unknown: the service may have done the work before failing. The transport's
 * reading of the status, so a retry and an error agree: a failure it would retry that may have been acted on.
 */
function outcomeUnknown(status: number): boolean {
	const { retryable, mayHaveActed } = classifyOutcome({ type: "status", status });
	return retryable && mayHaveActed;
}

/**
 * Decodes and reads an answer of `operation`: the typed answer for a 2xx `success: true` body that the tolerant
 * reader can use (see `schemas.ts`); else a `service` (failure body), `http` (other non-2xx) or `decode` error. A
 * 2xx answer means the service acted: its errors say `acted`, so nobody sends the request again. The benchmark
 * calls this directly.
 * @internal
 */
export function decodeAnswer<T>(
	http: Pick<HttpServiceLike, "JSONDecode">,
	operation: AnyOperationId | "request",
	status: number,
	body: string,
	context: AnswerContext = {},
	reader: Reader<T> = answerReaders[operation as AnyOperationId] as Reader<T>,
): Outcome<T> {
	const scrub = context.redact ?? ((text: string) => redact(text, undefined));
	const is2xx = status >= 200 && status <= 299;
	const fail = (kind: "service" | "http" | "decode", message: string, reason?: string): Outcome<T> => ({
		ok: false,
		error: new StaffOpsError({
			kind,
			operation,
			message,
			status,
			reason,
			retryAfter: context.retryAfter,
			attempts: context.attempts ?? 1,
			acted: is2xx && kind === "decode",
			mayHaveActed: context.earlierMayHaveActed === true || (!is2xx && outcomeUnknown(status)),
		}),
	});
	if (body.size() > MAX_ANSWER_BYTES) {
		const size = `${math.floor(body.size() / 1000)} kB`;
		return is2xx
			? fail("decode", `the answer is too large to read (${size}); the service acted on the request`)
			: fail("http", `HTTP ${status} with a body too large to read (${size})`);
	}
	const [parsed, value] = safeDecode(http, body);
	const refusal = parsed ? failureReason(value) : undefined;
	if (refusal !== undefined) {
		const reason = scrub(refusal);
		let message = reason !== "" ? reason : "refused without a reason";
		if (context.earlierMayHaveActed && (operation === "releaseOrder" || status === 409)) {
			message += " (an earlier attempt whose outcome is unknown may already have done this)";
		}
		return fail("service", message, reason);
	}
	if (!is2xx) {
		const words = parsed ? otherErrorWords(value) : undefined;
		const detail =
			words !== undefined ? `: ${scrub(words.sub(1, 200))}` : parsed ? "" : " with a body that is not JSON";
		return fail("http", `HTTP ${status}${detail}`);
	}
	if (!parsed) return fail("decode", "the answer is not valid JSON; the service acted on the request");
	const problem = reader.read(value, "") ?? extraAnswerRule(operation, value);
	if (problem !== undefined) {
		return fail("decode", `the answer cannot be used (${scrub(problem)}); the service acted on the request`);
	}
	redactKeyEcho(value);
	return { ok: true, value: value as T };
}
