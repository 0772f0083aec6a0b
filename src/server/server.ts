import type { StaffOpsApiClient } from "../api/apiClient";
import type { CallBridge } from "../bridge/callBridge";
import type { SupportDesk } from "../bridge/supportDesk";
import { logInfo } from "../background/log";
import { ensureRemotes } from "../shared/remotes";
import type { ClosingPart } from "./closeWatch";
import { closeInOrder } from "./closing";
import type { StaffOpsSettings } from "./config";
import { ServerContext } from "./context";
import type { Feature } from "./feature";
import {
	buildFaces,
	buildFeatures,
	FaceFunctions,
	clientParts,
	remoteNames,
	reversed,
	ServerDiagnostics,
	ServerFeatures,
	startOrder,
} from "./features";
import { DecidedProfile, RegistrationFacts, registrationFacts } from "./profile";
import type { PlayerSession, ServerSignals } from "./records";
import { defaultBindToClose, defaultIsStudio, ServerSeams } from "./seams";
import type { StaffOpsStatus } from "./status";

/**
 * One running game integration: its features (`features/*.ts`, one module each, listed in start order in
 * `features/index.ts`) and the server's moments they hear of, in order: begin, joins and leaves, each registration,
 * the service forgetting the server, the close, the stop. Made by {@link StaffOps.start}; game code uses the
 * `StaffOps` functions.
 *
 * @example
 * ```ts
 * const server = StaffOps.start(config);
 * if (server) print(server.isRegistered());
 * ```
 * @see README#game-integration
 */
export class StaffOpsServer {
	/** The features, by name (specs drive a few through them). @internal */
	readonly features: ServerFeatures;
	private readonly order: ReadonlyArray<Feature>;
	private readonly reverseOrder: ReadonlyArray<Feature>;
	private readonly ctx: ServerContext;
	/** The features' public functions, reaching this server's features (`StaffOps` reaches the running one's). */
	private readonly face: FaceFunctions;

	/** @internal */
	constructor(config: StaffOpsSettings, signals: ServerSignals, seams: ServerSeams = {}) {
		const ctx = (this.ctx = new ServerContext(config, signals, seams, clientParts(), {
			registered: () => this.onRegistered(),
			forgotten: (source) => this.serverForgotten(source),
		}));
		this.features = buildFeatures(ctx);
		this.order = startOrder(this.features);
		this.reverseOrder = reversed(this.order);
		const features = this.features;
		this.face = buildFaces(() => features).functions;
	}

	/** Starts everything, features in their order; called once by `StaffOps.start`. Never throws. @internal */
	begin(): void {
		const ctx = this.ctx;
		ctx.guard("remotes", () => {
			ctx.remotes = ensureRemotes(remoteNames(), ctx.seams.remotesParent);
			for (const feature of this.order) feature.start?.();
		});
		ctx.guard("player tracking", () => {
			const joined = (player: Player) => this.order.forEach((feature) => feature.joined?.(player));
			ctx.onPlayers(joined, (player) => this.reverseOrder.forEach((feature) => feature.left?.(player)));
		});
		ctx.guard("BindToClose", () =>
			(ctx.seams.bindToClose ?? defaultBindToClose)(() => ctx.guard("shutdown", () => this.shutdown())),
		);
		for (const feature of this.order) ctx.guard(`${feature.declaration.name} begun`, () => feature.begun?.());
		ctx.guard("registration", () => this.registerAfterJitter());
	}

	/**
	 * The first registration, after a random wait of up to `startJitterSeconds` outside Studio: a game update restarts
	 * every server at once, and the wait spreads their registrations (docs/many-servers.md#figures-for-a-whole-game).
	 */
	private registerAfterJitter(): void {
		const ctx = this.ctx;
		const jitter = ctx.config.startJitterSeconds ?? 0;
		if (jitter <= 0 || (ctx.seams.isStudio ?? defaultIsStudio)()) return ctx.registration.start();
		ctx.scheduler.delay(ctx.random() * jitter, () =>
			ctx.guard("registration", () => {
				if (!ctx.stopped) ctx.registration.start();
			}),
		);
	}

	/** Each feature's diagnostics record (counts and sizes), by feature name. @internal */
	diagnostics(): ServerDiagnostics {
		const records: Record<string, object> = {};
		for (const feature of this.order) records[feature.declaration.name] = feature.diagnostics();
		return records as unknown as ServerDiagnostics;
	}

	/** Whether the service marked `player` as staff (false until their join is answered, and for banned players). */
	isStaff(player: Player): boolean {
		return this.face.isStaff(player);
	}

	/** Whether the service tracks `player`: answered, not banned, and not `tracked: false`. Nothing is sent otherwise. */
	isTracked(player: Player): boolean {
		return this.face.isTracked(player);
	}

	/**
	 * Records `player`'s consent decision (game code's own prompt); false, with a warning, when no consent question is
	 * open for them.
	 */
	answerConsent(player: Player, granted: boolean): boolean {
		return this.face.answerConsent(player, granted);
	}

	/** The player's session with the service, or undefined until their join is answered (and for banned players). */
	getSession(player: Player): PlayerSession | undefined {
		return this.face.getSession(player);
	}

	/** The typed client this integration talks through (same budget), for game code such as a cashier system. */
	getClient(): StaffOpsApiClient {
		return this.ctx.client;
	}

	/** The support-call bridge of this integration (same client and budget); undefined only without remotes. */
	getCalls(): CallBridge | undefined {
		return this.face.getCalls();
	}

	/** The support desk: players calling staff and writing back (deployed profile); undefined only without remotes. */
	getSupportDesk(): SupportDesk | undefined {
		return this.features.supportCalls.desk;
	}

	/** The service's profile: decided at registration (undefined before the first one under `auto`). */
	getProfile(): DecidedProfile | undefined {
		return this.ctx.profile;
	}

	/** What the registration answer said about the workspace (the deployed service's extra fields). */
	getRegistrationFacts(): RegistrationFacts {
		return registrationFacts(this.ctx.registration.current?.answer);
	}

	/** Where the integration stands; see {@link StaffOpsStatus}. `StaffOps.statusChanged` fires when it changes. */
	getStatus(): StaffOpsStatus {
		return this.ctx.status;
	}

	/** Whether the service knows this server now. */
	isRegistered(): boolean {
		return this.ctx.registration.current !== undefined;
	}

	/** The internal game id of the current registration (the `{internalGameId}` of `client.games.getRunning`). */
	getInternalGameId(): string | undefined {
		return this.ctx.registration.current?.internalGameId;
	}

	/** The `runningGameId` of the current registration. */
	getRunningGameId(): string | undefined {
		return this.ctx.registration.current?.runningGameId;
	}

	/** Whether the integration stopped (`stop()`, or shutdown finished). */
	isStopped(): boolean {
		return this.ctx.stopped;
	}

	/** Stops at once: disconnects, cancels pending requests, stops heartbeats; sends nothing more. */
	stop(): void {
		const ctx = this.ctx;
		if (ctx.stopped) return;
		ctx.stopped = true;
		ctx.health.stop();
		ctx.registration.stop();
		for (const feature of this.reverseOrder) feature.stop?.();
		ctx.disconnectAll();
		ctx.records.clear();
		ctx.updateStatus();
	}

	/** Shutdown (`BindToClose`): the close in its order (`closing.ts`), then stops. Yields. @internal */
	shutdown(): void {
		if (this.ctx.stopped || this.ctx.shuttingDown) return;
		this.ctx.shuttingDown = true;
		const parts = new Array<ClosingPart>();
		for (const feature of this.order) if (feature.atClose !== undefined) parts.push(feature.atClose);
		this.ctx.closed = closeInOrder(this.ctx, parts);
		this.stop();
	}

	private onRegistered(): void {
		const ctx = this.ctx;
		ctx.updateStatus();
		if (ctx.stopped) return;
		ctx.decideProfile();
		// Every feature sets up what the profile turns on (leaves, presence, calls, commands) before the joins waiting go.
		for (const feature of this.order) feature.registered?.();
		for (const feature of this.order) feature.registeredLast?.();
	}

	/** The service no longer knows this server: register again, then report everyone present again. */
	private serverForgotten(source: string): void {
		const ctx = this.ctx;
		if (ctx.registration.current === undefined || ctx.stopped) return;
		const again = new Array<string>();
		for (const feature of this.order) {
			const phrase = feature.forgotten?.();
			if (phrase !== undefined) again.push(phrase);
		}
		logInfo(
			`the service no longer knows this server (404 on ${source}); ${["registering again", ...again].join(" and ")}`,
		);
		ctx.registration.forget();
		ctx.updateStatus();
	}
}
