import type {
	ActivitySession,
	ActivitySummary,
	CallMessage,
	HistoryItem,
	Order,
	Platform,
	RunningGame,
	RunningPlayer,
	TeamMembership,
	TicketStatus,
	TimeOffRequest,
	WorkspaceProfile,
} from "./model.js";
import type { WorkspaceSeed } from "./seed.js";
import {
	type ConsentRecord,
	type DeliveredAction,
	type InGameSettings,
	type QueuedAction,
	type SessionEventRecord,
	type TicketInfo,
	defaultInGameSettings,
} from "./profiles/deployed-records.js";
import type { BanRecord } from "./profiles/deployed-bans.js";
import type { CommandRecord } from "./profiles/deployed-commands.js";
import type { VerifyCode } from "./profiles/deployed-verify.js";
import { DEFAULT_GROUP_ROLES, type GroupRole, type RankAction } from "./profiles/deployed-ranking.js";
import { isoAt } from "./time.js";

export interface RunningServer {
	game: Omit<RunningGame, "players" | "lastPing">;
	/** The last presence: a ping in the default profile, an operation naming the running game in the deployed one. */
	lastPingMs: number;
	/**
	 * In join order. The default profile keeps one per user (a second join replaces it); the deployed one adds a
	 * record per join, as the deployed service does.
	 */
	players: RunningPlayer[];
	/** Sessions opened by joins on this server that are still in game. */
	liveSessions: LiveSession[];
}

export interface LiveSession {
	userId: string;
	session: ActivitySession;
	/** Deployed profile: the join answered `needsConsent:true`; without a grant the visit is deleted at leave. */
	needsConsent?: boolean;
}

/** Why a server is gone: silence (forgotten or deleted), `/_control/forget`, or the deployed `endServer`. */
export type Removal = "silence" | "forget" | "endServer";

/** A server the service no longer knows, kept only for `/_control/records`. */
export interface RemovedServer {
	server: RunningServer;
	removal: Removal;
	removedAtMs: number;
}

/** A session opened by a join since the last reset, for `/_control/records`. */
export interface OpenedSession {
	userId: string;
	runningGameId: string;
	session: ActivitySession;
	/** Deleted with its server (deployed profile, non-staff sessions of a silent server). */
	deleted: boolean;
}

export interface JoinRecord {
	userId: string;
	runningGameId: string;
	platform: Platform;
	safechat: boolean;
	tzOffset: string;
	username: string;
	banned: boolean;
	at: number;
	/** Deployed joins: these fields exactly as sent, when sent. */
	userKey?: unknown;
	displayName?: unknown;
	datetime?: unknown;
	groupRank?: unknown;
}

export interface CallState {
	status: TicketStatus;
	messages: { message: CallMessage; visibleAtMs: number }[];
	/** Deployed profile: the ticket behind the call (support/create, or a chat an agent started); seeded calls have none. */
	ticket?: TicketInfo;
}

/** Everything one workspace (one key) holds. Nothing here is reachable from another workspace. */
export class WorkspaceState {
	readonly key: string;
	readonly profile: WorkspaceProfile;
	readonly ranks = new Map<string, string>();
	readonly staffIds = new Set<string>();
	/** UserId → ban: the seed's, the dashboard's (control API) and, in the deployed profile, `POST /games/bans`. */
	readonly bans = new Map<string, BanRecord>();
	readonly memberships = new Map<string, TeamMembership[]>();
	readonly timeOff: TimeOffRequest[];
	readonly calls = new Map<string, CallState>();
	readonly summaries = new Map<string, ActivitySummary>();
	readonly sessions: ActivitySession[] = [];
	readonly history: HistoryItem[];
	readonly orders = new Map<string, Order>();
	readonly servers = new Map<string, RunningServer>();
	readonly joins: JoinRecord[] = [];
	/** Every server registered since the last reset, removed ones included, for `/_control/records`. */
	readonly registeredServers: RunningServer[] = [];
	readonly removedServers: RemovedServer[] = [];
	readonly openedSessions: OpenedSession[] = [];
	/** User id → the member's stored timezone (what the last join's tzOffset left there). */
	readonly timezones = new Map<string, string>();
	/** Staff usernames from the seed, for the agent messages the deployed `/calls` routes store. */
	readonly staffNames = new Map<string, string>();
	/** Deployed profile: the workspace's in-game settings (createServer answer), set through the control API. */
	readonly inGame: InGameSettings = defaultInGameSettings();
	/** Deployed profile: users who may not open support calls, and users removed for data protection. */
	readonly callBans = new Set<string>();
	readonly gdprRemoved = new Set<string>();
	/** Deployed profile: UserIds `POST /games/bans` treats as unknown users (400), set through the control API. */
	readonly unknownUsers = new Set<string>();
	/** Deployed profile: admin chat commands registered by this workspace's games, with their grants. */
	readonly commands: CommandRecord[] = [];
	/** Deployed profile: the ranking keys (`api-key` of the ranking route) given through the control API. */
	readonly rankingKeys = new Set<string>();
	/** Deployed profile: the workspace group's roles, which the ranking route looks `{rank}` up in. */
	groupRoles: GroupRole[] = DEFAULT_GROUP_ROLES.map((role) => ({ ...role }));
	/** Deployed profile: rank actions the ranking route queued, in order (each before its Roblox call). */
	readonly rankActions: RankAction[] = [];
	/** Deployed profile: how many more ranking calls fail at Roblox (500 after the action is queued). */
	rankRobloxFailures = 0;
	/** Deployed profile: website verification codes made through the control API, and who used them. */
	readonly verifyCodes: VerifyCode[] = [];
	/** Deployed profile: consent decisions in arrival order; a user's last one counts. */
	readonly consents: ConsentRecord[] = [];
	/** Deployed profile: session events sendData stored, deduplicated by session + type + time. */
	readonly sessionEvents: SessionEventRecord[] = [];
	readonly sessionEventKeys = new Set<string>();
	/** Deployed profile: each session's `active` flag as its last stored event left it (`idle` clears it). */
	readonly sessionActive = new Map<string, boolean>();
	/** Deployed profile: dashboard actions waiting for their server's next sendData, then those handed over. */
	queuedActions: QueuedAction[] = [];
	readonly deliveredActions: DeliveredAction[] = [];

	constructor(seed: WorkspaceSeed, clockStartMs: number) {
		const copy = structuredClone(seed);
		const groupId = copy.workspace.groupId;
		this.key = copy.key;
		this.profile = copy.workspace;
		for (const member of copy.staff) {
			this.staffIds.add(member.userId);
			this.ranks.set(member.userId, member.rank);
			this.staffNames.set(member.userId, member.username);
		}
		for (const ban of copy.bans) this.bans.set(ban.userId, { reason: ban.reason, bannedBy: ban.bannedBy });
		for (const team of copy.teams) {
			for (const member of team.members) {
				const list = this.memberships.get(member.userId) ?? [];
				list.push({
					teamId: team.teamId,
					teamName: team.teamName,
					roleId: member.roleId,
					roleName: member.roleName,
					isLead: member.isLead,
					created: member.created,
				});
				this.memberships.set(member.userId, list);
			}
		}
		this.timeOff = copy.timeOff.map(({ _id, ...request }) => ({ _id, groupId, ...request }));
		for (const call of copy.calls) {
			this.calls.set(call.callId, {
				status: call.status,
				messages: call.messages.map(({ afterSeconds, ...message }) => {
					const visibleAtMs = clockStartMs + afterSeconds * 1000;
					return { message: { ...message, created: isoAt(visibleAtMs) }, visibleAtMs };
				}),
			});
		}
		for (const { _id, userId, sessions, ...summary } of copy.activity) {
			this.summaries.set(userId, { _id, userId, groupId, ...summary, sessions: sessions.map((s) => s._id) });
			for (const { _id: sessionId, ...session } of sessions) {
				this.sessions.push({ _id: sessionId, groupId: Number(groupId), userId: Number(userId), ...session });
			}
		}
		this.history = copy.history.map(({ _id, ...item }) => ({ _id, groupId, ...item }));
	}

	get groupId(): string {
		return this.profile.groupId;
	}
}
