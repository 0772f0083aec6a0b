import { RequestPriority } from "../transport/budget";
import { HttpServiceLike, safeDecode, safeEncode } from "../transport/httpDoor";
import { redact, StaffOpsError } from "../transport/StaffOpsError";
import { argSpecs, checkArgs, encodePathSegment, idRule } from "./arguments";
import { answerShapes, extraAnswerRule, firstBadField, isFailureBody, Shape } from "./schemas";

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

/** How one operation goes on the wire. @internal */
export interface OperationSpec {
	readonly id: OperationId;
	readonly method: "GET" | "POST" | "PUT";
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
	id: OperationId,
	method: "GET" | "POST" | "PUT",
	path: string,
	safeToRepeat: boolean,
	priority: RequestPriority = "normal",
): OperationSpec {
	const pathParams = new Array<string>();
	for (const [name] of path.gmatch("{(%w+)}")) pathParams.push(name as string);
	return { id, method, path, pathParams, hasBody: method !== "GET", safeToRepeat, priority };
}

/** The twelve operations. @internal */
export const OPERATIONS: { readonly [K in OperationId]: OperationSpec } = {
	recordHistory: op("recordHistory", "POST", "/staff/history", false),
	listHistory: op("listHistory", "GET", "/staff/history", true),
	createServer: op("createServer", "POST", "/activity/createServer", false, "high"),
	playerJoin: op("playerJoin", "POST", "/activity/playerJoin", true, "high"),
	getActivity: op("getActivity", "GET", "/activity/workspace/users/{userId}/activity", true),
	getRunningGame: op("getRunningGame", "GET", "/games/running/{internalGameId}", true),
	createOrder: op("createOrder", "POST", "/orders", false),
	releaseOrder: op("releaseOrder", "PUT", "/orders/{orderId}/release", true),
	listTimeOff: op("listTimeOff", "GET", "/time-off", true),
	getTimeOff: op("getTimeOff", "GET", "/time-off/{requestId}", true),
	getCallMessages: op("getCallMessages", "GET", "/calls/{callId}/messages", true),
	getUserTeams: op("getUserTeams", "GET", "/teams/users/{userId}", true),
};

/** A request ready for the transport. @internal */
export interface EncodedRequest {
	readonly method: "GET" | "POST" | "PUT";
	readonly path: string;
	readonly body?: string;
}

/** Either a value or a {@link StaffOpsError}. @internal */
export type Outcome<T> =
	{ readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: StaffOpsError };

function invalid(operation: OperationId, message: string): Outcome<never> {
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
	operation: OperationId,
	pathValues: ReadonlyArray<unknown>,
	body?: unknown,
): Outcome<EncodedRequest> {
	const spec = OPERATIONS[operation];
	let path = spec.path;
	for (let i = 0; i < spec.pathParams.size(); i++) {
		const name = spec.pathParams[i];
		const value = pathValues[i];
		const [check, expects] = idRule;
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
 * Decodes and checks an answer of `operation`: the typed answer for a 2xx `success: true` body that matches the
 * interface; else a `service` (failure body), `http` (other non-2xx) or `decode` error. The benchmark calls this
 * directly.
 * @internal
 */
export function decodeAnswer<T>(
	http: Pick<HttpServiceLike, "JSONDecode">,
	operation: OperationId,
	status: number,
	body: string,
	context: AnswerContext = {},
): Outcome<T> {
	const scrub = context.redact ?? ((text: string) => redact(text, undefined));
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
		}),
	});
	const [parsed, value] = safeDecode(http, body);
	const is2xx = status >= 200 && status <= 299;
	if (parsed && isFailureBody(value)) {
		const reason = scrub(value.reason);
		let message = reason !== "" ? reason : "refused without a reason";
		if (context.earlierMayHaveActed && (operation === "releaseOrder" || status === 409)) {
			message += " (an earlier attempt whose outcome is unknown may already have done this)";
		}
		return fail("service", message, reason);
	}
	if (!is2xx) {
		return fail("http", `HTTP ${status}${parsed ? "" : " with a body that is not JSON"}`);
	}
	if (!parsed) return fail("decode", "the answer is not valid JSON");
	const shape = answerShapes[operation] as Shape<T>;
	if (!shape.check(value))
		return fail("decode", `the answer does not match the interface: ${firstBadField(shape.fields, value)}`);
	const extra = extraAnswerRule(operation, value);
	if (extra !== undefined) return fail("decode", `the answer does not match the interface: ${extra}`);
	return { ok: true, value: value as T };
}
