import { backgroundWait, reactionTo, RouteState } from "../../../api/failurePolicy";
import { logInfo, logWarn } from "../../../background/log";
import { JoinLookup, runningGameRead } from "../joins/joinLookup";
import type { WorkerSeams } from "../../context";

/**
 * Ending sessions on a service that has the deployed service's extension routes (docs/service-contract.md#ending-a-players-session). Both off by default.
 *
 * @example
 * ```ts
 * StaffOps.start({ ...config, sessions: { reportLeaves: true, endServer: true } });
 * ```
 * @see README#deployed-service-extensions
 */
export interface SessionsOptions {
	/** Report each leave (`POST /activity/playerLeave/v2`), so the player's activity session ends when they leave. */
	readonly reportLeaves?: boolean;
	/** At shutdown, after the queued joins, end the server (`DELETE /activity/endServer`): every session still open ends. */
	readonly endServer?: boolean;
}

/** What the session ender needs from the integration. @internal */
export interface SessionsSeams extends WorkerSeams {
	readonly options: SessionsOptions;
}

interface Leave {
	readonly userId: number;
	readonly runningGameId: string;
	/** When the player left, in Unix milliseconds. */
	readonly leftAtMs: number;
}

/** Leaves waiting while the service is unreachable; past this the oldest are dropped (and counted). */
export const MAX_QUEUED_LEAVES = 200;

/**
 * Reports leaves and ends the server. A leave is not safe to repeat on the deployed service (a late one ends whatever
 * session the player has there by then), so after an unknown outcome it is checked the way joins are
 * ({@link JoinLookup}): the running game's player list is read, and the leave is sent again only if the player is
 * still listed (the service removes a leaver from it) in two reads sent a grace period after the service answered
 * again, since a read can be answered before a held leave lands: one leave per session, however many retries an
 * outage piles up. Leaves take `normal` priority, below joins. While the service fails, one leave is out at a time
 * and the rest queue, up to {@link MAX_QUEUED_LEAVES}; past that the oldest are dropped and the warning counts them.
 * Retries wait at least the service's `Retry-After`. A no-route answer on the leave route (a 404 told apart from an unknown server by one read,
 * a 405) keeps the leave queued: the one failure policy's {@link RouteState} confirms the route missing only after
 * repeated answers over time (one warning), then one leave probes it per longest backoff, and leaves resume by
 * themselves when it answers. A missing endServer route turns the end off with one warning.
 * @internal
 */
export class SessionEnder {
	private readonly queue = new Array<Leave>();
	/** Leaves whose outcome is unknown, waiting for the player list to tell. */
	private readonly checking = new Array<Leave>();
	private readonly lookup: JoinLookup;
	private reportLeaves: boolean;
	private readonly route: RouteState;
	private endServerOn: boolean;
	private failures = 0;
	private inFlight = 0;
	private retryScheduled = false;
	private dropped = 0;
	private stopped = false;
	/** Leaves the service confirmed, for diagnostics and specs. */
	sent = 0;

	constructor(private readonly host: SessionsSeams) {
		this.reportLeaves = host.options.reportLeaves === true;
		this.endServerOn = host.options.endServer === true;
		this.route = new RouteState(() => host.scheduler.now());
		this.lookup = new JoinLookup({
			scheduler: host.scheduler,
			random: host.random,
			read: runningGameRead(host.client, host.registration, "normal", () => this.stopped),
			pending: () => this.checking.map((leave) => leave.userId),
			resendWhen: "listed",
			settle: (userId, listing) => host.guard("leave check", () => this.settle(userId, listing.listed)),
			// The server is gone, and the service ended its sessions with it: nothing is left to end.
			forgotten: () => host.guard("leave check", () => this.checking.clear()),
			failed: (err) =>
				host.health.problem(
					"leaves",
					`leave reports are failing (${tostring(err)}); they will be retried`,
					err,
				),
		});
	}

	/** The deployed profile: leaves and the server's end are on unless the developer set them false. */
	deployedDefaults(): void {
		if (this.host.options.reportLeaves === undefined) this.reportLeaves = true;
		if (this.host.options.endServer === undefined) this.endServerOn = true;
	}

	/** Whether leaves are reported (the option is on and the service has the route). */
	reportsLeaves(): boolean {
		return this.reportLeaves && !this.stopped;
	}

	/** Whether the server is ended at shutdown. */
	endsServer(): boolean {
		return this.endServerOn && !this.stopped;
	}

	/** Leaves queued, out, or waiting for the check of an unknown outcome. */
	pending(): number {
		return this.queue.size() + this.inFlight + this.checking.size();
	}

	/** Queues the leave of a player whose join was answered under `runningGameId`, who left at `leftAtMs` (Unix ms). */
	leave(userId: number, runningGameId: string, leftAtMs: number): void {
		if (!this.reportsLeaves()) return;
		this.queue.push({ userId, runningGameId, leftAtMs });
		if (this.queue.size() > MAX_QUEUED_LEAVES) {
			this.queue.shift();
			this.dropped += 1;
			this.host.health.problem(
				"leaves dropped",
				`leave reports are piling up while the service fails; dropping the oldest (${this.dropped} so far)`,
			);
		}
		this.flush();
	}

	/** Sends queued leaves: all of them when the service works, one at a time while it fails. */
	flush(): void {
		while (this.queue.size() > 0 && this.reportsLeaves()) {
			// While failing, only the retry timer sends, one leave at a time.
			if (this.failures > 0 && (this.inFlight > 0 || this.retryScheduled)) return;
			const leave = this.queue.shift()!;
			if (leave.runningGameId !== this.host.registration()?.runningGameId) continue; // that server is gone
			this.send(leave);
			if (this.failures > 0) return;
		}
	}

	/** Ends the server now; resolves when it is done or cannot be done. Yields nothing itself. */
	endServer(): Promise<boolean> {
		const registered = this.host.registration();
		if (!this.endsServer() || registered === undefined) return Promise.resolve(false);
		const client = this.host.client;
		return client.extensions.endServer(registered.runningGameId, { priority: "high" }).andThen(
			() => true,
			(err: unknown): boolean | Promise<boolean> => {
				const reaction = reactionTo("endServer", err);
				if (reaction === "done") return true;
				if (reaction === "verify") {
					// A 404: the server is already gone, or the route is. One read tells.
					return client.games.getRunning(registered.internalGameId, { maxAttempts: 1 }).andThen(
						() => this.endServerMissing(err),
						() => true,
					);
				}
				if (reaction === "turn-off") return this.endServerMissing(err);
				logWarn(`could not end the server at shutdown (${tostring(err)})`);
				return false;
			},
		);
	}

	private endServerMissing(err: unknown): boolean {
		this.endServerOn = false;
		logWarn(`the service has no endServer route (${tostring(err)}); the server is not ended at shutdown`);
		return false;
	}

	stop(): void {
		this.stopped = true;
		this.queue.clear();
		this.checking.clear();
		this.lookup.stop();
	}

	private send(leave: Leave): void {
		this.inFlight += 1;
		this.host.client.extensions
			.reportLeave(
				{
					runningGameId: leave.runningGameId,
					userId: leave.userId,
					// The service ends the session at `datetime`; `leftTime` (required with it) is rounded up, so a
					// service that reads only whole seconds still never ends a session before it started.
					leftTime: math.ceil(leave.leftAtMs / 1000),
					datetime: leave.leftAtMs,
				},
				{ priority: "normal", maxAttempts: 1 },
			)
			.andThen(
				() =>
					this.host.guard("leave", () => {
						this.inFlight -= 1;
						this.sent += 1;
						if (this.route.answered()) logInfo("the playerLeave route answers again; leaves are reported");
						if (this.failures > 0) {
							this.failures = 0;
							this.host.health.recovered("leaves", "leave reports reach the service again");
						}
						this.flush();
					}),
				(err: unknown) =>
					this.host.guard("leave", () => {
						this.inFlight -= 1;
						this.failed(leave, err);
					}),
			);
	}

	private failed(leave: Leave, err: unknown): void {
		if (this.stopped) return;
		const reaction = reactionTo("playerLeave", err);
		if (reaction === "done" || reaction === "give-up") {
			if (reaction === "give-up")
				this.host.health.problem("leave refused", `a leave report was refused (${tostring(err)})`);
			this.flush();
			return;
		}
		if (reaction === "turn-off") {
			this.noRoute(leave, err);
			return;
		}
		if (reaction === "verify") {
			this.verify(leave, err);
			return;
		}
		if (reaction === "check") {
			this.checking.push(leave);
			this.lookup.request(leave.userId);
			return;
		}
		this.host.health.problem("leaves", `leave reports are failing (${tostring(err)}); they will be retried`, err);
		this.retry(leave, backgroundWait(this.failures + 1, this.host.random, err));
	}

	/** Puts `leave` back at the head of the queue and sends again after `wait` seconds, one at a time. */
	private retry(leave: Leave, wait: number): void {
		this.failures += 1;
		this.queue.unshift(leave);
		if (this.retryScheduled) return;
		this.retryScheduled = true;
		this.host.scheduler.delay(wait, () =>
			this.host.guard("leave retry", () => {
				this.retryScheduled = false;
				this.flush();
			}),
		);
	}

	/**
	 * The list settled a leave whose outcome was unknown: a player still listed in the confirming reads was not
	 * removed, so the leave did not land and is sent again; an absent one's leave landed and is done.
	 */
	private settle(userId: number, listed: boolean): void {
		const index = this.checking.findIndex((leave) => leave.userId === userId);
		if (index < 0) return;
		const leave = this.checking.remove(index)!;
		if (!listed) {
			this.sent += 1;
			this.flush();
			return;
		}
		this.queue.unshift(leave);
		this.flush();
	}

	/** A 404: the server is gone (the service ended its sessions) or the route is missing. One read tells. */
	private verify(leave: Leave, err: unknown): void {
		const registered = this.host.registration();
		if (registered === undefined || registered.runningGameId !== leave.runningGameId) {
			this.flush();
			return;
		}
		this.host.client.games.getRunning(registered.internalGameId, { priority: "normal" }).andThen(
			() => this.host.guard("leave", () => this.noRoute(leave, err)),
			() => this.host.guard("leave", () => this.flush()),
		);
	}

	/**
	 * The leave route gave a no-route answer: nothing was acted on, so the leave waits for the route (sending it later
	 * is not a repeat). Warns once, when the answers confirm the route missing.
	 */
	private noRoute(leave: Leave, err: unknown): void {
		if (this.stopped) return;
		if (this.route.noRoute()) {
			logWarn(
				`the service has no playerLeave route (${tostring(err)}); leaves wait and the route is tried again ` +
					"every minute",
			);
		}
		this.retry(leave, math.max(this.route.wait(), backgroundWait(this.failures + 1, this.host.random, err)));
	}
}
