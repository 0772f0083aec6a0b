import { backoff, BACKGROUND } from "../shared/backoff";
import { HTTP_OFF } from "../transport/httpDoor";
import { isNotProcessed } from "../transport/retry";
import { StaffOpsError } from "../transport/staffOpsError";
import type { AnyOperationId } from "./routes";

/**
 * What a failed call tells, in one word. Status numbers end here: the layers above (the game integration, the call
 * bridge) read only meanings and reactions.
 *
 * - `transient`: the service did nothing and may work later (no connection, 408, 429, 503, the budget).
 * - `unknown`: the request may have been acted on (a timeout or dropped connection after sending, 500, 502, 504).
 * - `acted`: the service acted (a 2xx) but its answer cannot be used.
 * - `not-found`: the service does not know what the request names (a refusal with 404).
 * - `no-route`: the service has no such route (a 404 without a failure body, 405, 501).
 * - `bad-key`: the service refused the API key (401, 403).
 * - `refused`: the service refused this request for good (another 4xx, `success: false`, or bad arguments).
 * @internal
 */
export type FailureMeaning = "transient" | "unknown" | "acted" | "not-found" | "no-route" | "bad-key" | "refused";

/** Reads a failure's meaning. Anything that is not a StaffOpsError is an internal problem: `transient`. @internal */
export function meaningOf(err: unknown): FailureMeaning {
	if (!StaffOpsError.is(err)) return "transient";
	if (err.acted) return "acted";
	const status = err.status;
	switch (err.kind) {
		case "invalid":
			return "refused";
		case "budget":
			return "transient";
		case "network":
		case "timeout":
		case "decode":
			return err.mayHaveActed ? "unknown" : "transient";
		default:
			break;
	}
	if (status === 401 || status === 403) return "bad-key";
	if (status === 404) return err.kind === "service" ? "not-found" : "no-route";
	if (status === 405 || status === 501) return "no-route";
	if (isNotProcessed(status)) return "transient";
	if (status >= 500) return "unknown";
	return "refused";
}

/**
 * What keeps every request from succeeding, when a failure shows it: the service refused the key (401/403), the game
 * has HTTP requests turned off (Roblox refuses before sending), or the service cannot be reached (a transport
 * failure: no connection, a dropped connection, a timeout). Undefined for failures that say nothing about the next
 * request (a refusal of this one request, a 5xx, the budget). What the close stops waiting on
 * (`server/closeWatch.ts`).
 * @internal
 */
export type Blocker = "key-refused" | "http-off" | "unreachable";

/** The {@link Blocker} a failure shows, if any. @internal */
export function blockerOf(err: unknown): Blocker | undefined {
	if (!StaffOpsError.is(err) || err.acted) return undefined;
	if (meaningOf(err) === "bad-key") return "key-refused";
	if (err.kind === "network" && string.find(err.message, HTTP_OFF, 1, true)[0] !== undefined) return "http-off";
	if (err.kind === "network" || err.kind === "timeout") return "unreachable";
	return undefined;
}

/**
 * What the caller of an operation does about a failure:
 *
 * - `retry`: try again later, with the one backoff (`shared/backoff.ts`);
 * - `check`: the outcome is unknown; look before sending again (joins and leaves: the running game's player list);
 * - `done`: count the work as done; never send it again;
 * - `forgotten`: the service no longer knows this server: register again;
 * - `verify`: a 404 that may mean either "no such server" or "no such route": read the running game to tell;
 * - `turn-off`: the service may lack the route: record it in the feature's {@link RouteState}, which confirms the
 *   route missing only after repeated answers over time, then re-probes it at the longest backoff;
 * - `bad-key`: the key is refused: pause, warn once, retry at the longest backoff;
 * - `give-up`: this request will never succeed: drop it, warn once per problem.
 * @internal
 */
export type Reaction = "retry" | "check" | "done" | "forgotten" | "verify" | "turn-off" | "bad-key" | "give-up";

type Table = { readonly [M in FailureMeaning]: Reaction };

// One row per operation the integration and the bridge run in the background; game code's own calls just get the
// error. Reads may simply be retried: nothing was changed.
const READ: Table = {
	transient: "retry",
	unknown: "retry",
	acted: "retry",
	"not-found": "give-up",
	"no-route": "give-up",
	"bad-key": "bad-key",
	refused: "give-up",
};

/** What each background operation does about each meaning. @internal */
export const FAILURE_POLICY: { readonly [K in AnyOperationId]?: Table } = {
	// An unusable or unknown registration cannot be looked up (no operation lists servers by jobId): register again.
	createServer: { ...READ, "not-found": "retry" },
	playerJoin: { ...READ, unknown: "check", acted: "done", "not-found": "forgotten" },
	getRunningGame: { ...READ, "not-found": "forgotten" },
	getCallMessages: READ,
	// A leave is not safe to repeat (docs/service-contract.md#a-leave-is-not-safe-to-repeat): after an unknown outcome the running game's list tells whether it
	// landed (the service removes a leaver from it), as for joins.
	playerLeave: { ...READ, unknown: "check", acted: "done", "not-found": "verify", "no-route": "turn-off" },
	endServer: { ...READ, acted: "done", "not-found": "verify", "no-route": "turn-off" },
	getServer: { ...READ, "not-found": "verify", "no-route": "turn-off" },
	// The sync (server/features/presence/sync.ts): an unknown outcome sends the same events again (the service dedups them); a 404 or
	// 405 is told apart by one read and, when the route is missing, probed again later: it never turns off for good.
	sendData: { ...READ, acted: "done", "not-found": "verify", "no-route": "verify" },
};

/**
 * The reaction of a background caller of `operation` to `err` (the keep-alive route, sent through
 * `client.request`, reads as `getServer`).
 * @internal
 */
export function reactionTo(operation: AnyOperationId, err: unknown): Reaction {
	const row = FAILURE_POLICY[operation] ?? READ;
	return row[meaningOf(err)];
}

/** The service's `Retry-After` of a failure, in seconds, when it sent one. @internal */
export function retryAfterOf(err: unknown): number | undefined {
	return StaffOpsError.is(err) ? err.retryAfter : undefined;
}

/**
 * The wait before background work tries again after `failures` failures in a row, the last being `err`: the one
 * backoff, and never shorter than the service's `Retry-After` (honoured up to `BACKGROUND.maxRetryAfter`).
 * @internal
 */
export function backgroundWait(failures: number, random: () => number, err: unknown): number {
	return backoff(failures, random, { ...BACKGROUND, retryAfter: retryAfterOf(err) });
}

/** No-route answers that confirm a route missing: at least this many in a row... @internal */
export const ROUTE_MISSING_ANSWERS = 3;
/** ...spread over at least this many seconds (a deploy or a misroute seldom lasts longer). @internal */
export const ROUTE_MISSING_SECONDS = 60;

/**
 * Whether the service has an optional route (the keep-alive, `playerLeave`), as a state rather than a verdict: one
 * bad answer (a proxy's HTML 404, a framework's JSON 404, a 405) proves nothing. The route counts as missing only
 * after {@link ROUTE_MISSING_ANSWERS} no-route answers in a row over {@link ROUTE_MISSING_SECONDS}; it is then tried
 * again once per longest backoff (`BACKGROUND.cap`), and any answer from it brings the feature back.
 * @internal
 */
export class RouteState {
	private misses = 0;
	private firstMiss = 0;
	private missing = false;
	private nextProbe = 0;

	constructor(private readonly now: () => number) {}

	/** Records a no-route answer; true when this one confirms the route missing (the moment to warn, once). */
	noRoute(): boolean {
		const now = this.now();
		if (this.misses === 0) this.firstMiss = now;
		this.misses += 1;
		this.nextProbe = now + BACKGROUND.cap;
		if (this.missing || this.misses < ROUTE_MISSING_ANSWERS) return false;
		if (now - this.firstMiss < ROUTE_MISSING_SECONDS) return false;
		this.missing = true;
		return true;
	}

	/** The route answered; true when it had been confirmed missing (the moment to say it is back). */
	answered(): boolean {
		const was = this.missing;
		this.misses = 0;
		this.missing = false;
		return was;
	}

	/** Whether the route is confirmed missing now. */
	isMissing(): boolean {
		return this.missing;
	}

	/** Whether to use the route now: always until confirmed missing, then once per longest backoff. */
	usable(): boolean {
		return !this.missing || this.now() >= this.nextProbe;
	}

	/** Seconds until the route may be tried again (0 when it may now). */
	wait(): number {
		return this.usable() ? 0 : this.nextProbe - this.now();
	}
}
