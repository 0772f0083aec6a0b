// The support calls feature: players call staff and write back; game code may open a call's chat itself.
import { SUPPORT_REQUESTS_REMOTE } from "../../../shared/supportProtocol";
import { CALL_EVENTS_REMOTE } from "../../../shared/chatProtocol";
import { CallBridge } from "../../../bridge/callBridge";
import { SupportDesk } from "../../../bridge/supportDesk";
import type { CallChat, OpenChatOptions } from "../../../bridge/types";
import { SUPPORT_CALLS_FACE } from "./face";
import { logInfo, logWarn, playerLabel } from "../../../background/log";
import { registrationFacts } from "../../profile";
import type { ClosingPart } from "../../closeWatch";
import type { ServerContext } from "../../context";
import type { Feature, FeatureDeclaration } from "../../feature";
import type { JoinsFeature } from "../joins";
import type { PresenceFeature } from "../presence";
import type { SessionsFeature } from "../sessions";

/**
 * The support calls' settings in `StaffOpsConfig`.
 */
export interface SupportCallsConfig {
	/**
	 * Let players and game code start support calls (attribute `CallStaff`), with the deployed profile. Default true;
	 * false hides the "Call staff" entry and refuses calls from players and game code.
	 */
	readonly callStaff?: boolean;
	/**
	 * Take calls only while the workspace's `moderation` setting is on (attribute `CallsNeedModeration`). Default
	 * false: as with the official module, game code and the client's `SupportClient` start calls whatever `moderation`
	 * says, and only the built-in "Call staff" entry waits for it.
	 */
	readonly callsNeedModeration?: boolean;
	/**
	 * Seconds between syncs while a support call is open (attribute `CallSyncSeconds`). Default 3; from 2 to 10. An
	 * agent's message waits for the next sync, so its p95 is about 0.95 × this plus the answer's latency and the text
	 * filter: 3 s keeps every open call together within 20 requests a minute, 2.5 s brings an agent's message within 3 s
	 * p95 for 24 (lune/bench/README.md, call-sync).
	 */
	readonly callSyncSeconds?: number;
}

// Its settings join `StaffOpsConfig` (and their resolved types `StaffOpsSettings`): the core names no feature.
declare module "../../config" {
	interface StaffOpsBaseConfig extends SupportCallsConfig {}
	interface ResolvedSettings {
		readonly callStaff: boolean;
		readonly callsNeedModeration: boolean;
		readonly callSyncSeconds: number;
	}
}

/**
 * Support calls: players call staff and write back (deployed profile), messages ride the sync, and game code may
 * open a call's chat itself (`StaffOps.openCall`).
 * In the package's declarations for the config type; not an API.
 */
export const SUPPORT_CALLS: FeatureDeclaration<SupportCallsConfig, "supportCalls", typeof SUPPORT_CALLS_FACE> = {
	name: "supportCalls",
	settings: [
		{ field: "callStaff", attribute: "CallStaff", default: true },
		{ field: "callsNeedModeration", attribute: "CallsNeedModeration", default: false },
		// The sync's interval while a call is open (sync.ts SYNC_FAST_SECONDS).
		{ field: "callSyncSeconds", attribute: "CallSyncSeconds", default: 3, min: 2, max: 10 },
	],
	remotes: [CALL_EVENTS_REMOTE, SUPPORT_REQUESTS_REMOTE],
	clientParts: [
		{ folder: "chat/mount", start: "startCallChat" },
		{ folder: "support", start: "startSupportCalls" },
	],
	face: SUPPORT_CALLS_FACE,
};

/** Whether the registration answer's `moderation` says the workspace takes in-game calls (a flag, or its settings). */
function takesCalls(moderation: unknown): boolean {
	return moderation === true || typeIs(moderation, "table");
}

/** What specs and monitoring read of support calls. @internal */
export interface SupportCallsDiagnostics {
	/** Calls open now. */
	readonly calls: number;
}

/** The support calls feature: the call bridge and the support desk, which exist once the remotes do. @internal */
export class SupportCallsFeature implements Feature {
	readonly declaration = SUPPORT_CALLS;
	calls?: CallBridge;
	desk?: SupportDesk;

	constructor(
		private readonly ctx: ServerContext,
		private readonly joins: JoinsFeature,
		private readonly sessions: SessionsFeature,
		private readonly presence: PresenceFeature,
	) {}

	start(): void {
		const ctx = this.ctx;
		const { seams } = ctx;
		const remotes = ctx.remotes!;
		const sync = this.presence.sync;
		const calls = (this.calls = new CallBridge({
			client: ctx.client,
			scheduler: ctx.scheduler,
			random: seams.random,
			players: ctx.players,
			remote: remotes[CALL_EVENTS_REMOTE],
			filter: seams.textFilter,
			yieldSlice: seams.transport?.yieldSlice,
			workClock: seams.transport?.workClock,
		}));
		// One line each way; the call's id and its messages are the service's and the players' and stay out of it.
		calls.opened.Connect((chat) => logInfo(`support call opened for ${playerLabel(chat.player)}`));
		calls.closed.Connect((chat, reason) =>
			logInfo(`support call of ${playerLabel(chat.player)} ended (${reason})`),
		);
		// Players call staff and write back (deployed profile): messages ride the sync, chats come from it.
		const desk = (this.desk = new SupportDesk({
			client: ctx.client,
			bridge: calls,
			runningGameId: () => ctx.registration.current?.runningGameId,
			setFast: (fast) => sync.setFast(fast),
			canChat: seams.canChat,
			filter: seams.textFilter,
			scheduler: ctx.scheduler,
			remote: remotes[SUPPORT_REQUESTS_REMOTE],
			players: ctx.players,
			// A reported leave ends the player's calls on the service; otherwise the desk ends them itself.
			endOnLeave: () => !this.sessions.ender.reportsLeaves(),
			mayCall: (player) => !this.joins.isUntracked(player),
		}));
		sync.setChatOutbox(desk.outbox);
		sync.onOngoingChats = (chats) => desk.handleOngoingChats(chats);
	}

	/** Opens the chat of call `callId` for `player` from game code (`StaffOps.openCall`); undefined with a warning. */
	openCall(player: Player, callId: string, options?: OpenChatOptions): CallChat | undefined {
		const calls = this.calls;
		if (calls === undefined) {
			logWarn("openCall: StaffOps is not running");
			return undefined;
		}
		if (this.joins.isUntracked(player)) {
			logWarn("openCall: the service tracks nothing for this player (tracked: false); no call is opened");
			return undefined;
		}
		const [ok, chatOrProblem] = pcall(() => calls.open(player, callId, options));
		if (!ok) {
			logWarn(`openCall: ${tostring(chatOrProblem)}`);
			return undefined;
		}
		return chatOrProblem;
	}

	registered(): void {
		if (this.desk === undefined) return;
		const syncRuns = this.ctx.syncRuns();
		// Calling staff needs the deployed service's routes and the sync to carry them.
		this.desk.setFedBySync(syncRuns);
		const takes = takesCalls(registrationFacts(this.ctx.registration.current?.answer).moderation);
		const { callStaff, callsNeedModeration } = this.ctx.config;
		// As the official module, calls are created whatever `moderation` says and only the menu for players waits for it
		// (docs/service-contract.md#opening-a-support-call); `CallsNeedModeration` is the stricter gate.
		const available = syncRuns && callStaff && (takes || !callsNeedModeration);
		this.desk.setAvailable(available, available && takes);
	}

	/** At the close: the open calls end before the players' leaves and the server's end. */
	readonly atClose: ClosingPart = { endOpen: () => this.endAllCalls() };

	/**
	 * At the close: ends every open call (the service's endServer leaves them open for ever), and any whose create is
	 * still in flight once it is answered; undefined if none.
	 */
	endAllCalls(): Promise<unknown> | undefined {
		const desk = this.desk;
		if (desk === undefined || !desk.hasCallsToEnd() || this.ctx.registration.current === undefined) return;
		return desk.endAllCalls();
	}

	stop(): void {
		this.desk?.destroy();
		this.calls?.destroy();
	}

	diagnostics(): SupportCallsDiagnostics {
		return { calls: this.desk?.getCallCount() ?? 0 };
	}
}
