import { t } from "@rbxts/t";
import type {
	ActivitySession,
	ActivitySummary,
	ApprovalStep,
	CallMessage,
	CallMessagesAnswer,
	CreateOrderAnswer,
	CreateServerAnswer,
	HistoryItem,
	HistoryListItem,
	ListHistoryAnswer,
	Order,
	PlayerJoinAnswer,
	RecordHistoryAnswer,
	ReleaseOrderAnswer,
	RunningGame,
	RunningGameAnswer,
	RunningPlayer,
	TeamMembership,
	TimeOffAnswer,
	TimeOffListAnswer,
	TimeOffRequest,
	UserActivityAnswer,
	UserTeamsAnswer,
	Workspace,
} from "./types";

// Answer checks against the interface. What the interface allows is accepted (`userId` boolean or string,
// list items without `type`, a history list answer with only a `reason`); what it does not is refused: a wrong
// type anywhere, a missing required or identifying field, `success` other than `true`.

/** A check together with the field checks it is made of, so a failure can name the field. @internal */
export interface Shape<T> {
	readonly check: t.check<T>;
	readonly fields: { readonly [name: string]: t.check<unknown> };
}

function shape<T>(fields: { [name: string]: t.check<unknown> }): Shape<T> {
	return { check: t.interface(fields) as unknown as t.check<T>, fields };
}

const str = t.string;
const num = t.number;
const bool = t.boolean;
const opt = t.optional;
const strings = t.array(t.string);

/** ISO 8601 date-time: `YYYY-MM-DDTHH:MM` followed by anything (seconds, fraction, zone). */
const dateTime = t.match("^%d%d%d%d%-%d%d%-%d%dT%d%d:%d%d");

const historyType = t.literal("promotion", "suspension", "termination", "writeup");
const platform = t.literal("Phone", "Tablet", "Console", "Desktop", "unknown");

const minutes = t.interface({
	total: opt(num),
	active: opt(num),
	inactive: opt(num),
	typing: opt(num),
	messages: opt(num),
});

const historyFields = {
	_id: str,
	groupId: str,
	userId: t.union(bool, str),
	disciplinarianId: str,
	reason: str,
	created: str,
	expires: opt(str),
	rankTo: opt(str),
	rankFrom: str,
	ended: bool,
	endedBy: opt(str),
	evidence: opt(strings),
	pendingApproval: opt(bool),
	approvedBy: opt(str),
	notify: opt(bool),
	distribution: opt(num),
};

/** @internal */
export const isHistoryItem = t.interface({ ...historyFields, type: historyType }) as unknown as t.check<HistoryItem>;
/** @internal */
export const isHistoryListItem = t.interface({
	...historyFields,
	type: opt(historyType),
}) as unknown as t.check<HistoryListItem>;

/** @internal */
export const isWorkspace = t.interface({
	groupId: opt(str),
	owner: opt(t.interface({ serviceId: opt(str), platformId: opt(str) })),
	minSyncRole: opt(num),
	loaderId: opt(str),
	currentDistribution: opt(num),
	distributionPeriod: opt(str),
	distributionDMs: opt(bool),
	premium: opt(
		t.interface({
			is: opt(bool),
			subscriptionId: opt(str),
			planType: opt(str),
			managedBy: opt(t.interface({ platformId: opt(str), customerId: opt(str) })),
		}),
	),
	tags: opt(strings),
	created: opt(dateTime),
	brandColor: opt(str),
	groupName: opt(str),
	syncing: opt(bool),
	lastSynced: opt(dateTime),
	trackedStaff: opt(num),
	overrideRoleMaximumSize: opt(num),
	banStatus: opt(t.interface({ is: opt(bool), reason: opt(str), bannedBy: opt(str) })),
}) as unknown as t.check<Workspace>;

const orderFields = {
	_id: str,
	groupId: opt(str),
	customerId: opt(str),
	cashierId: opt(str),
	items: opt(t.array(t.interface({ item: opt(str), quantity: opt(num) }))),
	placeId: opt(str),
	gameId: opt(str),
	created: opt(dateTime),
	log: opt(t.array(t.interface({ event: opt(str), userId: opt(str), date: opt(dateTime) }))),
	involvedUsers: opt(strings),
	lastModified: opt(dateTime),
};

/** An order as created: `status` may be absent. @internal */
export const isOrder = t.interface({ ...orderFields, status: opt(str) }) as unknown as t.check<Order>;
/** An order as released: `status` present. @internal */
export const isReleasedOrder = t.interface({ ...orderFields, status: str }) as unknown as t.check<
	Order & { status: string }
>;

/** @internal */
export const isActivitySummary = t.interface({
	_id: str,
	userId: opt(str),
	groupId: opt(str),
	distribution: opt(str),
	sessions: opt(strings),
	minutes: opt(minutes),
	goals: opt(t.table),
	created: opt(dateTime),
	attendedSessions: opt(strings),
	updated: opt(dateTime),
}) as unknown as t.check<ActivitySummary>;

/** @internal */
export const isActivitySession = t.interface({
	_id: str,
	groupId: opt(num),
	userId: opt(num),
	gameId: opt(num),
	placeId: opt(num),
	internalGameId: opt(str),
	platform: opt(str),
	staff: opt(bool),
	inGame: opt(bool),
	distribution: opt(num),
	minutes: opt(minutes),
	started: opt(dateTime),
	ended: opt(dateTime),
	created: opt(dateTime),
}) as unknown as t.check<ActivitySession>;

/** @internal */
export const isRunningGame = t.interface({
	_id: str,
	version: opt(str),
	groupId: opt(str),
	internalGameId: opt(str),
	gameId: opt(num),
	placeId: opt(num),
	jobId: opt(str),
	privateServerId: opt(str),
	privateServerOwnerId: opt(num),
	placeVersion: opt(str),
	players: opt(strings),
	lastPing: opt(dateTime),
	created: opt(dateTime),
}) as unknown as t.check<RunningGame>;

/** @internal */
export const isRunningPlayer = t.interface({
	_id: str,
	runningGameId: opt(str),
	groupId: opt(str),
	internalGameId: opt(str),
	userId: opt(str),
	platform: opt(platform),
	isStaff: opt(bool),
	joined: opt(dateTime),
}) as unknown as t.check<RunningPlayer>;

const isApprovalStep = t.interface({
	index: opt(num),
	label: opt(str),
	type: opt(str),
	approverIds: opt(strings),
	status: opt(str),
	decidedBy: opt(str),
	decidedAt: opt(dateTime),
	note: opt(str),
}) as unknown as t.check<ApprovalStep>;

/** @internal */
export const isTimeOffRequest = t.interface({
	_id: str,
	groupId: opt(str),
	userId: opt(str),
	reason: opt(str),
	starts: opt(dateTime),
	ends: opt(dateTime),
	status: opt(str),
	created: opt(dateTime),
	teamId: opt(str),
	reviewedBy: opt(str),
	reviewNote: opt(str),
	reviewedAt: opt(dateTime),
	approvalChain: opt(t.array(isApprovalStep)),
	currentStepIndex: opt(num),
	currentApproverIds: opt(strings),
}) as unknown as t.check<TimeOffRequest>;

/** @internal */
export const isCallMessage = t.interface({
	id: str,
	username: opt(str),
	userId: opt(num),
	message: opt(str),
	origin: opt(str),
	sentFrom: opt(str),
	created: opt(dateTime),
}) as unknown as t.check<CallMessage>;

/** @internal */
export const isTeamMembership = t.interface({
	teamId: str,
	teamName: opt(str),
	roleId: opt(str),
	roleName: opt(str),
	isLead: opt(bool),
	created: opt(dateTime),
}) as unknown as t.check<TeamMembership>;

const succeeded = t.literal(true);

/** Answer shapes, one per operation. @internal */
export const answerShapes = {
	recordHistory: shape<RecordHistoryAnswer>({ success: succeeded, history: isHistoryItem }),
	listHistory: shape<ListHistoryAnswer>({
		success: succeeded,
		history: opt(t.array(isHistoryListItem)),
		reason: opt(str),
	}),
	createServer: shape<CreateServerAnswer>({
		success: succeeded,
		gameId: str,
		runningGameId: str,
		workspace: isWorkspace,
	}),
	playerJoin: shape<PlayerJoinAnswer>({
		success: succeeded,
		banned: bool,
		reason: str,
		isStaff: bool,
		sessionId: str,
		runningPlayerId: str,
	}),
	getActivity: shape<UserActivityAnswer>({
		success: succeeded,
		summary: isActivitySummary,
		sessions: t.array(isActivitySession),
	}),
	getRunningGame: shape<RunningGameAnswer>({
		success: succeeded,
		runningGame: isRunningGame,
		players: t.array(isRunningPlayer),
	}),
	createOrder: shape<CreateOrderAnswer>({ success: succeeded, order: isOrder }),
	releaseOrder: shape<ReleaseOrderAnswer>({ success: succeeded, order: isReleasedOrder }),
	listTimeOff: shape<TimeOffListAnswer>({ success: succeeded, requests: t.array(isTimeOffRequest) }),
	getTimeOff: shape<TimeOffAnswer>({ success: succeeded, request: isTimeOffRequest }),
	getCallMessages: shape<CallMessagesAnswer>({ success: succeeded, status: str, messages: t.array(isCallMessage) }),
	getUserTeams: shape<UserTeamsAnswer>({ success: succeeded, teams: t.array(isTeamMembership) }),
};

/**
 * Extra rules a shape cannot say: the history list answer carries the list or a reason (or both).
 * @internal
 */
export function extraAnswerRule(operation: string, value: unknown): string | undefined {
	if (operation === "listHistory" && typeIs(value, "table")) {
		const answer = value as { history?: unknown; reason?: unknown };
		if (answer.history === undefined && answer.reason === undefined) return "neither `history` nor `reason`";
	}
	return undefined;
}

/** The failure body: `success: false` and a `reason` string. @internal */
export const isFailureBody = t.interface({ success: t.literal(false), reason: str });

/**
 * Names the first top-level field of `value` that fails its check, for decode error texts.
 * @internal
 */
export function firstBadField(fields: { readonly [name: string]: t.check<unknown> }, value: unknown): string {
	if (!typeIs(value, "table")) return "the answer is not a JSON object";
	const record = value as Record<string, unknown>;
	const names = new Array<string>();
	for (const [name] of pairs(fields)) names.push(name as string);
	names.sort();
	if (fields.success !== undefined && !fields.success(record.success)) return "field `success` is not true";
	for (const name of names) {
		const check = fields[name];
		if (!check(record[name])) {
			return record[name] === undefined ? `field \`${name}\` is missing` : `field \`${name}\` has the wrong type`;
		}
	}
	return "the answer does not match the interface";
}
