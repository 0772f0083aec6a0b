import type { StaffOpsApiClient } from "../api/apiClient";
import { Signal } from "../shared/signal";
import type { StaffOpsConfig } from "./config";
import { DEFAULT_LOG_LEVEL, logWarn, setLogLevel } from "../background/log";
import type { ServerSeams } from "./seams";
import { startServer } from "./starting";
import type { ServerSignals } from "./records";
import type { StaffOpsServer } from "./server";
import type { DecidedProfile } from "./profile";
import type { StaffOpsStatus } from "./status";
// Each feature adds its settings and signals to the core's types from its own folder (`declare module`), and its
// signals and functions to `StaffOps` (its `face`): the package's declarations reach every feature from here.
import { buildFaces, FaceSignals, FeatureFaces } from "./features";
import type { CheckedTrue, Same } from "../shared/typeChecks";

/**
 * The integration's own part of {@link StaffOps}: starting and stopping it, its status, and what it runs on. Each
 * feature adds its part from its folder (`face.ts`).
 */
export interface StaffOpsCore {
	/**
	 * Fires when the integration's status changes state or reason: `starting` when {@link StaffOps.start} accepted the
	 * configuration, then `running`, `degraded` (with a reason), `keyRefused`, and `stopped`. See
	 * {@link StaffOpsStatus}.
	 *
	 * @example
	 * ```ts
	 * StaffOps.statusChanged.Connect((status) => {
	 * 	if (status.state === "degraded") warn(`StaffOps degraded: ${status.reason}`);
	 * });
	 * ```
	 */
	readonly statusChanged: Signal<[status: StaffOpsStatus]>;

	/**
	 * Starts the game integration. Returns the running server, or undefined without a usable address or key (one
	 * `[StaffOps]` warning names the setting; the game keeps running) or when Studio is excluded by `trackStudio = false`.
	 * A bad optional setting falls back to its default with one warning each (README#quick-start-luau-drop-in-model).
	 * A second call while running warns and returns the running server: call {@link StaffOps.stop} first to restart.
	 *
	 * @param config see {@link StaffOpsConfig}
	 * @param seams Roblox seams for tests; omit in games
	 * @example
	 * ```ts
	 * StaffOps.start({ baseUrl: "https://staff.example.com", apiKeySecret: "staffops_api_key", heartbeatSeconds: 60 });
	 * ```
	 * @see README#game-integration
	 */
	readonly start: (config: StaffOpsConfig, seams?: ServerSeams) => StaffOpsServer | undefined;

	/**
	 * Stops the integration at once (no more requests; queued joins are dropped). `start` may be called again after.
	 *
	 * @example
	 * ```ts
	 * StaffOps.stop();
	 * ```
	 * @see README#game-integration
	 */
	readonly stop: () => void;

	/**
	 * The typed client the integration uses (same key, same budget), for game code such as a cashier system;
	 * undefined when StaffOps is not running.
	 *
	 * @example
	 * ```ts
	 * StaffOps.getClient()?.orders.create(order).catch((err) => warn(tostring(err)));
	 * ```
	 * @see README#typed-client
	 */
	readonly getClient: () => StaffOpsApiClient | undefined;

	/**
	 * The service's profile (`deployed` or `interface`), decided at registration; undefined before it, or when
	 * StaffOps is not running.
	 *
	 * @example
	 * ```ts
	 * if (StaffOps.getProfile() === "deployed") print("dashboard actions reach this server");
	 * ```
	 * @see README#deployed-service-extensions
	 */
	readonly getProfile: () => DecidedProfile | undefined;

	/**
	 * Where the integration stands now (`stopped` when it is not running); {@link StaffOps.statusChanged} tells of
	 * each change.
	 *
	 * @example
	 * ```ts
	 * if (StaffOps.getStatus().state === "keyRefused") showStaffBanner("The staff service refuses our API key");
	 * ```
	 */
	readonly getStatus: () => StaffOpsStatus;

	/**
	 * The running integration, or undefined.
	 *
	 * @example
	 * ```ts
	 * print(StaffOps.getServer()?.isRegistered());
	 * ```
	 * @see README#game-integration
	 */
	readonly getServer: () => StaffOpsServer | undefined;
}

/** Everything `StaffOps` holds: the integration's own part and every feature's. */
export type StaffOpsEntry = StaffOpsCore & FeatureFaces;

/** The server's signals are exactly the status and every face's: does not compile otherwise. @internal */
export type SignalsListed = CheckedTrue<Same<ServerSignals, Pick<StaffOpsCore, "statusChanged"> & FaceSignals>>;

let current: StaffOpsServer | undefined;
const statusChanged = new Signal<[status: StaffOpsStatus]>();
const faces = buildFaces(() => current?.features);

const core: StaffOpsCore = {
	statusChanged,
	start: (config, seams) => {
		if (current !== undefined && !current.isStopped()) {
			logWarn("StaffOps.start was called again; the running integration is kept (call StaffOps.stop() first)");
			return current;
		}
		const signals: ServerSignals = { statusChanged, ...faces.signals };
		const [ok, result] = pcall(() =>
			startServer(config, signals, seams, (server) => {
				current = server;
				statusChanged.Fire(server.getStatus());
			}),
		);
		if (!ok) {
			logWarn(`could not start: ${tostring(result)}`);
			return undefined;
		}
		return result;
	},
	stop: () => {
		const server = current;
		current = undefined;
		server?.stop();
		// The level was this integration's: what prints after it (a later start, a standalone bridge) starts over.
		setLogLevel(DEFAULT_LOG_LEVEL);
	},
	getClient: () => current?.getClient(),
	getProfile: () => current?.getProfile(),
	getStatus: () => current?.getStatus() ?? { state: "stopped" },
	getServer: () => current,
};

/**
 * The game integration: one call to {@link StaffOps.start} on the server registers the server with the Staff
 * Operations Service, reports every player's join (with platform, timezone and safe chat), marks staff, kicks
 * banned players, keeps the server's presence alive and sends what is queued at shutdown. Nothing it does throws
 * into game code; problems are one `[StaffOps]` warning each.
 *
 * @example
 * ```ts
 * import { StaffOps } from "@rbxts/staffops";
 * StaffOps.start({ baseUrl: "https://staff.example.com", apiKeySecret: "staffops_api_key" });
 * StaffOps.staffJoined.Connect((player) => print(`${player.Name} is staff`));
 * ```
 * @see README#game-integration
 */
export const StaffOps: StaffOpsEntry = { ...core, ...faces.signals, ...faces.functions };

export { STAFF_ATTRIBUTE } from "./records";
export { StaffOpsServer } from "./server";
