import type { HttpMethod } from "../transport/transport";
import { HttpServiceLike, safeDecode, safeEncode } from "../transport/httpDoor";
import { classifyOutcome } from "../transport/retry";
import { redact, REDACTED, StaffOpsError } from "../transport/staffOpsError";
import { checkArgs, encodePathSegment, serviceIdRule } from "./arguments";
import { Slicer } from "../shared/slicer";
import { decodeSections } from "./jsonSections";
import { Reader } from "./reader";
import { AnyOperationId, OPERATIONS } from "./routes";

// The request encoder and the answer decoder: what every operation shares between its arguments and the wire. What
// differs per operation (path, method, argument rules, answer reader) comes from the route table (`routes.ts`).

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
	if (spec.args !== undefined) {
		const problem = checkArgs(spec.args, body);
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
	/** Removes the API key from every value of a usable answer (default: `redact`). */
	readonly redactValues?: (text: string) => string;
	/** A slicer for reading a large answer (default: one frame per slice, measured with `os.clock`). */
	readonly slicer?: () => Slicer;
}

/**
 * The largest answer body decoded, in bytes. The biggest answer of the interface (a running game with 700 players)
 * is about 130 kB; a body past this limit is a broken or hostile service, and decoding it would stall the server.
 * @internal
 */
export const MAX_ANSWER_BYTES = 1_000_000;

/** Any JSON value: what `client.request` hands back, for the caller to check. @internal */
export const anyAnswer: Reader<unknown> = { read: () => undefined };

/**
 * The size from which an answer is read in slices, in bytes: below it reading and redaction take well under
 * a slice (2 ms; a 939 kB listing takes about 23 ms: lune/bench/large-answers.luau).
 */
const SLICED_ANSWER_BYTES = 64_000;

/**
 * The service's words in a failure body: `success: false` with a `reason` (the interface), or with an `error` (the
 * deployed service's 400s); undefined when the body is not a failure body. An empty string when it gave no words.
 * @internal
 */
export function failureReason(value: unknown): string | undefined {
	if (!typeIs(value, "table")) return undefined;
	const body = value as { success?: unknown; reason?: unknown; error?: unknown };
	if (body.success !== false) return undefined;
	if (typeIs(body.reason, "string")) return body.reason;
	if (typeIs(body.error, "string")) return body.error;
	return "";
}

/**
 * The words of an error body that is not a failure body, such as `{message, error, statusCode}` (the deployed
 * service's 404s); undefined when there are none.
 * @internal
 */
export function otherErrorWords(value: unknown): string | undefined {
	if (!typeIs(value, "table")) return undefined;
	const body = value as { message?: unknown; error?: unknown };
	if (typeIs(body.message, "string") && body.message !== "") return body.message;
	if (typeIs(body.error, "string") && body.error !== "") return body.error;
	return undefined;
}

/**
 * Every answer, typed or not, before it reaches game code, a log line, a kick message, a signal or a client: every
 * `loaderId` field (the service echoes the workspace with it, and it is the API key itself, docs/service-contract.md#createserver-echoes-the-api-key) is replaced,
 * and every string that holds the key is redacted, values and table keys alike, at any depth. The walk keeps its
 * own stack, so no nesting can overflow Luau's; a table met twice is walked once.
 * @internal
 */
export function redactEverywhere(value: unknown, scrub: (text: string) => string, slices?: Slicer): unknown {
	if (typeIs(value, "string")) return scrub(value);
	if (!typeIs(value, "table")) return value;
	const seen = new Set<object>([value]);
	const stack = [value as Record<string | number, unknown>];
	while (stack.size() > 0) {
		const record = stack.pop()!;
		slices?.step();
		const renamed = new Array<[string, string]>();
		for (const [key, item] of pairs(record)) {
			if (key === "loaderId") record[key] = REDACTED;
			else if (typeIs(item, "string")) record[key] = scrub(item);
			else if (typeIs(item, "table") && !seen.has(item)) {
				seen.add(item);
				stack.push(item as Record<string | number, unknown>);
			}
			if (typeIs(key, "string")) {
				const clean = scrub(key);
				if (clean !== key) renamed.push([key, clean]);
			}
		}
		for (const [from, to] of renamed) {
			const item = record[from];
			record[from] = undefined;
			record[to] = item;
		}
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
 * reader can use (the route's `answer`, see `resources/*.ts`); else a `service` (failure body), `http` (other non-2xx) or `decode` error. A
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
	reader: Reader<T> = OPERATIONS[operation as AnyOperationId].answer as Reader<T>,
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
	const large = operation !== "request" ? OPERATIONS[operation].largeAnswer : undefined;
	if (body.size() > (large?.maxBytes ?? MAX_ANSWER_BYTES)) {
		const size = `${math.floor(body.size() / 1000)} kB`;
		return is2xx
			? fail("decode", `the answer is too large to read (${size}); the service acted on the request`)
			: fail("http", `HTTP ${status} with a body too large to read (${size})`);
	}
	// A large answer is read in slices that give the frame back; a smaller one in one go (well under a slice on any
	// server), so its reading never waits on the frame. A route whose answers can be megabytes decodes them piece by
	// piece: one JSONDecode would hold the frame throughout and lose everything to one bad byte.
	const slices = body.size() >= SLICED_ANSWER_BYTES ? (context.slicer?.() ?? new Slicer()) : undefined;
	const byPieces = (walk?: Slicer) => decodeSections((text) => http.JSONDecode(text), body, large!.lists, walk);
	let sections = large !== undefined && is2xx && slices !== undefined ? byPieces(slices) : undefined;
	let [parsed, value] =
		sections !== undefined ? [sections.value !== undefined, sections.value] : safeDecode(http, body);
	if (!parsed && large !== undefined && is2xx && sections === undefined) {
		// A small answer with a bad byte: what can be read of it still counts (its actions come first).
		sections = byPieces();
		[parsed, value] = [sections.value !== undefined, sections.value];
	}
	const refusal = parsed ? failureReason(value) : undefined;
	if (refusal !== undefined) {
		const reason = scrub(refusal);
		let message = reason !== "" ? reason : "refused without a reason";
		const refusalMayMeanDone = operation !== "request" && OPERATIONS[operation].refusalMayMeanDone;
		if (context.earlierMayHaveActed && (refusalMayMeanDone || status === 409)) {
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
	const problem = reader.read(value, "", slices);
	if (problem !== undefined) {
		return fail("decode", `the answer cannot be used (${scrub(problem)}); the service acted on the request`);
	}
	redactEverywhere(value, context.redactValues ?? scrub, slices);
	// An answer that lists what its reader left out (`dropped`) lists what the decoder lost too.
	const dropped = (value as { dropped?: unknown }).dropped;
	if (sections !== undefined && typeIs(dropped, "table")) {
		for (const phrase of sections.lost) (dropped as Array<string>).push(phrase);
	}
	return { ok: true, value: value as T };
}
