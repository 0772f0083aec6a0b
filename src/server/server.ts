import { StaffOpsApiClient } from "../api/apiClient";
import { CallBridge } from "../bridge/callBridge";
import { SupportDesk } from "../bridge/supportDesk";
import { HealthLog, logInfo, logWarn } from "../background/log";
import { RetryShare } from "../background/retryShare";
import { ensureRemotes } from "../shared/remotes";
import type { Remotes } from "../shared/remotes";
import type { SignalConnection } from "../shared/signal";
import { ConsentPrompts, ConsentStats } from "./consent";
import { StaffActivity, StaffActivityStats } from "./staffActivity";
import { activitySettingsOf, isTrackedResult } from "./tracking";
import { robloxScheduler, Scheduler } from "../transport/scheduler";
import { ClientReports, ClientReportStats } from "./clientReports";
import type { StaffOpsSettings } from "./config";
import { deliverFromModel, findModelRoot } from "./clientScriptDelivery";
import { Gathering } from "./gathering";
import { JoinQueue } from "./joinQueue";
import { Presence } from "./presence";
import { PlayerRecord, PlayerSession, ServerSignals } from "./records";
import { Registration } from "./registration";
import {
	defaultBindToClose,
	defaultCanChat,
	defaultChatted,
	defaultPlayers,
	PlayersLike,
	readGameInfo,
	ServerSeams,
} from "./seams";
import { SessionEnder } from "./sessions";
import { shutdownDeadlineSeconds } from "./shutdownDeadline";
import { robloxRank } from "./staffHint";
import { robloxTextFilter } from "../bridge/filter";
import { DashboardActions } from "./dashboardActions";
import { DecidedProfile, decideProfile, RegistrationFacts, registrationFacts } from "./profile";
import { SessionEvents } from "./sessionEvents";
import { sameStatus, StaffOpsStatus, statusOf } from "./status";
import { Sync } from "./sync";

export type { ClientReportStats } from "./clientReports";
export { STAFF_ATTRIBUTE } from "./records";
export type { JoinResult, PlayerSession, ServerSignals } from "./records";
export type { DegradedReason, StaffOpsState, StaffOpsStatus } from "./status";

/**
 * The share of the shutdown deadline kept for ending the server (`endServer`), which goes out whatever else hangs: a
 * server not ended keeps its staff sessions open on the service until its 20-minute sweep.
 * @internal
 */
export const END_SERVER_SHARE = 0.3;

/** Whether the registration answer's `moderation` says the workspace takes in-game calls (a flag, or its settings). */
function takesCalls(moderation: unknown): boolean {
	return moderation === true || typeIs(moderation, "table");
}

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
	private readonly client: StaffOpsApiClient;
	private readonly health: HealthLog;
	private readonly records = new Map<number, PlayerRecord>();
	private readonly connections = new Array<RBXScriptConnection>();
	private readonly registration: Registration;
	private readonly gathering: Gathering;
	private readonly joins: JoinQueue;
	private readonly presence: Presence;
	private readonly sessions: SessionEnder;
	private readonly reports: ClientReports;
	private readonly events = new SessionEvents();
	private readonly sync: Sync;
	private readonly actions: DashboardActions;
	private profile?: DecidedProfile;
	private notifications?: RemoteEvent;
	private calls?: CallBridge;
	private desk?: SupportDesk;
	private consent?: ConsentPrompts;
	private activity?: StaffActivity;
	private reported?: SignalConnection;
	private stopped = false;
	private shuttingDown = false;
	private status: StaffOpsStatus = { state: "starting" };

	/** @internal */
	constructor(
		private readonly config: StaffOpsSettings,
		private readonly signals: ServerSignals,
		private readonly seams: ServerSeams = {},
	) {
		const scheduler = (this.scheduler = seams.scheduler ?? robloxScheduler);
		this.health = new HealthLog(scheduler);
		const random = seams.random ?? (() => math.random());
		this.players = seams.players ?? defaultPlayers;
		const client = (this.client =
			seams.client ??
			new StaffOpsApiClient(
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
		health.changed = () => this.updateStatus();
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
			profile: () => this.profile,
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
			profile: () => this.profile,
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
		this.actions = new DashboardActions({
			players: this.players,
			filter: seams.textFilter ?? robloxTextFilter,
			signals,
			notifications: () => (config.builtInNotifications ? this.notifications : undefined),
		});
		this.sync = new Sync({
			client,
			scheduler,
			random,
			health,
			events: this.events,
			registration: registered,
			forgotten,
			actions: (actions, dropped) => this.actions.handle(actions, dropped),
			beaten: () => {
				if (this.joins.isFailing()) this.joins.flush();
				this.sessions.flush();
			},
			guard,
			fastSeconds: config.callSyncSeconds,
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
			this.notifications = remotes.Notifications;
			this.connections.push(
				remotes.ClientReport.OnServerEvent.Connect((player, ...args) =>
					this.guard("client report", () => !this.stopped && this.reports.handle(player, args)),
				),
			);
			this.startPrivacy(remotes);
			const calls = (this.calls = new CallBridge({
				client: this.client,
				scheduler: this.scheduler,
				random: this.seams.random,
				players: this.players,
				remote: remotes.CallEvents,
				filter: this.seams.textFilter,
				yieldSlice: this.seams.transport?.yieldSlice,
				workClock: this.seams.transport?.workClock,
			}));
			// Players call staff and write back (deployed profile): messages ride the sync, chats come from it.
			const desk = (this.desk = new SupportDesk({
				client: this.client,
				bridge: calls,
				runningGameId: () => this.getRunningGameId(),
				setFast: (fast) => this.sync.setFast(fast),
				canChat: this.seams.canChat,
				filter: this.seams.textFilter,
				scheduler: this.scheduler,
				remote: remotes.SupportRequests,
				players: this.players,
				// A reported leave ends the player's calls on the service; otherwise the desk ends them itself.
				endOnLeave: () => !this.sessions.reportsLeaves(),
				mayCall: (player) => !this.isUntracked(player),
			}));
			this.sync.setChatOutbox(desk.outbox);
			this.sync.onOngoingChats = (chats) => desk.handleOngoingChats(chats);
		});
		this.guard("player tracking", () => {
			this.connections.push(
				this.players.PlayerAdded.Connect((player) =>
					this.guard("join", () => {
						this.actions.joined(player);
						this.gathering.track(player);
					}),
				),
				this.players.PlayerRemoving.Connect((player) =>
					this.guard("leave", () => {
						this.reports.forget(player.UserId);
						this.consent?.forget(player);
						this.activity?.forget(player);
						this.gathering.untrack(player);
					}),
				),
			);
			for (const player of this.players.GetPlayers()) this.gathering.track(player);
		});
		this.guard("BindToClose", () =>
			(this.seams.bindToClose ?? defaultBindToClose)(() => this.guard("shutdown", () => this.shutdown())),
		);
		// One default for every way in: on where the model's client part is there (drop-in, Wally), off in npm games.
		if (this.config.deliverClient ?? findModelRoot() !== undefined) {
			this.guard("client delivery", () => deliverFromModel(this.seams.delivery ?? {}));
		}
		this.guard("registration", () => this.registration.start());
	}

	/** Whether the service marked `player` as staff (false until their join is answered, and for banned players). */
	isStaff(player: Player): boolean {
		const answer = this.gathering.recordOf(player)?.answer;
		return answer !== undefined && answer.isStaff && !answer.banned;
	}

	/**
	 * Whether the service tracks `player`: their join was answered, they are not banned, and the answer did not say
	 * `tracked: false` (staff-only mode, data removal, consent denied). Nothing is sent for an untracked player.
	 */
	isTracked(player: Player): boolean {
		return isTrackedResult(this.gathering.recordOf(player)?.answer);
	}

	/** Whether the service answered `tracked: false` for `player` (a join not answered yet is not known). @internal */
	isUntracked(player: Player): boolean {
		return this.gathering.recordOf(player)?.answer?.tracked === false;
	}

	/** Records `player`'s consent decision (game code's own prompt); false when no consent question is open for them. */
	answerConsent(player: Player, granted: boolean): boolean {
		return this.consent !== undefined && this.consent.answer(player, granted);
	}

	/** Counts of the consent flow and staff activity. @internal */
	getPrivacyStats(): { consent?: ConsentStats; activity?: StaffActivityStats } {
		return {
			consent: this.consent && { ...this.consent.stats },
			activity: this.activity && { ...this.activity.stats },
		};
	}

	/** The player's session with the service, or undefined until their join is answered (and for banned players). */
	getSession(player: Player): PlayerSession | undefined {
		const answer = this.gathering.recordOf(player)?.answer;
		if (answer === undefined || answer.banned) return undefined;
		return { sessionId: answer.sessionId, runningPlayerId: answer.runningPlayerId, isStaff: answer.isStaff };
	}

	/** The typed client this integration talks through (same budget), for game code such as a cashier system. */
	getClient(): StaffOpsApiClient {
		return this.client;
	}

	/** The support-call bridge of this integration (same client and budget); undefined only without remotes. */
	getCalls(): CallBridge | undefined {
		return this.calls;
	}

	/** The service's profile: decided at registration (undefined before the first one under `auto`). */
	getProfile(): DecidedProfile | undefined {
		return this.profile;
	}

	/** What the registration answer said about the workspace (the deployed service's extra fields). */
	getRegistrationFacts(): RegistrationFacts {
		return registrationFacts(this.registration.current?.answer);
	}

	/** The queue of session events the sync carries (deployed profile). @internal */
	getSessionEvents(): SessionEvents {
		return this.events;
	}

	/** The deployed profile's sync: its chat outbox, ongoing-chats hook and fast mode. @internal */
	getSync(): Sync {
		return this.sync;
	}

	/** Dashboard actions acted on, by type. @internal */
	getActionCounts(): { kick: number; notify: number; shutdown: number; dropped: number } {
		return { ...this.actions.counts };
	}

	/** The support desk: players calling staff and writing back (deployed profile); undefined only without remotes. */
	getSupportDesk(): SupportDesk | undefined {
		return this.desk;
	}

	/**
	 * Where the integration stands: `starting`, `running`, `degraded` (with a reason), `keyRefused` or `stopped`; see
	 * {@link StaffOpsStatus}. `StaffOps.statusChanged` fires when its state or reason changes.
	 */
	getStatus(): StaffOpsStatus {
		return this.status;
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
		this.health.stop();
		this.presence.stop();
		this.sync.stop();
		this.registration.stop();
		this.joins.stop();
		this.sessions.stop();
		this.desk?.destroy();
		this.calls?.destroy();
		this.activity?.stop();
		this.reported?.Disconnect();
		for (const connection of this.connections) connection.Disconnect();
		this.connections.clear();
		this.records.clear();
		this.updateStatus();
	}

	/**
	 * Shutdown (`BindToClose`): sends what is still queued (registering first if needed) and, with the deployed
	 * profile's sync, one last sync; then the queued leaves, then ends the server when the sessions option says so,
	 * until done or `shutdownDeadlineSeconds` of real time passed; then stops. Yields.
	 * @internal
	 */
	shutdown(): void {
		if (this.stopped || this.shuttingDown) return;
		this.shuttingDown = true;
		this.presence.stop();
		// One last sync before the server's end removes the server: what waits for it (session events, players' call
		// messages) is sent at no other time.
		if (this.syncRuns()) this.sync.finish();
		else this.sync.stop();
		const seconds = shutdownDeadlineSeconds(this.config.shutdownDeadlineSeconds, this.seams.isStudio);
		const deadline = os.clock() + seconds;
		// The end of the server keeps its share of the deadline: hanging joins or leaves must not cost it.
		const reportsUntil = this.sessions.endsServer() ? deadline - seconds * END_SERVER_SHARE : deadline;
		this.gathering.stopWaiting();
		// Roblox may remove the players only after the callbacks have returned
		// (docs/roblox.md#the-order-of-playerremoving-and-bindtoclose-is-not-documented), when nothing is sent
		// any more: with leaves on, every player present leaves now, one request each, inside the reports' share.
		// Not when the server's end ends their sessions anyway, except on the deployed service, whose endServer
		// deletes the sessions of non-staff players still in game (their visits with them).
		const endEndsSessions = this.sessions.endsServer() && this.profile !== "deployed";
		if (this.sessions.reportsLeaves() && !endEndsSessions) this.gathering.leaveEveryone();
		while (
			os.clock() < reportsUntil &&
			(this.joins.pending() > 0 || this.sessions.pending() > 0 || this.sync.isFinishing())
		) {
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
		// The service's endServer leaves calls open for ever: end them first, inside the server end's share.
		if (this.desk !== undefined && this.desk.hasCallsToEnd() && this.registration.current !== undefined) {
			const ending = this.desk.endAllCalls();
			const callsUntil = this.sessions.endsServer() ? deadline - (seconds * END_SERVER_SHARE) / 2 : deadline;
			while (os.clock() < callsUntil && ending.getStatus() === "Started") task.wait(0.05);
			if (ending.getStatus() === "Started") logWarn("shutting down before every open support call was ended");
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

	/** Consent prompts and staff activity: both act on answered joins and listen on their own remote. */
	private startPrivacy(remotes: Remotes): void {
		const guard = (label: string, fn: () => void) => this.guard(label, fn);
		const consent = (this.consent = new ConsentPrompts({
			client: this.client,
			scheduler: this.scheduler,
			health: this.health,
			remote: remotes.Consent,
			builtInPrompt: this.config.consentPrompt,
			requested: this.signals.consentRequested,
			guard,
		}));
		// Session events ride the sync's queue; a spec may take them itself.
		const emit = this.seams.emitSessionEvent ?? ((event) => this.events.add(event));
		const registrationAnswer = this.seams.registrationAnswer ?? (() => this.registration.current?.answer);
		const activity = (this.activity =
			emit === undefined
				? undefined
				: new StaffActivity({
						scheduler: this.scheduler,
						remote: remotes.Activity,
						emit,
						settings: () => activitySettingsOf(registrationAnswer?.()),
						everyone: this.config.activity.everyone === true,
						chatMessages: this.config.activity.chatMessages === true,
						chatted: this.seams.chatted ?? defaultChatted,
						now: () => os.time(),
						guard,
					}));
		const reported = this.signals.playerReported.Connect((player, result) =>
			guard("privacy", () => {
				const record = this.gathering.recordOf(player);
				if (this.stopped || record === undefined || record.answer !== result) return;
				const tracked = isTrackedResult(result);
				consent.answered(player, tracked && result.needsConsent === true, record.answeredUnder);
				// Activity is asked of clients only where the sync carries it (the deployed profile, sync on).
				activity?.answered(player, tracked && this.syncRuns(), result.isStaff, result.sessionId);
			}),
		);
		this.connections.push(
			remotes.Consent.OnServerEvent.Connect((player, ...args) =>
				guard("consent answer", () => !this.stopped && consent.handle(player, args)),
			),
			remotes.Activity.OnServerEvent.Connect((player, ...args) =>
				guard("activity report", () => !this.stopped && activity?.handle(player, args)),
			),
		);
		this.reported = reported;
	}

	/** Whether the sync carries session events now: the deployed profile with the sync on. */
	private syncRuns(): boolean {
		return this.profile === "deployed" && this.config.sync !== false;
	}

	/** Reads the status again from the health log and the registration; fires `statusChanged` when it changed. */
	private updateStatus(): void {
		const now = statusOf({
			stopped: this.stopped,
			registered: this.registration.current !== undefined,
			gaveUp: this.registration.hasGivenUp(),
			failures: this.health.serviceFailures(),
		});
		const changed = !sameStatus(now, this.status);
		// The area is kept current without firing: game code hears of a change of state or reason only.
		this.status = now;
		if (changed) this.signals.statusChanged.Fire(now);
	}

	private onRegistered(): void {
		this.updateStatus();
		if (this.stopped) return;
		const wasDecided = this.profile !== undefined;
		this.profile = decideProfile(this.config.serviceProfile, this.registration.current?.answer);
		if (this.profile === "deployed") this.sessions.deployedDefaults();
		if (!wasDecided && this.profile === "deployed") {
			logInfo(
				"the deployed service's profile: one sync in place of the heartbeat; leaves and the server's end on",
			);
		}
		if (!this.shuttingDown) {
			// With the deployed profile the sync keeps the server present; the heartbeat would be a second request.
			if (this.profile === "deployed" && this.config.sync !== false) this.sync.schedule();
			else this.presence.schedule();
		}
		if (this.desk !== undefined) {
			const syncRuns = this.syncRuns();
			// Calling staff needs the deployed service's routes, a workspace that takes calls, and the sync to carry them.
			this.desk.setFedBySync(syncRuns);
			this.desk.setAvailable(
				syncRuns && this.config.callStaff && takesCalls(this.getRegistrationFacts().moderation),
			);
		}
		this.joins.flush();
	}

	/** The service no longer knows this server: register again, then report everyone present again. */
	private serverForgotten(source: string): void {
		if (this.registration.current === undefined || this.stopped) return;
		this.presence.stop();
		this.sync.pause();
		// Their sessions ended with the old server.
		this.events.clear();
		this.joins.cancelInFlight();
		let again = 0;
		for (const [userId, record] of this.records) {
			const phase = record.phase;
			const unrecorded = phase === "ready" || phase === "sending" || phase === "checking";
			// Gone, and the old server's sessions ended with it: nothing to report for them. At shutdown a join that
			// never reached the old server is still reported, as every queued join is then (joinQueue `failed`).
			if (record.left && !(this.shuttingDown && unrecorded)) {
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
		this.updateStatus();
	}

	/** Runs `fn`; an error is logged, never thrown into game code. */
	private guard(label: string, fn: () => void): void {
		const [ok, problem] = pcall(fn);
		if (!ok) logWarn(`internal error in ${label}: ${tostring(problem)}`);
	}
}
