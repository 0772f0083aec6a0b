import type { FailureMeaning } from "../api/failurePolicy";

/**
 * Where the game integration stands, for game code that shows staff a banner or alerts its own monitoring:
 *
 * - `starting`: started, the server is not registered yet and nothing has failed;
 * - `running`: registered, and every background task reaches the service;
 * - `degraded`: some background work fails; `reason` says how and `area` which work (`register`, `joins`,
 *   `heartbeat`, `sync`, `leaves`, ...). Joins and leaves wait and are retried; nothing is lost yet;
 * - `keyRefused`: the service refuses the API key (401/403); everything waits and is retried once a minute;
 * - `stopped`: not running (never started, the configuration was refused, `StaffOps.stop()`, or shutdown ended).
 *
 * @example
 * ```ts
 * StaffOps.statusChanged.Connect((status) => {
 * 	if (status.state === "keyRefused") warn("StaffOps: the service refuses our API key");
 * });
 * ```
 */
export type StaffOpsState = "starting" | "running" | "degraded" | "keyRefused" | "stopped";

/**
 * Why the integration is `degraded`:
 *
 * - `unreachable`: no answer, a timeout, or a busy or failing service (429, 5xx); also HTTP requests turned off;
 * - `routeMissing`: the service has no such route (404 without a failure body, 405, 501): often a `baseUrl` that
 *   points at the wrong place, or a service without the deployed service's routes;
 * - `refused`: the service answered but refused the work or sent an answer StaffOps cannot read.
 */
export type DegradedReason = "unreachable" | "routeMissing" | "refused";

/**
 * The integration's status: `state`, and for `degraded` the `reason` and the `area` of the work that fails.
 *
 * @example
 * ```ts
 * const status = StaffOps.getStatus();
 * if (status.state === "degraded") print(`StaffOps degraded: ${status.reason} (${status.area})`);
 * ```
 */
export interface StaffOpsStatus {
	readonly state: StaffOpsState;
	readonly reason?: DegradedReason;
	readonly area?: string;
}

/** What the status is read from. @internal */
export interface StatusFacts {
	readonly stopped: boolean;
	readonly registered: boolean;
	/** The registration was refused for good (StaffOps stays off until the next start). */
	readonly gaveUp: boolean;
	/** Failing areas whose failure came from the service, with the failure policy's meaning. */
	readonly failures: ReadonlyMap<string, FailureMeaning>;
}

const REASONS: { readonly [M in FailureMeaning]: DegradedReason | "keyRefused" } = {
	transient: "unreachable",
	unknown: "unreachable",
	acted: "refused",
	"not-found": "refused",
	"no-route": "routeMissing",
	"bad-key": "keyRefused",
	refused: "refused",
};

// When several areas fail, the one that tells the most about the setup comes first.
const ORDER: ReadonlyArray<DegradedReason> = ["unreachable", "routeMissing", "refused"];

/** Reads the status from the facts: one rule for every place that asks. @internal */
export function statusOf(facts: StatusFacts): StaffOpsStatus {
	if (facts.stopped) return { state: "stopped" };
	let best: { reason: DegradedReason; area: string } | undefined;
	const areas = new Array<string>();
	for (const [area] of facts.failures) areas.push(area);
	// Sorted, so that the same failures always give the same status whatever order they came in.
	areas.sort();
	for (const area of areas) {
		const reason = REASONS[facts.failures.get(area)!];
		if (reason === "keyRefused") return { state: "keyRefused" };
		if (best === undefined || ORDER.indexOf(reason) < ORDER.indexOf(best.reason)) best = { reason, area };
	}
	if (best !== undefined) return { state: "degraded", reason: best.reason, area: best.area };
	if (facts.gaveUp) return { state: "degraded", reason: "refused", area: "register" };
	return { state: facts.registered ? "running" : "starting" };
}

/** Whether two statuses say the same to game code: the same state and reason (the area is detail). @internal */
export function sameStatus(a: StaffOpsStatus, b: StaffOpsStatus): boolean {
	return a.state === b.state && a.reason === b.reason;
}
