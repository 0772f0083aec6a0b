/** Wire shapes of the interface's resources, field for field. */

export type HistoryType = "promotion" | "writeup" | "suspension" | "termination";
export const HISTORY_TYPES: readonly HistoryType[] = ["promotion", "writeup", "suspension", "termination"];

export type Platform = "Phone" | "Tablet" | "Console" | "Desktop" | "unknown";
export const PLATFORMS: readonly Platform[] = ["Phone", "Tablet", "Console", "Desktop", "unknown"];

export interface HistoryItem {
	_id: string;
	groupId: string;
	type: HistoryType;
	userId: boolean | string;
	disciplinarianId: string;
	reason: string;
	created: string;
	expires?: string;
	rankTo?: string;
	rankFrom: string;
	ended: boolean;
	endedBy?: string;
	evidence?: string[];
	pendingApproval?: boolean;
	approvedBy?: string;
	notify?: boolean;
	distribution?: number;
}

export interface WorkspaceProfile {
	groupId: string;
	owner: { serviceId: string; platformId: string };
	minSyncRole: number;
	currentDistribution: number;
	distributionPeriod: string;
	distributionDMs: boolean;
	premium: {
		is: boolean;
		subscriptionId: string;
		planType: string;
		managedBy: { platformId: string; customerId: string };
	};
	tags: string[];
	created: string;
	brandColor: string;
	groupName: string;
	syncing: boolean;
	lastSynced: string;
	trackedStaff: number;
	overrideRoleMaximumSize: number;
	banStatus: { is: boolean; reason: string; bannedBy: string };
}

export interface Workspace extends WorkspaceProfile {
	loaderId: string;
}

export interface OrderItem {
	item: string;
	quantity: number;
}

export interface OrderLogEntry {
	event: string;
	userId: string;
	date: string;
}

export interface Order {
	_id: string;
	groupId: string;
	customerId: string;
	cashierId: string;
	status?: string;
	items: OrderItem[];
	placeId: string;
	gameId: string;
	created: string;
	log: OrderLogEntry[];
	involvedUsers: string[];
	lastModified: string;
}

export interface Minutes {
	total: number;
	active: number;
	inactive: number;
	typing: number;
	messages: number;
}

export interface ActivitySummary {
	_id: string;
	userId: string;
	groupId: string;
	distribution: string;
	sessions: string[];
	minutes: Minutes;
	goals: Record<string, unknown>;
	created: string;
	attendedSessions: string[];
	updated: string;
}

export interface ActivitySession {
	_id: string;
	groupId: number;
	userId: number;
	gameId: number;
	placeId: number;
	internalGameId: string;
	platform: string;
	staff: boolean;
	inGame: boolean;
	distribution: number;
	minutes: Minutes;
	started: string;
	ended: string;
	created: string;
}

export interface RunningGame {
	_id: string;
	version: string;
	groupId: string;
	internalGameId: string;
	gameId: number;
	placeId: number;
	jobId: string;
	privateServerId: string;
	privateServerOwnerId: number;
	placeVersion: string;
	players: string[];
	lastPing: string;
	created: string;
}

export interface RunningPlayer {
	_id: string;
	runningGameId: string;
	groupId: string;
	internalGameId: string;
	userId: string;
	platform: Platform;
	isStaff: boolean;
	joined: string;
	/**
	 * The session this player's join opened. Kept for every player; only the deployed profile's list shows it, as the
	 * deployed service does (the interface's RunningPlayer has no such field).
	 */
	userSessionId?: string;
}

export interface ApprovalStep {
	index: number;
	label: string;
	type: string;
	approverIds: string[];
	status: string;
	decidedBy: string;
	decidedAt: string;
	note: string;
}

export interface TimeOffRequest {
	_id: string;
	groupId: string;
	userId: string;
	reason: string;
	starts: string;
	ends: string;
	status: string;
	created: string;
	teamId: string;
	reviewedBy: string;
	reviewNote: string;
	reviewedAt: string;
	approvalChain: ApprovalStep[];
	currentStepIndex: number;
	currentApproverIds: string[];
}

export interface CallMessage {
	username: string;
	userId: number;
	message: string;
	id: string;
	origin: string;
	sentFrom: string;
	created: string;
}

export type CallStatus = "open" | "closed";
export const CALL_STATUSES: readonly CallStatus[] = ["open", "closed"];

/** The deployed service's tickets add `claimed` (an agent took the call) to the interface's two statuses. */
export type TicketStatus = CallStatus | "claimed";

export interface TeamMembership {
	teamId: string;
	teamName: string;
	roleId: string;
	roleName: string;
	isLead: boolean;
	created: string;
}

export function zeroMinutes(): Minutes {
	return { total: 0, active: 0, inactive: 0, typing: 0, messages: 0 };
}
