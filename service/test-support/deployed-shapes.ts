/**
 * Answer shapes of the deployed profile, where they differ from the interface's (test-support/shapes.ts):
 * what the deployed service really sends (DESIGN.md §3).
 */
import { isArrayOf, isBoolean, isDateTime, isExactly, isNumber, isObjectOf, isOneOf, isString } from "../src/checks.js";
import { activitySession } from "./shapes.js";

const success = isExactly(true);

/** 24-hex database ids, the deployed service's form for running games, every `_id` and calls. */
export const DOCUMENT_ID = /^[0-9a-f]{24}$/;

export const deployedWorkspace = isObjectOf({
	groupId: isString,
	owner: isObjectOf({ id: isString, platform: isString }),
	minSyncRole: isNumber,
	loaderId: isString,
	currentDistribution: isNumber,
	distributionPeriod: isString,
	distributionDMs: isBoolean,
	premium: isObjectOf({
		is: isBoolean,
		subscriptionId: isString,
		planType: isString,
		managedBy: isObjectOf({ platform: isString, customer: isString }),
	}),
	tags: isArrayOf(isString),
	created: isDateTime,
	brandColor: isString,
	groupName: isString,
	syncing: isBoolean,
	lastSynced: isDateTime,
	trackedStaff: isNumber,
	overrideRoleMaximumSize: isNumber,
	banStatus: isObjectOf({ is: isBoolean, reason: isString, bannedBy: isString }),
});

const joinFields = {
	success,
	isStaff: isBoolean,
	sessionId: isString,
	runningPlayerId: isString,
	tracked: isBoolean,
	needsConsent: isBoolean,
	expiration: isDateTime,
	banned: isBoolean,
	reason: isString,
};

export const deployedHistoryItem = isObjectOf(
	{
		_id: isString,
		groupId: isString,
		type: isString,
		userId: isOneOf(isBoolean, isString, isNumber),
		disciplinarianId: isOneOf(isString, isNumber),
		reason: isString,
		created: isDateTime,
		expires: isDateTime,
		rankTo: isOneOf(isString, isExactly(false)),
		rankFrom: isString,
		ended: isBoolean,
		endedBy: isString,
		evidence: isArrayOf(isString),
		pendingApproval: isBoolean,
		approvedBy: isString,
		notify: isBoolean,
		distribution: isNumber,
	},
	{
		optional: [
			"expires",
			"rankTo",
			"ended",
			"endedBy",
			"evidence",
			"pendingApproval",
			"approvedBy",
			"notify",
			"distribution",
		],
	},
);

export const deployedAnswers = {
	createServer: isObjectOf({
		success,
		gameId: isString,
		runningGameId: isString,
		workspace: deployedWorkspace,
		serverName: isString,
		created: isDateTime,
	}),
	/** `reason` only when banned; the privacy mode leaves out `banned` (when false), `sessionId`, `runningPlayerId`. */
	playerJoin: isObjectOf(joinFields, { optional: ["reason", "banned", "sessionId", "runningPlayerId"] }),
	getActivityNone: isObjectOf({ success, summary: isExactly(null), sessions: isArrayOf(activitySession) }),
	listHistory: isObjectOf({ success, history: isArrayOf(deployedHistoryItem) }),
	playerLeave: isObjectOf({ success, finalized: isBoolean }),
	endServer: isObjectOf({ success }),
	getServer: isObjectOf({ success, workspace: deployedWorkspace }),
	/** A final playerLeave chunk without leftTime: `error`, not `reason`. */
	errorFailure: isObjectOf({ success: isExactly(false), error: isString }),
	nestNotFound: isObjectOf({ message: isString, error: isExactly("Not Found"), statusCode: isExactly(404) }),
};
