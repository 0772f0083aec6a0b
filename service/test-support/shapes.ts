/**
 * Answer shapes transcribed from the interface's tables (staff-operations-service.md): every documented field
 * present with its documented JSON type, nothing undocumented. Only HistoryItem marks fields optional.
 */
import assert from "node:assert/strict";
import {
	type Check,
	isArrayOf,
	isBoolean,
	isDateTime,
	isExactly,
	isIn,
	isNumber,
	isObjectOf,
	isOneOf,
	isPlainObject,
	isString,
} from "../src/checks.js";

export const historyFields = {
	_id: isString,
	groupId: isString,
	type: isIn(["promotion", "suspension", "termination", "writeup"]),
	userId: isOneOf(isBoolean, isString),
	disciplinarianId: isString,
	reason: isString,
	created: isDateTime,
	expires: isDateTime,
	rankTo: isString,
	rankFrom: isString,
	ended: isBoolean,
	endedBy: isString,
	evidence: isArrayOf(isString),
	pendingApproval: isBoolean,
	approvedBy: isString,
	notify: isBoolean,
	distribution: isNumber,
};
export const historyOptional = [
	"expires",
	"rankTo",
	"endedBy",
	"evidence",
	"pendingApproval",
	"approvedBy",
	"notify",
	"distribution",
];

export const historyItem = isObjectOf(historyFields, { optional: historyOptional });

const historyListFields = Object.fromEntries(Object.entries(historyFields).filter(([name]) => name !== "type"));
export const historyListItem = isObjectOf(historyListFields, { optional: historyOptional });

/** A workspace's `premium` fields but `managedBy`, whose field names differ in the deployed profile. */
export const premiumFields = { is: isBoolean, subscriptionId: isString, planType: isString };

/** The workspace fields with a field check each (deployed-shapes.ts changes `owner` and `premium`). */
export const workspaceFields = {
	groupId: isString,
	owner: isObjectOf({ serviceId: isString, platformId: isString }),
	minSyncRole: isNumber,
	loaderId: isString,
	currentDistribution: isNumber,
	distributionPeriod: isString,
	distributionDMs: isBoolean,
	premium: isObjectOf({ ...premiumFields, managedBy: isObjectOf({ platformId: isString, customerId: isString }) }),
	tags: isArrayOf(isString),
	created: isDateTime,
	brandColor: isString,
	groupName: isString,
	syncing: isBoolean,
	lastSynced: isDateTime,
	trackedStaff: isNumber,
	overrideRoleMaximumSize: isNumber,
	banStatus: isObjectOf({ is: isBoolean, reason: isString, bannedBy: isString }),
};
export const workspace = isObjectOf(workspaceFields);

const orderFields = {
	_id: isString,
	groupId: isString,
	customerId: isString,
	cashierId: isString,
	items: isArrayOf(isObjectOf({ item: isString, quantity: isNumber })),
	placeId: isString,
	gameId: isString,
	created: isDateTime,
	log: isArrayOf(isObjectOf({ event: isString, userId: isString, date: isDateTime })),
	involvedUsers: isArrayOf(isString),
	lastModified: isDateTime,
};
export const createdOrder = isObjectOf(orderFields);
export const releasedOrder = isObjectOf({ ...orderFields, status: isString });

const minutes = isObjectOf({
	total: isNumber,
	active: isNumber,
	inactive: isNumber,
	typing: isNumber,
	messages: isNumber,
});

export const activitySummary = isObjectOf({
	_id: isString,
	userId: isString,
	groupId: isString,
	distribution: isString,
	sessions: isArrayOf(isString),
	minutes,
	goals: isPlainObject,
	created: isDateTime,
	attendedSessions: isArrayOf(isString),
	updated: isDateTime,
});

export const activitySession = isObjectOf({
	_id: isString,
	groupId: isNumber,
	userId: isNumber,
	gameId: isNumber,
	placeId: isNumber,
	internalGameId: isString,
	platform: isString,
	staff: isBoolean,
	inGame: isBoolean,
	distribution: isNumber,
	minutes,
	started: isDateTime,
	ended: isDateTime,
	created: isDateTime,
});

export const runningGame = isObjectOf({
	_id: isString,
	version: isString,
	groupId: isString,
	internalGameId: isString,
	gameId: isNumber,
	placeId: isNumber,
	jobId: isString,
	privateServerId: isString,
	privateServerOwnerId: isNumber,
	placeVersion: isString,
	players: isArrayOf(isString),
	lastPing: isDateTime,
	created: isDateTime,
});

export const runningPlayer = isObjectOf({
	_id: isString,
	runningGameId: isString,
	groupId: isString,
	internalGameId: isString,
	userId: isString,
	platform: isIn(["Phone", "Tablet", "Console", "Desktop", "unknown"]),
	isStaff: isBoolean,
	joined: isDateTime,
});

export const approvalStep = isObjectOf({
	index: isNumber,
	label: isString,
	type: isString,
	approverIds: isArrayOf(isString),
	status: isString,
	decidedBy: isString,
	decidedAt: isDateTime,
	note: isString,
});

export const timeOffRequest = isObjectOf({
	_id: isString,
	groupId: isString,
	userId: isString,
	reason: isString,
	starts: isDateTime,
	ends: isDateTime,
	status: isString,
	created: isDateTime,
	teamId: isString,
	reviewedBy: isString,
	reviewNote: isString,
	reviewedAt: isDateTime,
	approvalChain: isArrayOf(approvalStep),
	currentStepIndex: isNumber,
	currentApproverIds: isArrayOf(isString),
});

export const callMessage = isObjectOf({
	username: isString,
	userId: isNumber,
	message: isString,
	id: isString,
	origin: isString,
	sentFrom: isString,
	created: isDateTime,
});

export const teamMembership = isObjectOf({
	teamId: isString,
	teamName: isString,
	roleId: isString,
	roleName: isString,
	isLead: isBoolean,
	created: isDateTime,
});

const success = isExactly(true);

/** playerJoin's success answer, field by field (the deployed profile adds three). */
export const playerJoinFields = {
	success,
	banned: isBoolean,
	reason: isString,
	isStaff: isBoolean,
	sessionId: isString,
	runningPlayerId: isString,
};

/** The success answer of each operation (endpoint table of the interface). */
export const answers = {
	recordHistory: isObjectOf({ success, history: historyItem }),
	listHistory: isObjectOf({ success, history: isArrayOf(historyListItem) }),
	listHistoryEmpty: isObjectOf({ success, reason: isString }),
	createServer: isObjectOf({ success, gameId: isString, runningGameId: isString, workspace }),
	playerJoin: isObjectOf(playerJoinFields),
	getActivity: isObjectOf({ success, summary: activitySummary, sessions: isArrayOf(activitySession) }),
	getRunningGame: isObjectOf({ success, runningGame, players: isArrayOf(runningPlayer) }),
	createOrder: isObjectOf({ success, order: createdOrder }),
	releaseOrder: isObjectOf({ success, order: releasedOrder }),
	listTimeOff: isObjectOf({ success, requests: isArrayOf(timeOffRequest) }),
	getTimeOff: isObjectOf({ success, request: timeOffRequest }),
	getCallMessages: isObjectOf({ success, status: isString, messages: isArrayOf(callMessage) }),
	getUserTeams: isObjectOf({ success, teams: isArrayOf(teamMembership) }),
	failure: isObjectOf({ success: isExactly(false), reason: isString }),
};

export function assertShape(check: Check, value: unknown, what = "answer"): void {
	assert.deepEqual(check(value, what), [], `${what} does not match the interface`);
}
