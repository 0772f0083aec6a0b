// What every feature shares while a server runs: settings, seams, the api client, the registration, the status.
import { StaffOpsApiClient } from "../api/apiClient";
import { HealthLog, logInfo, logWarn } from "../background/log";
import type { Remotes } from "../shared/remotes";
import { robloxScheduler, Scheduler } from "../transport/scheduler";
import type { CloseOutcome } from "./closeWatch";
import type { ClientPartDeclaration } from "./feature";
import type { StaffOpsSettings } from "./config";
import { DecidedProfile, decideProfile } from "./profile";
import type { PlayerRecord, Registered, ServerSignals } from "./records";
import { Registration } from "./registration";
import { loggedDoor } from "./requestLog";
import type { PlayersLike } from "../roblox/players";
import { defaultPlayers, readGameInfo, ServerSeams } from "./seams";
import { sameStatus, StaffOpsStatus, statusOf } from "./status";

/** Runs a function; an error is logged, never thrown into game code. @internal */
export type Guard = (label: string, fn: () => void) => void;

/**
 * What a feature's background worker that sends requests (the join queue, the sync, the session ender) needs from
 * the integration: the context's api client, clock, draws, health log and guard, and the current registration.
 * @internal
 */
export interface WorkerSeams {
	readonly client: StaffOpsApiClient;
	readonly scheduler: Scheduler;
	readonly random: () => number;
	readonly health: HealthLog;
	readonly registration: () => Registered | undefined;
	/** Runs `fn`, logging an error instead of throwing. */
	readonly guard: Guard;
}

/** What the server does when the registration changes: `server.ts` orders the features' hooks. @internal */
export interface ContextHooks {
	readonly registered: () => void;
	readonly forgotten: (source: string) => void;
}

/**
 * What every feature shares: the resolved settings, the seams, the api client and its clock, the health log, the
 * players tracked, this server's registration and where the server stands (stopped, shutting down, the profile).
 * One per running server; features read it and never replace its parts.
 * @internal
 */
export class ServerContext {
	readonly scheduler: Scheduler;
	readonly random: () => number;
	readonly players: PlayersLike;
	readonly client: StaffOpsApiClient;
	readonly health: HealthLog;
	readonly records = new Map<number, PlayerRecord>();
	readonly registration: Registration;
	readonly guard: Guard = (label, fn) => {
		const [ok, problem] = pcall(fn);
		if (!ok) logWarn(`internal error in ${label}: ${tostring(problem)}`);
	};
	remotes?: Remotes;
	profile?: DecidedProfile;
	stopped = false;
	shuttingDown = false;
	/** What the close left undone and why, once the server closed (`closing.ts`). */
	closed?: CloseOutcome;
	status: StaffOpsStatus = { state: "starting" };
	private readonly connections = new Array<{ Disconnect(): void }>();

	constructor(
		readonly config: StaffOpsSettings,
		readonly signals: ServerSignals,
		readonly seams: ServerSeams,
		/** Every feature's client parts, in start order: what the client delivery hands the model's loader. */
		readonly clientParts: ReadonlyArray<ClientPartDeclaration>,
		hooks: ContextHooks,
	) {
		const scheduler = (this.scheduler = seams.scheduler ?? robloxScheduler);
		this.health = new HealthLog(scheduler);
		this.random = seams.random ?? (() => math.random());
		this.players = seams.players ?? defaultPlayers;
		this.client =
			seams.client ??
			new StaffOpsApiClient(
				{
					baseUrl: config.baseUrl,
					apiKey: config.apiKey,
					rankingKey: config.rankingKey,
					budget: config.budget,
					timeout: config.timeout,
					retry: config.retry,
				},
				// The verbose level reads each request's route and status at the door; the others use it as it is.
				config.logLevel === "verbose"
					? { ...seams.transport, http: loggedDoor(config.baseUrl, seams.transport?.http) }
					: seams.transport,
			);
		this.health.changed = () => this.updateStatus();
		this.registration = new Registration({
			client: this.client,
			scheduler,
			random: this.random,
			health: this.health,
			gameInfo: seams.gameInfo ?? readGameInfo,
			shuttingDown: () => this.shuttingDown,
			registered: () => hooks.registered(),
			guard: this.guard,
		});
		this.forgotten = (source) => this.guard("re-registration", () => hooks.forgotten(source));
	}

	/** The service no longer knows this server (a 404 on `source`): register again. */
	readonly forgotten: (source: string) => void;

	/** The current registration, or undefined. */
	readonly registered = (): Registered | undefined => this.registration.current;

	/** Decides the profile from the setting and the registration answer (after each registration). */
	decideProfile(): void {
		const wasDecided = this.profile !== undefined;
		this.profile = decideProfile(this.config.serviceProfile, this.registration.current?.answer);
		if (!wasDecided && this.profile === "deployed") {
			logInfo(
				"the deployed service's profile: one sync in place of the heartbeat; leaves and the server's end on",
			);
		}
	}

	/** Whether the sync carries session events now: the deployed profile with the sync on. */
	syncRuns(): boolean {
		return this.profile === "deployed" && this.config.sync !== false;
	}

	/** Keeps a connection to be cut when the server stops. */
	connect(...connections: Array<{ Disconnect(): void }>): void {
		for (const connection of connections) this.connections.push(connection);
	}

	/** Cuts every connection kept. */
	disconnectAll(): void {
		for (const connection of this.connections) connection.Disconnect();
		this.connections.clear();
	}

	/** Hears of players joining and leaving (PlayerAdded, PlayerRemoving), each inside the guard. */
	onPlayers(joined: (player: Player) => void, left: (player: Player) => void): void {
		this.connect(
			this.players.PlayerAdded.Connect((player) => this.guard("join", () => joined(player))),
			this.players.PlayerRemoving.Connect((player) => this.guard("leave", () => left(player))),
		);
	}

	/** Connects a remote's server side; events after the server stopped are ignored. */
	listen(remote: RemoteEvent, label: string, handle: (player: Player, args: Array<unknown>) => void): void {
		this.connect(
			remote.OnServerEvent.Connect((player, ...args) =>
				this.guard(label, () => !this.stopped && handle(player, args)),
			),
		);
	}

	/** Reads the status again from the health log and the registration; fires `statusChanged` when it changed. */
	updateStatus(): void {
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
}
