// The presence feature: the heartbeat, or with the deployed profile the one sync that carries everything else.
import { t } from "@rbxts/t";
import type { KeepAliveRoute } from "./presence";
import { Presence } from "./presence";
import { SessionEvents } from "./sessionEvents";
import { Sync, SYNC_IDLE_SECONDS } from "./sync";
import type { ClosingPart } from "../../closeWatch";
import type { ServerContext } from "../../context";
import type { DashboardActionsFeature } from "../dashboardActions";
import type { Feature, FeatureDeclaration } from "../../feature";
import type { JoinsFeature } from "../joins";
import type { SessionsFeature } from "../sessions";

/**
 * Presence's settings in `StaffOpsConfig`.
 */
export interface PresenceConfig {
	/** Seconds between presence heartbeats. Default 60; from 5 to 600. */
	readonly heartbeatSeconds?: number;
	/**
	 * A route to send as the heartbeat instead of reading the running game, for a service whose reads do not keep a
	 * server present (the deployed service: `{ method: "POST", path: "/activity/getServer" }`). Default: none.
	 */
	readonly keepAlive?: KeepAliveRoute;
	/**
	 * With the deployed profile, the one sync (`POST /activity/sendData`) replaces the heartbeat and brings dashboard
	 * kicks, notifications and shutdowns into the game (attribute `Sync`). Default on with that profile; false turns it off.
	 */
	readonly sync?: boolean;
	/**
	 * Seconds between syncs while no support call is open (attribute `SyncSeconds`): a dashboard kick, notification
	 * or shutdown waits for the next sync. Default 19 (`SYNC_IDLE_SECONDS`); from 5 to 60. Lower it for quicker
	 * dashboard actions at the cost of more requests (docs/many-servers.md#figures-for-a-whole-game).
	 */
	readonly syncSeconds?: number;
}

// Its settings join `StaffOpsConfig` (and their resolved types `StaffOpsSettings`): the core names no feature.
declare module "../../config" {
	interface StaffOpsBaseConfig extends PresenceConfig {}
	interface ResolvedSettings {
		readonly heartbeatSeconds: number;
		readonly keepAlive?: KeepAliveRoute;
		/** As the developer set it (undefined: the profile's default). */
		readonly sync?: boolean;
	}
}

/**
 * Presence: the heartbeat keeps the server known to the service; with the deployed profile one sync replaces it and
 * carries the session events, the dashboard's actions and the support calls' messages.
 * In the package's declarations for the config type; not an API.
 */
export const PRESENCE: FeatureDeclaration<PresenceConfig, "presence"> = {
	name: "presence",
	settings: [
		{ field: "heartbeatSeconds", attribute: "HeartbeatSeconds", default: 60, min: 5, max: 600 },
		{
			field: "keepAlive",
			attribute: "KeepAliveRoute",
			modelDefault: "",
			luau: "KeepAliveRoute?",
			check: [
				(value) =>
					t.strictInterface({
						method: t.literal("GET", "POST", "PUT", "PATCH"),
						path: (path: unknown): path is string =>
							typeIs(path, "string") &&
							path.sub(1, 1) === "/" &&
							path.size() <= 512 &&
							path.find("[%s%c#]")[0] === undefined,
					})(value),
				'{ method: "POST" (or GET, PUT, PATCH), path: "/..." }',
			],
		},
		{ field: "sync", attribute: "Sync", modelDefault: true, profile: "deployed" },
		{ field: "syncSeconds", attribute: "SyncSeconds", default: SYNC_IDLE_SECONDS, min: 5, max: 60 },
	],
	remotes: [],
	clientParts: [],
};

/** What specs and monitoring read of presence and the sync. @internal */
export interface PresenceDiagnostics {
	/** Heartbeat failures handled so far. */
	readonly heartbeatFailures: number;
	/** Syncs sent and failed. */
	readonly sync: { readonly sent: number; readonly failures: number };
}

/** The presence feature: heartbeat or sync, whichever the profile runs. @internal */
export class PresenceFeature implements Feature {
	readonly declaration = PRESENCE;
	readonly presence: Presence;
	readonly sync: Sync;
	/** The session events the sync carries (deployed profile). */
	readonly events = new SessionEvents();

	constructor(
		private readonly ctx: ServerContext,
		joins: JoinsFeature,
		sessions: SessionsFeature,
		actions: DashboardActionsFeature,
	) {
		const { client, scheduler, health, config, guard } = ctx;
		// After each beat: joins that failed go again, and the leaves waiting.
		const beaten = () => {
			if (joins.queue.isFailing()) joins.queue.flush();
			sessions.ender.flush();
		};
		this.presence = new Presence({
			client,
			scheduler,
			health,
			heartbeatSeconds: config.heartbeatSeconds,
			keepAlive: config.keepAlive,
			records: ctx.records,
			registration: ctx.registered,
			answerSeq: () => joins.queue.answerSeq,
			forgotten: ctx.forgotten,
			resend: () => joins.queue.flush(),
			beaten,
			guard,
		});
		this.sync = new Sync({
			client,
			scheduler,
			random: ctx.random,
			health,
			events: this.events,
			registration: ctx.registered,
			forgotten: ctx.forgotten,
			actions: (queued, dropped) => actions.actions.handle(queued, dropped),
			beaten,
			guard,
			fastSeconds: config.callSyncSeconds,
			idleSeconds: config.syncSeconds,
		});
	}

	registered(): void {
		if (this.ctx.shuttingDown) return;
		// With the deployed profile the sync keeps the server present; the heartbeat would be a second request.
		if (this.ctx.syncRuns()) this.sync.schedule();
		else this.presence.schedule();
	}

	forgotten(): void {
		this.presence.stop();
		this.sync.pause();
		// Their sessions ended with the old server.
		this.events.clear();
	}

	/** At the close: no more beats; one last sync, which the close waits for with the joins. */
	readonly atClose: ClosingPart = { begin: () => this.closing(), hasQueued: () => this.sync.isFinishing() };

	/** At the close: no more beats; one last sync where the sync runs (what waits for it goes at no other time). */
	private closing(): void {
		this.presence.stop();
		if (this.ctx.syncRuns()) this.sync.finish();
		else this.sync.stop();
	}

	stop(): void {
		this.presence.stop();
		this.sync.stop();
	}

	diagnostics(): PresenceDiagnostics {
		return { heartbeatFailures: this.presence.failuresHandled, sync: { ...this.sync.counts } };
	}
}
