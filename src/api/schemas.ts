import type {
	ActivitySession,
	ActivitySummary,
	CallMessage,
	CallMessagesAnswer,
	CreateOrderAnswer,
	CreateServerAnswer,
	EndServerAnswer,
	GetServerAnswer,
	PlayerLeaveAnswer,
	HistoryItem,
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
import { supportAnswerReaders } from "./resources/supportCalls";
import { anyTable, array, bool, either, list, literal, num, object, opt, Reader, req, str } from "./reader";

// The one place each answer's shape is read (DESIGN §3: be a tolerant reader). What is required: what identifies a
// resource, and what the library itself needs (`gameId`/`runningGameId` of a registration, a transcript's `status`
// and its messages' `id`). Everything else is optional, with the wider types the deployed service really sends.
// Each reader is declared with the documented interface of `types.ts`, so the compiler checks the two agree.

const strings = array(str);
/** A user id, which the deployed service sends as a string or a number. */
const userIdLike = either(str, num);

const minutes = object({
	total: opt(num),
	active: opt(num),
	inactive: opt(num),
	typing: opt(num),
	messages: opt(num),
});

const historyItem: Reader<HistoryItem> = object({
	_id: req(str),
	groupId: opt(str),
	type: opt(str),
	userId: opt(either(either(bool, str), num)),
	disciplinarianId: opt(userIdLike),
	reason: opt(str),
	created: opt(str),
	expires: opt(str),
	rankTo: opt(either(str, literal(false))),
	rankFrom: opt(str),
	ended: opt(bool),
	endedBy: opt(str),
	evidence: opt(strings),
	pendingApproval: opt(bool),
	approvedBy: opt(str),
	notify: opt(bool),
	distribution: opt(num),
});

const workspace: Reader<Workspace> = object({
	groupId: opt(str),
	owner: opt(object({ serviceId: opt(str), platformId: opt(str) })),
	minSyncRole: opt(num),
	loaderId: opt(str),
	currentDistribution: opt(num),
	distributionPeriod: opt(str),
	distributionDMs: opt(bool),
	premium: opt(
		object({
			is: opt(bool),
			subscriptionId: opt(str),
			planType: opt(str),
			managedBy: opt(object({ platformId: opt(str), customerId: opt(str) })),
		}),
	),
	tags: opt(strings),
	created: opt(str),
	brandColor: opt(str),
	groupName: opt(str),
	syncing: opt(bool),
	lastSynced: opt(str),
	trackedStaff: opt(num),
	overrideRoleMaximumSize: opt(num),
	banStatus: opt(object({ is: opt(bool), reason: opt(str), bannedBy: opt(str) })),
});

const order: Reader<Order> = object({
	_id: req(str),
	groupId: opt(str),
	customerId: opt(str),
	cashierId: opt(str),
	status: opt(str),
	items: opt(array(object({ item: opt(str), quantity: opt(num) }))),
	placeId: opt(str),
	gameId: opt(str),
	created: opt(str),
	log: opt(array(object({ event: opt(str), userId: opt(str), date: opt(str) }))),
	involvedUsers: opt(strings),
	lastModified: opt(str),
});

const activitySummary: Reader<ActivitySummary> = object({
	_id: req(str),
	userId: opt(str),
	groupId: opt(str),
	distribution: opt(str),
	sessions: opt(strings),
	minutes: opt(minutes),
	goals: opt(anyTable),
	created: opt(str),
	attendedSessions: opt(strings),
	updated: opt(str),
});

const activitySession: Reader<ActivitySession> = object({
	_id: req(str),
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
	started: opt(str),
	ended: opt(str),
	created: opt(str),
});

const runningGame: Reader<RunningGame> = object({
	_id: req(str),
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
	lastPing: opt(str),
	created: opt(str),
});

const runningPlayer: Reader<RunningPlayer> = object({
	_id: req(str),
	runningGameId: opt(str),
	groupId: opt(str),
	internalGameId: opt(str),
	userId: opt(str),
	platform: opt(literal("Phone", "Tablet", "Console", "Desktop", "unknown")),
	isStaff: opt(bool),
	joined: opt(str),
});

const approvalStep = object({
	index: opt(num),
	label: opt(str),
	type: opt(str),
	approverIds: opt(strings),
	status: opt(str),
	decidedBy: opt(str),
	decidedAt: opt(str),
	note: opt(str),
});

const timeOffRequest: Reader<TimeOffRequest> = object({
	_id: req(str),
	groupId: opt(str),
	userId: opt(str),
	reason: opt(str),
	starts: opt(str),
	ends: opt(str),
	status: opt(str),
	created: opt(str),
	teamId: opt(str),
	reviewedBy: opt(str),
	reviewNote: opt(str),
	reviewedAt: opt(str),
	approvalChain: opt(array(approvalStep)),
	currentStepIndex: opt(num),
	currentApproverIds: opt(strings),
});

const callMessage: Reader<CallMessage> = object({
	id: req(str),
	username: opt(str),
	userId: opt(num),
	message: opt(str),
	origin: opt(str),
	sentFrom: opt(str),
	created: opt(str),
});

const teamMembership: Reader<TeamMembership> = object({
	teamId: req(str),
	teamName: opt(str),
	roleId: opt(str),
	roleName: opt(str),
	isLead: opt(bool),
	created: opt(str),
});

const succeeded = req(literal(true));

/** Answer readers, one per operation. @internal */
export const answerReaders = {
	recordHistory: object({ success: succeeded, history: req(historyItem) }) satisfies Reader<RecordHistoryAnswer>,
	listHistory: object({
		success: succeeded,
		history: opt(array(historyItem)),
		reason: opt(str),
	}) satisfies Reader<ListHistoryAnswer>,
	createServer: object({
		success: succeeded,
		gameId: req(str),
		runningGameId: req(str),
		workspace: opt(workspace),
	}) satisfies Reader<CreateServerAnswer>,
	playerJoin: object({
		success: succeeded,
		banned: opt(bool),
		reason: opt(str),
		isStaff: opt(bool),
		sessionId: opt(str),
		runningPlayerId: opt(str),
	}) satisfies Reader<PlayerJoinAnswer>,
	getActivity: object({
		success: succeeded,
		summary: opt(activitySummary),
		sessions: list(activitySession),
	}) satisfies Reader<UserActivityAnswer>,
	getRunningGame: object({
		success: succeeded,
		runningGame: opt(runningGame),
		players: opt(array(runningPlayer)),
	}) satisfies Reader<RunningGameAnswer>,
	createOrder: object({ success: succeeded, order: req(order) }) satisfies Reader<CreateOrderAnswer>,
	releaseOrder: object({ success: succeeded, order: req(order) }) satisfies Reader<ReleaseOrderAnswer>,
	listTimeOff: object({ success: succeeded, requests: list(timeOffRequest) }) satisfies Reader<TimeOffListAnswer>,
	getTimeOff: object({ success: succeeded, request: req(timeOffRequest) }) satisfies Reader<TimeOffAnswer>,
	getCallMessages: object({
		success: succeeded,
		status: req(str),
		messages: list(callMessage),
	}) satisfies Reader<CallMessagesAnswer>,
	getUserTeams: object({ success: succeeded, teams: list(teamMembership) }) satisfies Reader<UserTeamsAnswer>,
	playerLeave: object({ success: succeeded, finalized: opt(bool) }) satisfies Reader<PlayerLeaveAnswer>,
	endServer: object({ success: succeeded }) satisfies Reader<EndServerAnswer>,
	getServer: object({ success: succeeded, workspace: opt(workspace) }) satisfies Reader<GetServerAnswer>,
	...supportAnswerReaders,
};

/** Any JSON value: what `client.request` hands back, for the caller to check. @internal */
export const anyAnswer: Reader<unknown> = { read: () => undefined };

/**
 * Extra rules a reader cannot say: the history list answer carries the list or a reason (or both).
 * @internal
 */
export function extraAnswerRule(operation: string, value: unknown): string | undefined {
	if (operation === "listHistory" && typeIs(value, "table")) {
		const answer = value as { history?: unknown; reason?: unknown };
		if (answer.history === undefined && answer.reason === undefined) return "neither `history` nor `reason`";
	}
	return undefined;
}

/**
 * The service's words in a failure body: `success: false` with a `reason` (the interface), or with an `error` (the
 * deployed service's 400s); undefined when the body is not a failure body. An empty string when it gave no words.
 * @internal
 */
export function failureReason(value: unknown): string | undefined {
	if (!typeIs(value, "table")) return undefined;
	const body = value as { success?: unknown; reason?: unknown; error?: unknown };
	if (body.success !== false) return undefined;
	if (typeIs(body.reason, "string")) return body.reason;
	if (typeIs(body.error, "string")) return body.error;
	return "";
}

/**
 * The words of an error body that is not a failure body, such as `{message, error, statusCode}` (the deployed
 * service's 404s); undefined when there are none.
 * @internal
 */
export function otherErrorWords(value: unknown): string | undefined {
	if (!typeIs(value, "table")) return undefined;
	const body = value as { message?: unknown; error?: unknown };
	if (typeIs(body.message, "string") && body.message !== "") return body.message;
	if (typeIs(body.error, "string") && body.error !== "") return body.error;
	return undefined;
}
