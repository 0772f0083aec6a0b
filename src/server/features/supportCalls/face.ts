// What support calls show game code: the call bridge, and opening or requesting a call for a player.
import { logWarn } from "../../../background/log";
import type { CallBridge } from "../../../bridge/callBridge";
import type { SupportDesk } from "../../../bridge/supportDesk";
import type { CallChat, OpenChatOptions } from "../../../bridge/types";
import type { CallRequest } from "../../../shared/supportProtocol";
import type { FeatureFace } from "../../face";

/** The support calls' functions in `StaffOps`. */
export interface SupportCallsFunctions {
	/**
	 * The support-call bridge of the running integration, or undefined when StaffOps is not running.
	 *
	 * @example
	 * ```ts
	 * StaffOps.getCalls()?.message.Connect((chat, message) => print(chat.player.Name, message.text));
	 * ```
	 * @see README#support-calls
	 */
	readonly getCalls: () => CallBridge | undefined;

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
	readonly openCall: (player: Player, callId: string, options?: OpenChatOptions) => CallChat | undefined;

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
	readonly requestCall: (player: Player, request: CallRequest) => Promise<CallChat>;
}

/** What the support calls' functions need of the running feature. @internal */
export interface SupportCallsReach {
	readonly calls?: CallBridge;
	readonly desk?: SupportDesk;
	openCall(player: Player, callId: string, options?: OpenChatOptions): CallChat | undefined;
}

/** The support calls' part of `StaffOps`: functions only. (In the package's declarations for the entry's type; not an API.) */
export const SUPPORT_CALLS_FACE: FeatureFace<{}, SupportCallsFunctions, SupportCallsReach> = {
	signals: {},
	functions: (running) => ({
		getCalls: () => running()?.calls,
		openCall: (player, callId, options) => {
			const feature = running();
			if (feature !== undefined) return feature.openCall(player, callId, options);
			logWarn("openCall: StaffOps is not running");
			return undefined;
		},
		requestCall: (player, request) => {
			const desk = running()?.desk;
			if (desk === undefined)
				return Promise.reject("Calling staff is not available right now.") as Promise<CallChat>;
			return desk.request(player, request);
		},
	}),
};
