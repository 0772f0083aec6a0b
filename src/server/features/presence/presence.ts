import type { StaffOpsApiClient } from "../../../api/apiClient";
import { reactionTo, retryAfterOf, RouteState } from "../../../api/failurePolicy";
import type { RunningGameAnswer } from "../../../api/resources/games";
import { HealthLog, logInfo, logWarn } from "../../../background/log";
import { BACKGROUND } from "../../../shared/backoff";
import type { Scheduler } from "../../../transport/scheduler";
import type { Registered } from "../../records";
import type { PlayerRecord } from "../../records";
import { listedUsers } from "../joins/joinLookup";

/**
 * A route that keeps the server present on a service whose reads do not (the deployed service, docs/service-contract.md#presence-needs-the-running-game-id): sent as
 * the heartbeat instead of the read, with `{ gameId: runningGameId }` as its body.
 *
 * @example
 * ```ts
 * StaffOps.start({ ...config, keepAlive: { method: "POST", path: "/activity/getServer" } });
 * ```
 * @see README#game-integration
 */
export interface KeepAliveRoute {
	readonly method: "GET" | "POST" | "PUT" | "PATCH";
	readonly path: string;
}

/** What the heartbeat needs from the integration. @internal */
export interface PresenceSeams {
	readonly client: StaffOpsApiClient;
	readonly scheduler: Scheduler;
	readonly health: HealthLog;
	readonly heartbeatSeconds: number;
	readonly keepAlive?: KeepAliveRoute;
	readonly records: Map<number, PlayerRecord>;
	readonly registration: () => Registered | undefined;
	readonly answerSeq: () => number;
	readonly forgotten: (source: string) => void;
	/** Players the service does not list were marked ready: send them. */
	readonly resend: () => void;
	/** After each successful beat (the join queue retries if it was failing). */
	readonly beaten: () => void;
	readonly guard: (label: string, fn: () => void) => void;
}

/** At most this many players are reported again per heartbeat; the rest wait for the next one. */
export const RECONCILE_CAP = 10;

/**
 * A player the service does not list is reported again at most this many times in any hour. One report again mends a
 * join the service lost (a dropped write, a restart); two more cover lists read while it caught up. A service that
 * still leaves the player out after that will not list them whatever is sent, and on the deployed service each report
 * opens one more session (docs/service-contract.md#playerjoin-is-not-idempotent), so more would only add sessions.
 */
export const REREPORTS_PER_HOUR = 3;

/**
 * The heartbeat: every `heartbeatSeconds`, one request. By default it reads the running game back
 * (`GET /games/running/{id}`), which also lists the players: a player the service does not list is reported again,
 * at most {@link RECONCILE_CAP} per beat and {@link REREPORTS_PER_HOUR} times an hour each (one warning while the
 * service leaves players out), and never on a list that cannot be right (no players listed at all while players
 * here were answered). With a keep-alive route it sends that instead, which keeps the server present where
 * reads do not; a 404 on it is told apart by one read: the server is gone (register again) or the route may be. A
 * no-route answer (that 404, a 405) makes that beat a read; the route counts as missing only as the one failure
 * policy's {@link RouteState} says (one warning), is re-probed at the longest backoff and resumes when it answers.
 * A failed beat waits at least the service's `Retry-After`.
 * @internal
 */
export class Presence {
	private token?: object;
	private readonly keepAlive?: KeepAliveRoute;
	private readonly route: RouteState;
	/** Failures handled so far (for specs and diagnostics). */
	failuresHandled = 0;
	/** When each player was reported again because a list left them out, within the last hour (scheduler seconds). */
	private readonly rereports = new Map<number, Array<number>>();

	constructor(private readonly host: PresenceSeams) {
		this.keepAlive = host.keepAlive;
		this.route = new RouteState(() => host.scheduler.now());
	}

	/** Schedules the next beat (replacing any scheduled one), at least `retryAfter` seconds away. */
	schedule(retryAfter?: number): void {
		const token = {};
		this.token = token;
		const wait = math.max(this.host.heartbeatSeconds, math.min(retryAfter ?? 0, BACKGROUND.maxRetryAfter));
		this.host.scheduler.delay(wait, () =>
			this.host.guard("heartbeat", () => {
				if (this.token === token) this.beat(token);
			}),
		);
	}

	stop(): void {
		this.token = undefined;
	}

	private live(token: object, registered: Registered): boolean {
		return this.token === token && this.host.registration() === registered;
	}

	private beat(token: object): void {
		const registered = this.host.registration();
		if (registered === undefined) return;
		if (this.keepAlive !== undefined && this.route.usable()) {
			this.keepAliveBeat(token, registered, this.keepAlive);
			return;
		}
		this.read(token, registered);
	}

	/** Reads the running game; `after404` when the keep-alive route answered 404 and the read tells why. */
	private read(token: object, registered: Registered, after404 = false): void {
		const seqAtSend = this.host.answerSeq();
		this.host.client.games.getRunning(registered.internalGameId, { priority: "normal", maxAttempts: 1 }).andThen(
			(answer) =>
				this.host.guard("heartbeat", () => {
					if (!this.live(token, registered)) return;
					// The server is known, so the keep-alive route is what is missing.
					if (after404) this.noRoute("404 on the route, while the server is known");
					this.succeeded();
					this.reconcile(answer, seqAtSend);
				}),
			(err: unknown) => this.host.guard("heartbeat", () => this.failed(token, registered, err, "getRunningGame")),
		);
	}

	private keepAliveBeat(token: object, registered: Registered, route: KeepAliveRoute): void {
		this.host.client
			.request({
				method: route.method,
				path: route.path,
				body: { gameId: registered.runningGameId },
				safeToRepeat: true,
				priority: "normal",
				maxAttempts: 1,
			})
			.andThen(
				() =>
					this.host.guard("heartbeat", () => {
						if (!this.live(token, registered)) return;
						if (this.route.answered())
							logInfo(`the keep-alive route ${route.method} ${route.path} answers again`);
						this.succeeded();
					}),
				(err: unknown) => this.host.guard("heartbeat", () => this.failed(token, registered, err, "getServer")),
			);
	}

	private succeeded(): boolean {
		this.host.health.recovered("heartbeat", "heartbeats reach the service again");
		this.schedule();
		this.host.beaten();
		return true;
	}

	private failed(token: object, registered: Registered, err: unknown, as: "getRunningGame" | "getServer"): void {
		if (!this.live(token, registered)) return;
		const reaction = reactionTo(as, err);
		if (reaction === "forgotten") {
			this.host.forgotten("the heartbeat");
			return;
		}
		if (reaction === "turn-off") {
			this.noRoute(err);
			this.read(token, registered);
			return;
		}
		if (reaction === "verify") {
			// Either the server or the route is unknown: a read tells (a 404 there means the server is gone).
			this.read(token, registered, true);
			return;
		}
		this.failuresHandled += 1;
		this.host.health.problem("heartbeat", `heartbeat failed (${tostring(err)}); will keep trying`, err);
		this.schedule(retryAfterOf(err));
	}

	/** The keep-alive route gave a no-route answer; warns once, when that confirms it missing. */
	private noRoute(err: unknown): void {
		if (this.keepAlive === undefined || !this.route.noRoute()) return;
		logWarn(
			`the keep-alive route ${this.keepAlive.method} ${this.keepAlive.path} is not there (${tostring(err)}); ` +
				"heartbeats read the running game instead and try the route again every minute",
		);
	}

	/**
	 * Compares the service's player list with the players here. Players whose join was answered before the read
	 * went out but whom the service does not list are reported again, a few per beat and each at most
	 * {@link REREPORTS_PER_HOUR} times an hour; the first beat that finds any warns once for the whole spell.
	 */
	private reconcile(answer: RunningGameAnswer, seqAtSend: number): void {
		// No list at all says nothing about who is here; only a list can show a player missing.
		const listed = listedUsers(answer);
		if (listed === undefined) return;
		const missing = new Array<PlayerRecord>();
		let answered = 0;
		for (const [, record] of this.host.records) {
			const known = record.answer;
			if (record.phase !== "answered" || known === undefined || known.banned || record.left) continue;
			if (record.answeredSeq > seqAtSend) continue;
			answered += 1;
			if (!listed.has(tostring(record.userId))) missing.push(record);
		}
		if (missing.size() === 0) {
			this.host.health.recovered("unlisted", "the service lists every player of this server again");
			return;
		}
		if (listed.size() === 0 && answered >= 2) {
			// Everyone gone at once is what a broken answer looks like, not what a service that works says.
			this.host.health.problem(
				"listing",
				`the service listed none of the ${answered} players it answered; not reporting them again`,
			);
			return;
		}
		this.host.health.recovered("listing", "the service lists this server's players again");
		const due = this.due(missing);
		due.sort((a, b) => a.order < b.order);
		const now = math.min(due.size(), RECONCILE_CAP);
		this.host.health.problem(
			"unlisted",
			`the service did not list ${missing.size()} player(s) of this server; reporting ${now} again, ` +
				`at most ${RECONCILE_CAP} a heartbeat and each player at most ${REREPORTS_PER_HOUR} times an hour`,
		);
		const at = this.host.scheduler.now();
		for (let i = 0; i < now; i++) {
			due[i].phase = "ready";
			const times = this.rereports.get(due[i].userId) ?? [];
			times.push(at);
			this.rereports.set(due[i].userId, times);
		}
		if (now > 0) this.host.resend();
	}

	/** The missing players still under the hourly cap; forgets reports older than an hour and players gone. */
	private due(missing: Array<PlayerRecord>): Array<PlayerRecord> {
		const hourAgo = this.host.scheduler.now() - 3600;
		for (const [userId, times] of this.rereports) {
			const recent = times.filter((time) => time > hourAgo);
			if (recent.size() === 0 || !this.host.records.has(userId)) this.rereports.delete(userId);
			else this.rereports.set(userId, recent);
		}
		return missing.filter((record) => (this.rereports.get(record.userId)?.size() ?? 0) < REREPORTS_PER_HOUR);
	}
}
