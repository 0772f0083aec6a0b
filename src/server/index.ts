import type { StaffOpsApiClient } from "../api/apiClient";
import type { CallBridge } from "../bridge/callBridge";
import type { CallChat, OpenChatOptions } from "../bridge/types";
import { Signal } from "../shared/signal";
import type { StaffOpsConfig } from "./config";
import { DEFAULT_LOG_LEVEL, logWarn, setLogLevel } from "../background/log";
import type { ServerSeams } from "./seams";
import { startServer } from "./starting";
import type { JoinResult, PlayerSession } from "./records";
import { StaffOpsServer } from "./server";
import type { DecidedProfile } from "./profile";
import type { StaffOpsStatus } from "./status";
import { warnNoPrompt } from "./features/consent/consent";
import type { CallRequest } from "../shared/supportProtocol";
// Each feature adds its settings (and signals) to the core's types from its own folder (`declare module`): the
// package's declarations reach every feature from here, so `StaffOpsConfig` has all of them.
import "./features";

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
export namespace StaffOps {
	/**
	 * Fires once per player when the service says they are staff (after their attribute `StaffOpsIsStaff` is set).
	 *
	 * @example
	 * ```ts
	 * StaffOps.staffJoined.Connect((player) => giveStaffTools(player));
	 * ```
	 * @see README#game-integration
	 */
	export const staffJoined = new Signal<[player: Player]>();

	/**
	 * Fires each time the service answers a player's join (again after the service forgot the server and the join
	 * was reported anew), banned players included.
	 *
	 * @example
	 * ```ts
	 * StaffOps.playerReported.Connect((player, result) => print(player.Name, result.sessionId));
	 * ```
	 * @see README#game-integration
	 */
	export const playerReported = new Signal<[player: Player, result: JoinResult]>();

	/**
	 * Fires once per player the service reports as banned, just before they are kicked (unless `kickBanned` is false).
	 *
	 * @example
	 * ```ts
	 * StaffOps.playerBanned.Connect((player, reason) => print(`${player.Name} banned: ${reason}`));
	 * ```
	 * @see README#game-integration
	 */
	export const playerBanned = new Signal<[player: Player, reason: string]>();

	/**
	 * Fires when a dashboard (or Discord) kick reaches a player on this server, just before they are kicked, with the
	 * message they see (filtered for them). Deployed profile.
	 *
	 * @example
	 * ```ts
	 * StaffOps.dashboardKick.Connect((player, message) => print(`${player.Name} kicked: ${message}`));
	 * ```
	 * @see README#deployed-service-extensions
	 */
	export const dashboardKick = new Signal<[player: Player, message: string]>();

	/**
	 * Fires when the dashboard sends a player a notification, with its text filtered for them. StaffOps also shows it
	 * in a small built-in UI unless `builtInNotifications` is false. Deployed profile.
	 *
	 * @example
	 * ```ts
	 * StaffOps.notified.Connect((player, text) => showBanner(player, text));
	 * ```
	 * @see README#deployed-service-extensions
	 */
	export const notified = new Signal<[player: Player, text: string]>();

	/**
	 * Fires once when the dashboard shuts this server down, before everyone is kicked with `message` (every later
	 * joiner is kicked too). Deployed profile.
	 *
	 * @example
	 * ```ts
	 * StaffOps.shutdownRequested.Connect((message) => saveEverything());
	 * ```
	 * @see README#deployed-service-extensions
	 */
	export const shutdownRequested = new Signal<[message: string]>();

	/**
	 * Fires once per visit when the service asks for a player's consent (the join answer's `needsConsent`, deployed
	 * service in its consent mode). The built-in prompt shows unless `consentPrompt` is false; a game that draws its
	 * own prompt answers with {@link StaffOps.answerConsent}. Nothing waits for the answer: the player plays on.
	 *
	 * @example
	 * ```ts
	 * StaffOps.consentRequested.Connect((player) => myConsentDialog.open(player));
	 * ```
	 * @see README#consent
	 */
	export const consentRequested = new Signal<[player: Player]>();

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
	export const statusChanged = new Signal<[status: StaffOpsStatus]>();

	let current: StaffOpsServer | undefined;

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
	export function start(config: StaffOpsConfig, seams?: ServerSeams): StaffOpsServer | undefined {
		if (current !== undefined && !current.isStopped()) {
			logWarn("StaffOps.start was called again; the running integration is kept (call StaffOps.stop() first)");
			return current;
		}
		const signals = {
			...{ staffJoined, playerReported, playerBanned, dashboardKick, notified },
			...{ shutdownRequested, consentRequested, statusChanged },
		};
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
	}

	/**
	 * Stops the integration at once (no more requests; queued joins are dropped). `start` may be called again after.
	 *
	 * @example
	 * ```ts
	 * StaffOps.stop();
	 * ```
	 * @see README#game-integration
	 */
	export function stop(): void {
		const server = current;
		current = undefined;
		server?.stop();
		// The level was this integration's: what prints after it (a later start, a standalone bridge) starts over.
		setLogLevel(DEFAULT_LOG_LEVEL);
	}

	/**
	 * Whether the service marked `player` as staff. False until their join is answered, for banned players, and
	 * when StaffOps is not running.
	 *
	 * @example
	 * ```ts
	 * if (StaffOps.isStaff(player)) openStaffPanel(player);
	 * ```
	 * @see README#game-integration
	 */
	export function isStaff(player: Player): boolean {
		return current !== undefined && current.isStaff(player);
	}

	/**
	 * Whether the service tracks `player`. False until their join is answered, for banned players, for players the
	 * service tracks nothing for (`tracked: false`: its staff-only mode, data removal, consent denied; such a player
	 * is not banned and plays on), and when StaffOps is not running. Nothing is sent for an untracked player: no
	 * leave, no activity, no support call.
	 *
	 * @example
	 * ```ts
	 * if (StaffOps.isTracked(player)) showSupportButton(player);
	 * ```
	 * @see README#tracking-modes
	 */
	export function isTracked(player: Player): boolean {
		return current !== undefined && current.isTracked(player);
	}

	/**
	 * Records `player`'s answer to the consent question ({@link StaffOps.consentRequested}), from game code's own
	 * prompt; the built-in prompt closes. Sent to the service once. Returns false (with a warning) when no question is
	 * open for that player: never asked, already answered, left, or StaffOps not running.
	 *
	 * @example
	 * ```ts
	 * myConsentDialog.answered.Connect((player, granted) => StaffOps.answerConsent(player, granted));
	 * ```
	 * @see README#consent
	 */
	export function answerConsent(player: Player, granted: boolean): boolean {
		const accepted = current !== undefined && current.answerConsent(player, granted);
		if (!accepted) warnNoPrompt(player);
		return accepted;
	}

	/**
	 * The player's session with the service (`sessionId`, `runningPlayerId`, `isStaff`), or undefined until their
	 * join is answered.
	 *
	 * @example
	 * ```ts
	 * const session = StaffOps.getSession(player);
	 * ```
	 * @see README#game-integration
	 */
	export function getSession(player: Player): PlayerSession | undefined {
		return current?.getSession(player);
	}

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
	export function getClient(): StaffOpsApiClient | undefined {
		return current?.getClient();
	}

	/**
	 * The support-call bridge of the running integration, or undefined when StaffOps is not running.
	 *
	 * @example
	 * ```ts
	 * StaffOps.getCalls()?.message.Connect((chat, message) => print(chat.player.Name, message.text));
	 * ```
	 * @see README#support-calls
	 */
	export function getCalls(): CallBridge | undefined {
		return current?.getCalls();
	}

	/**
	 * Opens the chat of support call `callId` for `player`: the service's messages are polled, filtered for the
	 * player and shown in their chat window until the call ends, the player leaves or game code closes it.
	 * Undefined (with a warning) when StaffOps is not running.
	 *
	 * @example
	 * ```ts
	 * const chat = StaffOps.openCall(player, callId, { title: "Cafe support" });
	 * ```
	 * @see README#support-calls
	 */
	export function openCall(player: Player, callId: string, options?: OpenChatOptions): CallChat | undefined {
		if (current !== undefined) return current.features.supportCalls.openCall(player, callId, options);
		logWarn("openCall: StaffOps is not running");
		return undefined;
	}

	/**
	 * Starts a support call or a report for `player` from game code (your own "Call staff" UI): the same checks as the
	 * player's own request in the built-in UI (one call at a time, one new call per 30 s, preset reasons only when the
	 * player's chat settings forbid chat). Deployed profile, with a workspace that takes calls. Resolves with the chat
	 * (shown in the player's chat window); rejects with words meant for the player.
	 *
	 * @example
	 * ```ts
	 * StaffOps.requestCall(player, { type: "report", reason: "Cheating", reporting: suspect.UserId }).catch((words) =>
	 * 	print(words),
	 * );
	 * ```
	 * @see README#support-calls
	 */
	export function requestCall(player: Player, request: CallRequest): Promise<CallChat> {
		const desk = current?.getSupportDesk();
		if (desk === undefined) return Promise.reject("Calling staff is not available right now.") as Promise<CallChat>;
		return desk.request(player, request);
	}

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
	export function getProfile(): DecidedProfile | undefined {
		return current?.getProfile();
	}

	/**
	 * Where the integration stands now (`stopped` when it is not running); {@link StaffOps.statusChanged} tells of
	 * each change.
	 *
	 * @example
	 * ```ts
	 * if (StaffOps.getStatus().state === "keyRefused") showStaffBanner("The staff service refuses our API key");
	 * ```
	 */
	export function getStatus(): StaffOpsStatus {
		return current?.getStatus() ?? { state: "stopped" };
	}

	/**
	 * The running integration, or undefined.
	 *
	 * @example
	 * ```ts
	 * print(StaffOps.getServer()?.isRegistered());
	 * ```
	 * @see README#game-integration
	 */
	export function getServer(): StaffOpsServer | undefined {
		return current;
	}
}

export { STAFF_ATTRIBUTE } from "./records";
export { StaffOpsServer } from "./server";
