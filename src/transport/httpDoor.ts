/**
 * The part of Roblox's `HttpService` the library uses; the real service fits, and specs pass fakes.
 *
 * @example
 * ```ts
 * const http: HttpServiceLike = game.GetService("HttpService");
 * ```
 * @see README#testing
 */
export interface HttpServiceLike {
	/** Sends one request; throws on transport failure, returns any HTTP status. */
	RequestAsync(options: RequestAsyncRequest): RequestAsyncResponse;
	/** Encodes a value as JSON; throws on values JSON cannot carry. */
	JSONEncode(input: unknown): string;
	/** Decodes JSON text; throws on malformed input. */
	JSONDecode(input: string): unknown;
}

/**
 * How a request that threw ended, read from Roblox's error text.
 *
 * - `sent: false` means the request certainly did not reach the service (so any operation may be sent again);
 *   `sent: true` means it may have (a timeout or a dropped connection after sending).
 * @internal
 */
export interface ThrownFailure {
	readonly kind: "network" | "timeout" | "limit";
	readonly retryable: boolean;
	readonly sent: boolean;
	readonly message: string;
}

/** The outcome of one pass through the door. @internal */
export type DoorResult =
	| { readonly ok: true; readonly response: RequestAsyncResponse }
	| { readonly ok: false; readonly failure: ThrownFailure };

// Roblox's HttpError names (Enum.HttpError, "transport-level errors ... the request did not complete normally at the
// network or client level"), sorted by what they tell about the request. "Sent" means the service may have acted on
// it, so only an operation that is safe to repeat may be sent again.
const NOT_SENT_RETRYABLE = new Set([
	"ConnectFail",
	"DnsResolve",
	"SslConnectFail",
	"OutOfMemory",
	// "Too many concurrent or pending requests" (docs/roblox.md#httperror-values): refused on this server before anything went out, and
	// the queue drains, so a later attempt may pass.
	"TooManyOutstandingRequests",
]);
const NOT_SENT_FINAL = new Set([
	"InvalidUrl",
	"SslVerificationFail",
	"TooManyRedirects",
	"InvalidRedirect",
	// The service refuses requests from creator (Studio/team-test) environments: no request reached it, and the same
	// environment will be refused again, so retrying only burns the budget.
	"CreatorEnvironmentsNotSupportedByService",
]);
// Failures after the request may have gone out, worth another attempt (when the operation is safe to repeat):
// - InactivityTimeout: the connection went quiet past the limit, possibly after the request was received;
// - ConnectionClosed: the service or a proxy closed the connection mid-exchange;
// - ServerProtocolError: the answer was malformed at the protocol level, so the request was read and maybe acted on.
// Timedout and NetFail belong here too; unknown names are treated the same way (the safe assumption).
const SENT_RETRYABLE = new Set(["InactivityTimeout", "ConnectionClosed", "ServerProtocolError", "NetFail", "Aborted"]);

/** How a failure's message begins when the game has HTTP requests turned off (read by the failure policy). @internal */
export const HTTP_OFF = "HTTP requests are not enabled";

/**
 * Reads Roblox's thrown text (`HttpError: Timedout`, `HttpError: ConnectFail`, `Number of requests exceeded limit`,
 * `Http requests are not enabled`, ...) into a failure class. Unknown texts count as a network failure whose
 * request may have been sent.
 * @internal
 */
export function classifyThrown(raw: unknown, scrub: (text: string) => string = (text) => text): ThrownFailure {
	const text = typeIs(raw, "string") ? raw : tostring(raw);
	const lower = text.lower();
	if (string.find(lower, "number of requests exceeded limit", 1, true)[0] !== undefined) {
		return { kind: "limit", retryable: true, sent: false, message: "Roblox HttpService request limit reached" };
	}
	if (string.find(lower, "http requests are not enabled", 1, true)[0] !== undefined) {
		return {
			kind: "network",
			retryable: false,
			sent: false,
			message: `${HTTP_OFF} (File > Experience Settings > Security > Allow HTTP Requests)`,
		};
	}
	if (
		string.find(lower, "secret", 1, true)[0] !== undefined &&
		string.find(lower, "domain", 1, true)[0] !== undefined
	) {
		// A Secret works only for the domain set on it in the Secrets store; Roblox refuses before sending, and every
		// later request to this host is refused the same way.
		return {
			kind: "network",
			retryable: false,
			sent: false,
			message: "the API key Secret may not be sent to this host: set the Secret's domain to the service's host",
		};
	}
	const [name] = string.match(text, "HttpError:%s*(%a+)");
	if (typeIs(name, "string")) {
		const canonical = name.lower();
		if (canonical === "timedout") {
			return { kind: "timeout", retryable: true, sent: true, message: "HttpError: Timedout" };
		}
		for (const known of NOT_SENT_RETRYABLE) {
			if (known.lower() === canonical) {
				return { kind: "network", retryable: true, sent: false, message: `HttpError: ${known}` };
			}
		}
		for (const known of NOT_SENT_FINAL) {
			if (known.lower() === canonical) {
				return { kind: "network", retryable: false, sent: false, message: `HttpError: ${known}` };
			}
		}
		if (canonical === "inactivitytimeout") {
			return { kind: "timeout", retryable: true, sent: true, message: "HttpError: InactivityTimeout" };
		}
		for (const known of SENT_RETRYABLE) {
			if (known.lower() === canonical) {
				return { kind: "network", retryable: true, sent: true, message: `HttpError: ${known}` };
			}
		}
		return { kind: "network", retryable: true, sent: true, message: `HttpError: ${name}` };
	}
	// Keep the message short and free of anything the engine may have quoted back.
	// Redact before cutting: a key cut in half would no longer match, and its first half would be shown.
	return { kind: "network", retryable: true, sent: true, message: `request failed: ${scrub(text).sub(1, 120)}` };
}

/**
 * Sends one request through `RequestAsync` inside `pcall`; never throws. Yields while the request is in flight.
 * @internal
 */
export function sendThroughDoor(
	http: HttpServiceLike,
	request: RequestAsyncRequest,
	scrub?: (text: string) => string,
): DoorResult {
	const [ok, result] = pcall(() => http.RequestAsync(request));
	if (!ok) return { ok: false, failure: classifyThrown(result, scrub) };
	if (!typeIs(result, "table") || !typeIs(result.StatusCode, "number")) {
		return {
			ok: false,
			failure: { kind: "network", retryable: true, sent: true, message: "RequestAsync returned no response" },
		};
	}
	return { ok: true, response: result };
}

/**
 * `JSONEncode` in `pcall`: the encoded text, or undefined when the value cannot be encoded.
 * @internal
 */
export function safeEncode(http: Pick<HttpServiceLike, "JSONEncode">, value: unknown): string | undefined {
	const [ok, text] = pcall(() => http.JSONEncode(value));
	return ok && typeIs(text, "string") ? text : undefined;
}

/**
 * `JSONDecode` in `pcall`: `[true, value]`, or `[false]` when the text is not JSON.
 * @internal
 */
export function safeDecode(http: Pick<HttpServiceLike, "JSONDecode">, text: string): [ok: boolean, value: unknown] {
	const [ok, value] = pcall(() => http.JSONDecode(text));
	return ok ? [true, value] : [false, undefined];
}
