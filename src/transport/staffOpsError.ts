/**
 * What went wrong, in one word:
 *
 * - `network`: the request did not complete (no connection, DNS failure, a dropped connection, HTTP disabled).
 * - `timeout`: no answer within the configured time.
 * - `http`: the service answered with a non-2xx status and no failure body of the documented shape.
 * - `service`: the service refused with `success: false` and a `reason` (whatever the HTTP status).
 * - `decode`: the answer was not valid JSON or did not match the interface.
 * - `invalid`: the arguments or the configuration were rejected before anything was sent.
 * - `budget`: the request budget (or Roblox's own HttpService limit) did not let the request go out in time.
 *
 * @see README#errors
 */
export type StaffOpsErrorKind = "network" | "timeout" | "http" | "service" | "decode" | "invalid" | "budget";

/** The fields a {@link StaffOpsError} is made from. */
export interface StaffOpsErrorFields {
	/** What went wrong. */
	readonly kind: StaffOpsErrorKind;
	/** The operation id, e.g. `createOrder`, or `config` for a configuration error. */
	readonly operation: string;
	/** A human-readable description; never contains the API key. */
	readonly message: string;
	/** The HTTP status of the last answer, 0 when there was none. */
	readonly status?: number;
	/** The service's `reason` for a `service` error; empty otherwise. */
	readonly reason?: string;
	/** Seconds the service asked to wait (`Retry-After`), when it did. */
	readonly retryAfter?: number;
	/** How many attempts were made (1 when the request was not retried, 0 when nothing was sent). */
	readonly attempts?: number;
	/** The service answered with a 2xx status: it acted on the request, even though the answer was unusable. */
	readonly acted?: boolean;
	/** The request may have reached the service and been acted on (`acted`, or an unknown outcome). */
	readonly mayHaveActed?: boolean;
}

/**
 * The one error type of StaffOps: every Promise the library returns rejects with a `StaffOpsError`.
 * Its text (`tostring(err)` / `err.toString()`) names the kind, operation, status and reason, never the API key.
 *
 * @example
 * ```ts
 * client.orders.release(orderId, { actorId }).catch((err: unknown) => {
 * 	if (StaffOpsError.is(err) && err.kind === "service") warn(`refused: ${err.reason} (${err.status})`);
 * });
 * ```
 * @see README#errors
 */
export class StaffOpsError {
	/** What went wrong. */
	readonly kind: StaffOpsErrorKind;
	/** The operation id, e.g. `createOrder`. */
	readonly operation: string;
	/** A human-readable description; never contains the API key. */
	readonly message: string;
	/** The HTTP status of the last answer, 0 when there was none. */
	readonly status: number;
	/** The service's `reason` for a `service` error; empty otherwise. */
	readonly reason: string;
	/** Seconds the service asked to wait (`Retry-After`), when it did. */
	readonly retryAfter?: number;
	/** How many attempts were made (0 when nothing was sent). */
	readonly attempts: number;
	/**
	 * The service answered with a 2xx status, so it acted on the request, though its answer could not be used
	 * (kind `decode`). Such a request is never sent again: on the deployed service a second join opens a second
	 * session, a second history record is a second record.
	 */
	readonly acted: boolean;
	/**
	 * The request may have been acted on: `acted`, or an unknown outcome (a timeout or a dropped connection after
	 * sending, a 500, 502 or 504). False when the service certainly did nothing (nothing was sent, or it refused).
	 */
	readonly mayHaveActed: boolean;

	/** Makes an error from its fields; the library does this, game code rarely needs to. */
	constructor(fields: StaffOpsErrorFields) {
		this.kind = fields.kind;
		this.operation = fields.operation;
		this.message = fields.message;
		this.status = fields.status ?? 0;
		this.reason = fields.reason ?? "";
		this.retryAfter = fields.retryAfter;
		this.attempts = fields.attempts ?? 0;
		this.acted = fields.acted ?? false;
		this.mayHaveActed = this.acted || (fields.mayHaveActed ?? false);
	}

	/**
	 * Whether `value` is a `StaffOpsError` (use it in `catch` handlers, which receive `unknown`).
	 *
	 * @example
	 * ```ts
	 * promise.catch((err: unknown) => StaffOpsError.is(err) && err.kind === "timeout");
	 * ```
	 */
	static is(value: unknown): value is StaffOpsError {
		return typeIs(value, "table") && getmetatable(value) === StaffOpsError;
	}

	/** `StaffOpsError(service) releaseOrder [409]: already released`. */
	toString(): string {
		const status = this.status !== 0 ? ` [${this.status}]` : "";
		return `StaffOpsError(${this.kind}) ${this.operation}${status}: ${this.message}`;
	}
}

/** What stands in for the API key, or for anything that could be it, in a text. @internal */
export const REDACTED = "<redacted>";

/**
 * Removes every occurrence of `key` from `text` (plain match, no patterns). Texts that may echo request data back
 * (Roblox's thrown errors, the service's `reason`) pass through this before they reach an error.
 * @internal
 */
export function redact(text: string, key: string | undefined): string {
	if (key === undefined || key.size() === 0) return text;
	let out = text;
	let [start, finish] = string.find(out, key, 1, true);
	while (start !== undefined && finish !== undefined) {
		out = out.sub(1, start - 1) + REDACTED + out.sub(finish + 1);
		[start, finish] = string.find(out, key, start + REDACTED.size(), true);
	}
	return out;
}

/** Key-like tokens: at least this many letters, digits, `-`, `_` or `.` in a row, with a letter and a digit. */
const KEY_LIKE_LENGTH = 20;

/**
 * Masks every key-like token of `text` (20 or more of `[A-Za-z0-9_.-]`, holding a letter and a digit). For a key
 * held in a Roblox Secret, whose text no script can read: an echo of it cannot be found, so anything that could be
 * one is hidden. Ids in the service's texts (24-hex ids, GUIDs) are hidden with it; that is the price.
 * @internal
 */
export function maskKeyLike(text: string): string {
	const [masked] = text.gsub("[%w%-_%.]+", (token: string) =>
		token.size() >= KEY_LIKE_LENGTH && token.find("%a")[0] !== undefined && token.find("%d")[0] !== undefined
			? REDACTED
			: token,
	);
	return masked;
}
