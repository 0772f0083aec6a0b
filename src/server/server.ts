import { StaffOpsClient } from "../api/client";
import { CallBridge } from "../bridge/CallBridge";
import { HealthLog, logInfo, logWarn } from "../runtime/log";
import { RetryShare } from "../runtime/retryShare";
import { ensureRemotes } from "../shared/remotes";
import { robloxScheduler, Scheduler } from "../transport/scheduler";
import { ClientReports, ClientReportStats } from "./clientReports";
import type { ResolvedConfig } from "./config";
import { deliverFromModel } from "./deliver";
import { Gathering } from "./gathering";
import { JoinQueue } from "./joinQueue";
import { Presence } from "./presence";
import { PlayerRecord, PlayerSession, ServerSignals } from "./records";
import { Registration } from "./registration";
import { defaultBindToClose, defaultCanChat, defaultPlayers, PlayersLike, readGameInfo, ServerSeams } from "./seams";
import { SessionEnder } from "./sessions";
import { shutdownDeadlineSeconds } from "./shutdownDeadline";
import { robloxRank } from "./staffHint";

export type { ClientReportStats } from "./clientReports";
export { STAFF_ATTRIBUTE } from "./records";
export type { JoinResult, PlayerSession, ServerSignals } from "./records";

/**
 * The share of the shutdown deadline kept for ending the server (`endServer`), which goes out whatever else hangs: a
 * server not ended keeps its staff sessions open on the service until its 20-minute sweep.
 * @internal
 */
export const END_SERVER_SHARE = 0.3;

/**
 * One running game integration: registration, joins, staff marks, bans, presence, sessions and shutdown, each a
 * small task of its own (`registration.ts`, `gathering.ts`, `joinQueue.ts`, `presence.ts`, `sessions.ts`) that
 * reads failures through the one policy (`api/failurePolicy.ts`). Made by {@link StaffOps.start}; game code uses the
 * `StaffOps` functions rather than this object.
 *
 * @example
 * ```ts
 * const server = StaffOps.start(config);
 * if (server) print(server.isRegistered());
 * ```
 * @see README#game-integration
 */
export class StaffOpsServer {
	private readonly scheduler: Scheduler;
	private readonly players: PlayersLike;
	private readonly client: StaffOpsClient;
	private readonly health = new HealthLog();
	private readonly records = new Map<number, PlayerRecord>();
	private readonly connections = new Array<RBXScriptConnection>();
	private readonly registration: Registration;
	private readonly gathering: Gathering;
	private readonly joins: JoinQueue;
	private readonly presence: Presence;
	private readonly sessions: SessionEnder;
	private readonly reports: ClientReports;
	private calls?: CallBridge;
	private stopped = false;
	private shuttingDown = false;

	/** @internal */
	constructor(
		private readonly config: ResolvedConfig,
		signals: ServerSignals,
		private readonly seams: ServerSeams = {},
	) {
		const scheduler = (this.scheduler = seams.scheduler ?? robloxScheduler);
		const random = seams.random ?? (() => math.random());
		this.players = seams.players ?? defaultPlayers;
		const client = (this.client =
			seams.client ??
			new StaffOpsClient(
				{
					baseUrl: config.baseUrl,
					apiKey: config.apiKey,
					budget: config.budget,
					timeout: config.timeout,
					retry: config.retry,
				},
				seams.transport,
			));
		const health = this.health;
		const records = this.records;
		const guard = (label: string, fn: () => void) => this.guard(label, fn);
		const registered = () => this.registration.current;
		const shuttingDown = () => this.shuttingDown;
		const forgotten = (source: string) => this.guard("re-registration", () => this.serverForgotten(source));
		this.registration = new Registration({
			client,
			scheduler,
			random,
			health,
			gameInfo: seams.gameInfo ?? readGameInfo,
			shuttingDown,
			registered: () => this.onRegistered(),
			guard,
		});
		this.sessions = new SessionEnder({
			client,
			scheduler,
			random,
			health,
			options: config.sessions,
			registration: registered,
			guard,
		});
		this.gathering = new Gathering({
			config,
			scheduler,
			health,
			records,
			canChat: seams.canChat ?? defaultCanChat,
			rankOf: seams.rankOf ?? robloxRank,
			sessions: this.sessions,
			registration: registered,
			shuttingDown,
			stopped: () => this.stopped,
			ready: () => this.joins.flush(),
			guard,
		});
		this.joins = new JoinQueue({
			retries: new RetryShare(scheduler, () => client.getBudget().getPerMinute()),
			client,
			scheduler,
			random,
			config,
			health,
			signals,
			records,
			registration: registered,
			shuttingDown,
			forgotten,
			answeredAfterLeaving: (record) => this.gathering.answeredAfterLeaving(record),
			guard,
		});
		this.presence = new Presence({
			client,
			scheduler,
			health,
			heartbeatSeconds: config.heartbeatSeconds,
			keepAlive: config.keepAlive,
			records,
			registration: registered,
			answerSeq: () => this.joins.answerSeq,
			forgotten,
			resend: () => this.joins.flush(),
			beaten: () => {
				if (this.joins.isFailing()) this.joins.flush();
				this.sessions.flush();
			},
			guard,
		});
		this.reports = new ClientReports(this.players, this.gathering, scheduler);
	}

	/** Starts everything; called once by `StaffOps.start`. Never throws. @internal */
	begin(studio: boolean): void {
		if (studio) {
			logInfo(
				"Studio playtest (empty JobId): registering it with a jobId of its own (studio-...) and reporting joins " +
					"as in a live server; set trackStudio = false (attribute TrackStudio) to keep StaffOps off in Studio",
			);
		}
		this.guard("remotes", () => {
			const remotes = ensureRemotes(this.seams.remotesParent);
			this.connections.push(
				remotes.ClientReport.OnServerEvent.Connect((player, ...args) =>
					this.guard("client report", () => !this.stopped && this.reports.handle(player, args)),
				),
			);
			this.calls = new CallBridge({
				client: this.client,
				scheduler: this.scheduler,
				random: this.seams.random,
				players: this.players,
				remote: remotes.CallEvents,
			});
		});
		this.guard("player tracking", () => {
			this.connections.push(
				this.players.PlayerAdded.Connect((player) => this.guard("join", () => this.gathering.track(player))),
				this.players.PlayerRemoving.Connect((player) =>
					this.guard("leave", () => {
						this.reports.forget(player.UserId);
						this.gathering.untrack(player);
					}),
				),
			);
			for (const player of this.players.GetPlayers()) this.gathering.track(player);
		});
		this.guard("BindToClose", () =>
			(this.seams.bindToClose ?? defaultBindToClose)(() => this.guard("shutdown", () => this.shutdown())),
		);
		if (this.config.deliverClient) {
			this.guard("client delivery", () => deliverFromModel(this.seams.delivery ?? {}));
		}
		this.guard("registration", () => this.registration.start());
	}

	/** Whether the service marked `player` as staff (false until their join is answered, and for banned players). */
	isStaff(player: Player): boolean {
		const answer = this.gathering.recordOf(player)?.answer;
		return answer !== undefined && answer.isStaff && !answer.banned;
	}

	/** The player's session with the service, or undefined until their join is answered (and for banned players). */
	getSession(player: Player): PlayerSession | undefined {
		const answer = this.gathering.recordOf(player)?.answer;
		if (answer === undefined || answer.banned) return undefined;
		return { sessionId: answer.sessionId, runningPlayerId: answer.runningPlayerId, isStaff: answer.isStaff };
	}

	/** The typed client this integration talks through (same budget), for game code such as a cashier system. */
	getClient(): StaffOpsClient {
		return this.client;
	}

	/** The support-call bridge of this integration (same client and budget); undefined only without remotes. */
	getCalls(): CallBridge | undefined {
		return this.calls;
	}

	/** Whether the service knows this server now. */
	isRegistered(): boolean {
		return this.registration.current !== undefined;
	}

	/** The internal game id of the current registration (the `{internalGameId}` of `client.games.getRunning`). */
	getInternalGameId(): string | undefined {
		return this.registration.current?.internalGameId;
	}

	/** The `runningGameId` of the current registration. */
	getRunningGameId(): string | undefined {
		return this.registration.current?.runningGameId;
	}

	/** Counts of client report events. @internal */
	getReportStats(): ClientReportStats {
		return { ...this.reports.stats };
	}

	/** How many failures of each kind were handled so far (their retries are scheduled by then). @internal */
	getFailureCounts(): { register: number; joins: number; heartbeats: number } {
		return {
			register: this.registration.failuresHandled,
			joins: this.joins.counts.failures,
			heartbeats: this.presence.failuresHandled,
		};
	}

	/** How many players are tracked, rate-limit buckets exist and leaves wait (memory checks). @internal */
	getTrackedCounts(): { players: number; limiterKeys: number; leaves: number } {
		return {
			players: this.records.size(),
			limiterKeys: this.reports.limiterKeys(),
			leaves: this.sessions.pending(),
		};
	}

	/** Whether the integration stopped (`stop()`, or shutdown finished). */
	isStopped(): boolean {
		return this.stopped;
	}

	/**
	 * Stops at once: disconnects from players and remotes, cancels pending requests, stops heartbeats. Sends
	 * nothing more (shutdown uses `BindToClose`, which sends the queue first).
	 */
	stop(): void {
		if (this.stopped) return;
		this.stopped = true;
		this.presence.stop();
		this.registration.stop();
		this.joins.stop();
		this.sessions.stop();
		this.calls?.destroy();
		for (const connection of this.connections) connection.Disconnect();
		this.connections.clear();
		this.records.clear();
	}

	/**
	 * Shutdown (`BindToClose`): sends what is still queued (registering first if needed), then the queued leaves, then
	 * ends the server when the sessions option says so, until done or `shutdownDeadlineSeconds` of real time passed;
	 * then stops. Yields.
	 * @internal
	 */
	shutdown(): void {
		if (this.stopped || this.shuttingDown) return;
		this.shuttingDown = true;
		this.presence.stop();
		const seconds = shutdownDeadlineSeconds(this.config.shutdownDeadlineSeconds, this.seams.isStudio);
		const deadline = os.clock() + seconds;
		// The end of the server keeps its share of the deadline: hanging joins or leaves must not cost it.
		const reportsUntil = this.sessions.endsServer() ? deadline - seconds * END_SERVER_SHARE : deadline;
		this.gathering.stopWaiting();
		while (os.clock() < reportsUntil && (this.joins.pending() > 0 || this.sessions.pending() > 0)) {
			if (this.registration.current === undefined) {
				if (!this.registration.isRegistering() && os.clock() >= this.registration.nextShutdownAttempt) {
					this.registration.start();
				}
			} else if (os.clock() >= this.joins.notBefore) {
				this.joins.flush();
				this.sessions.flush();
			}
			task.wait(0.05);
		}
		const unsent = this.joins.pending();
		if (unsent > 0) {
			logWarn(`shutting down with ${unsent} join report(s) unsent: the ${seconds} s deadline passed`);
		}
		if (this.sessions.endsServer() && this.registration.current !== undefined && os.clock() < deadline) {
			const ending = this.sessions.endServer();
			while (os.clock() < deadline && ending.getStatus() === "Started") task.wait(0.05);
			if (ending.getStatus() === "Started")
				logWarn("shutting down before the service confirmed the server's end");
			ending.cancel();
		}
		this.stop();
	}

	private onRegistered(): void {
		if (this.stopped) return;
		if (!this.shuttingDown) this.presence.schedule();
		this.joins.flush();
	}

	/** The service no longer knows this server: register again, then report everyone present again. */
	private serverForgotten(source: string): void {
		if (this.registration.current === undefined || this.stopped) return;
		this.presence.stop();
		this.joins.cancelInFlight();
		let again = 0;
		for (const [userId, record] of this.records) {
			const phase = record.phase;
			if (record.left) {
				// Gone, and the old server's sessions ended with it: nothing to report for them.
				this.records.delete(userId);
				continue;
			}
			if (
				phase === "sending" ||
				phase === "checking" ||
				(phase === "answered" && record.answer?.banned !== true)
			) {
				record.phase = "ready";
			}
			if (record.phase === "ready") again += 1;
		}
		logInfo(
			`the service no longer knows this server (404 on ${source}); registering again and reporting ${again} player(s) again`,
		);
		this.registration.forget();
	}

	/** Runs `fn`; an error is logged, never thrown into game code. */
	private guard(label: string, fn: () => void): void {
		const [ok, problem] = pcall(fn);
		if (!ok) logWarn(`internal error in ${label}: ${tostring(problem)}`);
	}
}
