import { StaffOpsClient } from "../api/client";
import type { CreateServerArgs, Platform, PlayerJoinArgs, PlayerJoinAnswer, RunningGameAnswer } from "../api/types";
import { ClientReportPayload, isClientReportPayload, UNKNOWN_TZ_OFFSET } from "../client/report/payload";
import { RateLimiter } from "../shared/rateLimiter";
import { ensureRemotes } from "../shared/remotes";
import { CallBridge } from "../bridge/CallBridge";
import { Signal } from "../shared/signal";
import { robloxScheduler, Scheduler } from "../transport/scheduler";
import { StaffOpsError } from "../transport/StaffOpsError";
import type { ResolvedConfig } from "./config";
import { deliverClient, findModelRoot } from "./deliver";
import { backoffSeconds, HealthLog, logInfo, logWarn } from "./log";
import { shutdownDeadlineSeconds } from "./shutdownDeadline";
import { defaultBindToClose, defaultCanChat, defaultPlayers, PlayersLike, readGameInfo, ServerSeams } from "./seams";

/**
 * What the service answered to a player's join, with what was reported.
 *
 * @example
 * ```ts
 * StaffOps.playerReported.Connect((player, result) => print(player.Name, result.isStaff, result.platform));
 * ```
 * @see README#game-integration
 */
export interface JoinResult {
	/** The service reported the player as banned (they are kicked unless `kickBanned` is false). */
	readonly banned: boolean;
	/** The ban reason; empty when not banned. */
	readonly reason: string;
	readonly isStaff: boolean;
	/** The activity session the join opened; empty for a banned player. */
	readonly sessionId: string;
	/** The player's id as a running player of this server; empty for a banned player. */
	readonly runningPlayerId: string;
	/** What was reported: the platform (from the client, or `unknown`). */
	readonly platform: Platform;
	/** What was reported: the offset (from the client, or `+00:00` when unknown). */
	readonly tzOffset: string;
	/** What was reported: whether safe chat is on (the player may not chat freely). */
	readonly safechat: boolean;
}

/**
 * A player's session with the service, from the answer to their join.
 *
 * @example
 * ```ts
 * const session = StaffOps.getSession(player);
 * if (session) print(session.sessionId);
 * ```
 * @see README#game-integration
 */
export interface PlayerSession {
	readonly sessionId: string;
	readonly runningPlayerId: string;
	readonly isStaff: boolean;
}

/** The signals a server fires (the `StaffOps` namespace owns them, so game code can connect before `start`). @internal */
export interface ServerSignals {
	readonly staffJoined: Signal<[player: Player]>;
	readonly playerReported: Signal<[player: Player, result: JoinResult]>;
	readonly playerBanned: Signal<[player: Player, reason: string]>;
}

/**
 * Counts of `ClientReport` events, for checks and diagnostics.
 * @internal
 */
export interface ClientReportStats {
	received: number;
	accepted: number;
	/** Malformed: wrong types, extra keys, values outside the allowed sets. */
	rejected: number;
	/** Dropped by the per-player rate limit. */
	rateLimited: number;
	/** Well-formed but not needed: a second report, or from a player who is not tracked. */
	ignored: number;
}

/**
 * The player attribute that marks staff (`true`/`false` once the service answered the join). Attributes replicate,
 * so client code can read it too.
 *
 * @example
 * ```ts
 * // client or server
 * const isStaff = player.GetAttribute(STAFF_ATTRIBUTE) === true;
 * ```
 * @see README#game-integration
 */
export const STAFF_ATTRIBUTE = "StaffOpsIsStaff";

// gathering: waiting for the client report (or its timeout) and the safechat read
// ready: waiting to be sent (registration pending, or a retry after a failure)
// sending: the request is out; answered: the service answered; refused: the service refused it for good
type Phase = "gathering" | "ready" | "sending" | "answered" | "refused";

interface PlayerRecord {
	readonly player: Player;
	readonly userId: number;
	readonly username: string;
	phase: Phase;
	report?: ClientReportPayload;
	reportTimedOut: boolean;
	safechat?: boolean;
	request?: Promise<unknown>;
	answer?: JoinResult;
	/** Sequence number of the answer, to tell which answers a heartbeat's player list can already contain. */
	answeredSeq: number;
	announced: boolean;
	/** Left during shutdown, with the join still queued (it is sent anyway). */
	left: boolean;
}

interface Registration {
	readonly internalGameId: string;
	readonly runningGameId: string;
}

/** Longest wait for `CanUserChatAsync` before safechat is reported as on. */
const SAFECHAT_WAIT_SECONDS = 15;
const REPORTS_PER_SECOND = 0.5;
const REPORT_BURST = 3;

/**
 * One running game integration: registration, joins, staff marks, bans, presence and shutdown. Made by
 * {@link StaffOps.start}; game code uses the `StaffOps` functions rather than this object.
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
	private readonly random: () => number;
	private readonly players: PlayersLike;
	private readonly client: StaffOpsClient;
	private readonly health = new HealthLog();
	private readonly records = new Map<number, PlayerRecord>();
	private readonly limiter: RateLimiter;
	private readonly connections = new Array<RBXScriptConnection>();
	private readonly reportStats: ClientReportStats = {
		received: 0,
		accepted: 0,
		rejected: 0,
		rateLimited: 0,
		ignored: 0,
	};
	private registration?: Registration;
	private registering = false;
	private registerFailures = 0;
	private joinFailures = 0;
	private readonly failureCounts = { register: 0, joins: 0, heartbeats: 0 };
	private joinRetryScheduled = false;
	private heartbeatToken?: object;
	private answerSeq = 0;
	private calls?: CallBridge;
	private stopped = false;
	private shuttingDown = false;
	private nextShutdownAttempt = 0;
	private readonly notedTestIds = new Set<number>();

	/** @internal */
	constructor(
		private readonly config: ResolvedConfig,
		private readonly signals: ServerSignals,
		private readonly seams: ServerSeams = {},
	) {
		this.scheduler = seams.scheduler ?? robloxScheduler;
		this.random = seams.random ?? (() => math.random());
		this.players = seams.players ?? defaultPlayers;
		this.client =
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
			);
		const scheduler = this.scheduler;
		this.limiter = new RateLimiter(REPORTS_PER_SECOND, REPORT_BURST, () => scheduler.now());
	}

	/** Starts everything; called once by `StaffOps.start`. Never throws. @internal */
	begin(studio: boolean): void {
		if (studio) {
			logInfo(
				"Studio playtest (empty JobId): registering it as a server with an empty jobId and reporting joins " +
					"as in a live server; set trackStudio = false (attribute TrackStudio) to keep StaffOps off in Studio",
			);
		}
		this.guard("remotes", () => {
			const remotes = ensureRemotes(this.seams.remotesParent);
			this.connections.push(
				remotes.ClientReport.OnServerEvent.Connect((player, ...args) => this.onClientReport(player, args)),
			);
			this.calls = new CallBridge({
				client: this.client,
				scheduler: this.scheduler,
				random: this.random,
				players: this.players,
				remote: remotes.CallEvents,
			});
		});
		this.guard("player tracking", () => {
			this.connections.push(
				this.players.PlayerAdded.Connect((player) => this.guard("join", () => this.track(player))),
			);
			this.connections.push(
				this.players.PlayerRemoving.Connect((player) => this.guard("leave", () => this.untrack(player))),
			);
			for (const player of this.players.GetPlayers()) this.track(player);
		});
		this.guard("BindToClose", () =>
			(this.seams.bindToClose ?? defaultBindToClose)(() => this.guard("shutdown", () => this.shutdown())),
		);
		if (this.config.deliverClient) this.guard("client delivery", () => this.deliver());
		this.guard("registration", () => this.register());
	}

	/**
	 * Whether the service marked `player` as staff (false until their join is answered, and for banned players).
	 *
	 * @example
	 * ```ts
	 * if (server.isStaff(player)) giveStaffTools(player);
	 * ```
	 */
	isStaff(player: Player): boolean {
		const answer = this.recordOf(player)?.answer;
		return answer !== undefined && answer.isStaff && !answer.banned;
	}

	/**
	 * The player's session with the service, or undefined until their join is answered (and for banned players).
	 *
	 * @example
	 * ```ts
	 * print(server.getSession(player)?.runningPlayerId);
	 * ```
	 */
	getSession(player: Player): PlayerSession | undefined {
		const answer = this.recordOf(player)?.answer;
		if (answer === undefined || answer.banned) return undefined;
		return { sessionId: answer.sessionId, runningPlayerId: answer.runningPlayerId, isStaff: answer.isStaff };
	}

	/**
	 * The typed client this integration talks through (same budget), for game code such as a cashier system.
	 *
	 * @example
	 * ```ts
	 * server.getClient().teams.forUser(tostring(player.UserId));
	 * ```
	 */
	getClient(): StaffOpsClient {
		return this.client;
	}

	/**
	 * The support-call bridge of this integration (same client and budget): game code opens a call's chat for a
	 * player with it. Undefined only when the remotes could not be created.
	 *
	 * @example
	 * ```ts
	 * server.getCalls()?.open(player, callId, { title: "Cafe support" });
	 * ```
	 * @see README#support-calls
	 */
	getCalls(): CallBridge | undefined {
		return this.calls;
	}

	/**
	 * Whether the service knows this server now.
	 *
	 * @example
	 * ```ts
	 * print(server.isRegistered());
	 * ```
	 */
	isRegistered(): boolean {
		return this.registration !== undefined;
	}

	/**
	 * The internal game id of the current registration (the `{internalGameId}` of `client.games.getRunning`).
	 *
	 * @example
	 * ```ts
	 * const id = server.getInternalGameId();
	 * ```
	 */
	getInternalGameId(): string | undefined {
		return this.registration?.internalGameId;
	}

	/**
	 * The `runningGameId` of the current registration.
	 *
	 * @example
	 * ```ts
	 * const id = server.getRunningGameId();
	 * ```
	 */
	getRunningGameId(): string | undefined {
		return this.registration?.runningGameId;
	}

	/** Counts of client report events. @internal */
	getReportStats(): ClientReportStats {
		return { ...this.reportStats };
	}

	/** How many failures of each kind were handled so far (their retries are scheduled by then). @internal */
	getFailureCounts(): { register: number; joins: number; heartbeats: number } {
		return { ...this.failureCounts };
	}

	/** How many players are tracked and how many rate-limit buckets exist (memory checks). @internal */
	getTrackedCounts(): { players: number; limiterKeys: number } {
		return { players: this.records.size(), limiterKeys: this.limiter.size() };
	}

	/**
	 * Whether the integration stopped (`stop()`, or shutdown finished).
	 *
	 * @example
	 * ```ts
	 * if (server.isStopped()) StaffOps.start(config);
	 * ```
	 */
	isStopped(): boolean {
		return this.stopped;
	}

	/**
	 * Stops at once: disconnects from players and remotes, cancels pending requests, stops heartbeats. Sends
	 * nothing more (shutdown uses `BindToClose`, which sends the queue first).
	 *
	 * @example
	 * ```ts
	 * server.stop();
	 * ```
	 */
	stop(): void {
		if (this.stopped) return;
		this.stopped = true;
		this.heartbeatToken = undefined;
		this.calls?.destroy();
		for (const connection of this.connections) connection.Disconnect();
		this.connections.clear();
		for (const [, record] of this.records) {
			record.request?.cancel();
			record.request = undefined;
		}
		this.records.clear();
	}

	/**
	 * Shutdown (`BindToClose`): sends what is still queued (registering first if needed) until nothing is left or
	 * `shutdownDeadlineSeconds` of real time passed, then stops. Yields.
	 * @internal
	 */
	shutdown(): void {
		if (this.stopped || this.shuttingDown) return;
		this.shuttingDown = true;
		this.heartbeatToken = undefined;
		const started = os.clock();
		const deadline = started + shutdownDeadlineSeconds(this.config.shutdownDeadlineSeconds, this.seams.isStudio);
		// Nobody waits for a client report or a chat permission any more: report what is known.
		for (const [, record] of this.records) {
			if (record.phase === "gathering") {
				record.reportTimedOut = true;
				if (record.safechat === undefined) record.safechat = true;
				this.advance(record);
			}
		}
		while (os.clock() < deadline && this.pendingJoins() > 0) {
			if (this.registration === undefined) {
				if (!this.registering && os.clock() >= this.nextShutdownAttempt) this.register();
			} else if (os.clock() >= this.nextShutdownAttempt) {
				this.flush();
			}
			task.wait(0.05);
		}
		const unsent = this.pendingJoins();
		if (unsent > 0) {
			logWarn(
				`shutting down with ${unsent} join report(s) unsent: the ${this.config.shutdownDeadlineSeconds} s deadline passed`,
			);
		}
		this.stop();
	}

	// ---- registration ----

	private register(): void {
		if (this.stopped || this.registering || this.registration !== undefined) return;
		this.registering = true;
		const [factsOk, facts] = pcall(this.seams.gameInfo ?? readGameInfo);
		if (!factsOk) {
			this.registering = false;
			this.registrationFailed(`could not read the server's facts: ${tostring(facts)}`);
			return;
		}
		this.client.activity.registerServer(facts as CreateServerArgs, { priority: "high" }).andThen(
			(answer) =>
				this.guard("registration", () => {
					if (this.stopped) return;
					this.registering = false;
					this.registration = { internalGameId: answer.gameId, runningGameId: answer.runningGameId };
					const failures = this.registerFailures;
					this.registerFailures = 0;
					if (
						!this.health.recovered(
							"register",
							`registered this server after ${failures + 1} attempts (internal game id ${answer.gameId})`,
						)
					) {
						logInfo(`registered this server (internal game id ${answer.gameId})`);
					}
					this.scheduleHeartbeat();
					this.flush();
				}),
			(err: unknown) =>
				this.guard("registration", () => {
					if (this.stopped) return;
					this.registering = false;
					this.registrationFailed(tostring(err));
				}),
		);
	}

	private registrationFailed(text: string): void {
		this.registerFailures += 1;
		this.failureCounts.register += 1;
		this.health.problem(
			"register",
			`could not register this server (${text}); retrying in the background, joins wait until it succeeds`,
		);
		if (this.shuttingDown) {
			this.nextShutdownAttempt = os.clock() + 1;
			return;
		}
		this.scheduler.delay(backoffSeconds(this.registerFailures, this.random), () =>
			this.guard("registration", () => this.register()),
		);
	}

	/** The service no longer knows this server: register again, then report everyone present again. */
	private serverForgotten(source: string): void {
		if (this.registration === undefined || this.stopped) return;
		this.registration = undefined;
		this.heartbeatToken = undefined;
		let again = 0;
		for (const [, record] of this.records) {
			if (record.phase === "sending" || (record.phase === "answered" && record.answer?.banned !== true)) {
				record.request?.cancel();
				record.request = undefined;
				record.phase = "ready";
			}
			if (record.phase === "ready") again += 1;
		}
		logInfo(
			`the service no longer knows this server (404 on ${source}); registering again and reporting ${again} player(s) again`,
		);
		this.register();
	}

	// ---- presence ----

	private scheduleHeartbeat(): void {
		if (this.stopped || this.shuttingDown) return;
		const token = {};
		this.heartbeatToken = token;
		this.scheduler.delay(this.config.heartbeatSeconds, () =>
			this.guard("heartbeat", () => {
				if (this.heartbeatToken === token && !this.stopped && !this.shuttingDown) this.beat(token);
			}),
		);
	}

	private beat(token: object): void {
		const registration = this.registration;
		if (registration === undefined) return;
		const seqAtSend = this.answerSeq;
		this.client.games.getRunning(registration.internalGameId, { priority: "normal" }).andThen(
			(answer) =>
				this.guard("heartbeat", () => {
					if (this.stopped || this.registration !== registration || this.heartbeatToken !== token) return;
					this.health.recovered("heartbeat", "heartbeats reach the service again");
					this.reconcile(answer, seqAtSend);
					this.scheduleHeartbeat();
					if (this.joinFailures > 0) this.flush();
				}),
			(err: unknown) =>
				this.guard("heartbeat", () => {
					if (this.stopped || this.registration !== registration || this.heartbeatToken !== token) return;
					if (StaffOpsError.is(err) && err.kind === "service" && err.status === 404) {
						this.serverForgotten("the heartbeat");
						return;
					}
					this.health.problem("heartbeat", `heartbeat failed (${tostring(err)}); will keep trying`);
					this.scheduleHeartbeat();
					this.failureCounts.heartbeats += 1;
				}),
		);
	}

	/**
	 * Compares the service's player list with the players here. Players whose join was answered before the heartbeat
	 * went out but whom the service does not list are reported again. Players the service lists who are not here
	 * need nothing: the interface has no leave operation, and the service ends their sessions on its own.
	 */
	private reconcile(answer: RunningGameAnswer, seqAtSend: number): void {
		const listed = new Set<string>();
		for (const running of answer.players ?? []) {
			if (typeIs(running.userId, "string")) listed.add(running.userId);
		}
		for (const userId of answer.runningGame.players ?? []) listed.add(userId);
		let missing = 0;
		for (const [, record] of this.records) {
			const known = record.answer;
			if (record.phase !== "answered" || known === undefined || known.banned) continue;
			if (record.answeredSeq > seqAtSend || listed.has(tostring(record.userId))) continue;
			record.phase = "ready";
			missing += 1;
		}
		if (missing > 0) {
			logInfo(`the service did not list ${missing} player(s) of this server; reporting them again`);
			this.flush();
		}
	}

	// ---- players ----

	private recordOf(player: Player): PlayerRecord | undefined {
		if (!typeIs(player, "Instance") || !player.IsA("Player")) return undefined;
		const record = this.records.get(player.UserId);
		return record !== undefined && record.player === player ? record : undefined;
	}

	private track(player: Player): PlayerRecord | undefined {
		if (this.stopped || this.shuttingDown) return undefined;
		const userId = player.UserId;
		const existing = this.records.get(userId);
		if (existing !== undefined && existing.player === player) return existing;
		if (userId <= 0) {
			// Studio's local test players (Player1 = -1, ...) are no Roblox users; the service cannot know them.
			if (!this.notedTestIds.has(userId)) {
				this.notedTestIds.add(userId);
				logInfo(`${player.Name} has a Studio test UserId (${userId}); not reporting this player`);
			}
			return undefined;
		}
		const record: PlayerRecord = {
			player,
			userId,
			username: player.Name,
			phase: "gathering",
			reportTimedOut: false,
			answeredSeq: 0,
			announced: false,
			left: false,
		};
		this.records.set(userId, record);
		task.spawn(() => this.readSafechat(record));
		// CanUserChatAsync is a web call that may hang; the join does not wait for it forever.
		this.scheduler.delay(SAFECHAT_WAIT_SECONDS, () =>
			this.guard("safechat timeout", () => {
				if (this.records.get(userId) !== record || record.safechat !== undefined) return;
				this.health.problem("safechat", "reading chat permissions timed out; reporting safechat = true");
				record.safechat = true;
				this.advance(record);
			}),
		);
		const wait = this.config.clientReportTimeoutSeconds;
		if (wait <= 0) {
			record.reportTimedOut = true;
		} else {
			this.scheduler.delay(wait, () =>
				this.guard("client report timeout", () => {
					if (this.records.get(userId) !== record || record.reportTimedOut) return;
					record.reportTimedOut = true;
					this.advance(record);
				}),
			);
		}
		return record;
	}

	private readSafechat(record: PlayerRecord): void {
		const [ok, canChat] = pcall(this.seams.canChat ?? defaultCanChat, record.player);
		let safechat: boolean;
		if (ok && typeIs(canChat, "boolean")) {
			safechat = !canChat;
		} else {
			safechat = true;
			this.health.problem(
				"safechat",
				`could not read chat permissions (${ok ? "no boolean answer" : tostring(canChat)}); reporting safechat = true`,
			);
		}
		if (this.records.get(record.userId) !== record || record.safechat !== undefined) return;
		record.safechat = safechat;
		this.advance(record);
	}

	private untrack(player: Player): void {
		const userId = player.UserId;
		this.limiter.forget(userId);
		const record = this.records.get(userId);
		if (record === undefined || record.player !== player) return;
		if (this.shuttingDown && (record.phase === "ready" || record.phase === "sending")) {
			// The server is closing: everyone leaves. Their queued joins still go out within the deadline.
			record.left = true;
			return;
		}
		this.records.delete(userId);
		record.request?.cancel();
		record.request = undefined;
	}

	private advance(record: PlayerRecord): void {
		if (record.phase !== "gathering" || record.safechat === undefined) return;
		if (record.report === undefined && !record.reportTimedOut) return;
		record.phase = "ready";
		this.flush();
	}

	// ---- client reports ----

	private onClientReport(player: Player, args: Array<unknown>): void {
		const stats = this.reportStats;
		stats.received += 1;
		if (this.stopped || !typeIs(player, "Instance") || !player.IsA("Player") || player.Parent === undefined) {
			stats.ignored += 1;
			return;
		}
		if (!this.limiter.allow(player.UserId)) {
			stats.rateLimited += 1;
			return;
		}
		const payload = args[0];
		if (args.size() !== 1 || !isClientReportPayload(payload)) {
			stats.rejected += 1;
			return;
		}
		const record = this.recordOf(player) ?? this.track(player);
		if (record === undefined || record.report !== undefined) {
			stats.ignored += 1;
			return;
		}
		// A report that arrives after the wait is still used if the join has not gone out yet.
		if (record.phase !== "gathering" && record.phase !== "ready") {
			stats.ignored += 1;
			return;
		}
		record.report = { platform: payload.platform, tzOffset: payload.tzOffset };
		stats.accepted += 1;
		this.advance(record);
	}

	// ---- joins ----

	private pendingJoins(): number {
		let pending = 0;
		for (const [, record] of this.records) {
			if (record.phase === "gathering" || record.phase === "ready" || record.phase === "sending") pending += 1;
		}
		return pending;
	}

	private flush(): void {
		if (this.stopped || this.registration === undefined) return;
		for (const [, record] of this.records) {
			if (record.phase === "ready") this.send(record, this.registration);
		}
	}

	private send(record: PlayerRecord, registration: Registration): void {
		record.phase = "sending";
		const args: PlayerJoinArgs = {
			playerId: record.userId,
			safechat: record.safechat ?? true,
			username: record.username,
			tzOffset: record.report?.tzOffset ?? UNKNOWN_TZ_OFFSET,
			platform: record.report?.platform ?? "unknown",
			gameId: registration.runningGameId,
		};
		const request = this.client.activity.reportJoin(args, { priority: "high" });
		record.request = request;
		request.andThen(
			(answer) =>
				this.guard("join answer", () => {
					if (record.request !== request || this.stopped) return;
					record.request = undefined;
					this.onJoinAnswer(record, args, answer);
				}),
			(err: unknown) =>
				this.guard("join failure", () => {
					if (record.request !== request || this.stopped) return;
					record.request = undefined;
					this.onJoinFailure(record, err);
				}),
		);
	}

	private onJoinAnswer(record: PlayerRecord, args: PlayerJoinArgs, answer: PlayerJoinAnswer): void {
		const result: JoinResult = {
			banned: answer.banned,
			reason: answer.reason,
			isStaff: answer.isStaff,
			sessionId: answer.sessionId,
			runningPlayerId: answer.runningPlayerId,
			platform: args.platform,
			tzOffset: args.tzOffset,
			safechat: args.safechat,
		};
		this.answerSeq += 1;
		record.answer = result;
		record.answeredSeq = this.answerSeq;
		record.phase = "answered";
		this.joinFailures = 0;
		this.health.recovered("joins", "join reports reach the service again");
		if (record.left || this.records.get(record.userId) !== record) return;
		const player = record.player;
		this.guard("staff attribute", () => player.SetAttribute(STAFF_ATTRIBUTE, result.isStaff && !result.banned));
		this.signals.playerReported.Fire(player, result);
		if (record.announced) return;
		record.announced = true;
		if (result.banned) {
			this.signals.playerBanned.Fire(player, result.reason);
			if (this.config.kickBanned) this.kick(player, result.reason);
		} else if (result.isStaff) {
			this.signals.staffJoined.Fire(player);
		}
	}

	private kick(player: Player, reason: string): void {
		const [ok, message] = pcall(this.config.kickMessage, reason);
		const text = ok && typeIs(message, "string") ? message : `You are banned from this experience: ${reason}`;
		if (!ok) logWarn(`kickMessage failed (${tostring(message)}); used the default message`);
		this.guard("kick", () => player.Kick(text));
	}

	private onJoinFailure(record: PlayerRecord, err: unknown): void {
		const failure = StaffOpsError.is(err) ? err : undefined;
		if (failure !== undefined && failure.kind === "service" && failure.status === 404) {
			record.phase = "ready";
			this.serverForgotten(`the join of ${record.username}`);
			return;
		}
		const status = failure?.status ?? 0;
		const refused =
			failure !== undefined &&
			(failure.kind === "invalid" ||
				(status >= 400 && status < 500 && status !== 401 && status !== 408 && status !== 429));
		if (refused) {
			record.phase = "refused";
			logWarn(`the service refused the join of ${record.username}; not retrying it: ${tostring(err)}`);
			return;
		}
		record.phase = "ready";
		this.joinFailures += 1;
		this.health.problem("joins", `join reports are failing (${tostring(err)}); they will be retried`);
		if (this.shuttingDown) {
			this.nextShutdownAttempt = os.clock() + 1;
		} else if (!this.joinRetryScheduled) {
			this.joinRetryScheduled = true;
			this.scheduler.delay(backoffSeconds(this.joinFailures, this.random), () =>
				this.guard("join retry", () => {
					this.joinRetryScheduled = false;
					this.flush();
				}),
			);
		}
		this.failureCounts.joins += 1;
	}

	// ---- drop-in client delivery ----

	private deliver(): void {
		const delivery = this.seams.delivery ?? {};
		const root = delivery.modelRoot ?? findModelRoot();
		if (root === undefined) {
			logWarn(
				"deliverClient is for the drop-in model; in a roblox-ts game call startClientReport() from client code",
			);
			return;
		}
		const starterPlayer = game.GetService("StarterPlayer");
		const problem = deliverClient(root, {
			replicated: delivery.replicated ?? game.GetService("ReplicatedStorage"),
			starterPlayerScripts:
				delivery.starterPlayerScripts ?? starterPlayer.FindFirstChildOfClass("StarterPlayerScripts"),
			players: this.players.GetPlayers(),
		});
		if (problem !== undefined) logWarn(`could not deliver the client reporter: ${problem}`);
	}

	/** Runs `fn`; an error is logged, never thrown into game code. */
	private guard(label: string, fn: () => void): void {
		const [ok, problem] = pcall(fn);
		if (!ok) logWarn(`internal error in ${label}: ${tostring(problem)}`);
	}
}
