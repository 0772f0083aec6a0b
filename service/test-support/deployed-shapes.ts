/**
 * Answer shapes of the deployed profile, where they differ from the interface's (test-support/shapes.ts):
 * what the deployed service really sends (docs/service-contract.md#what-the-deployed-service-sends).
 */
import { isArrayOf, isBoolean, isDateTime, isExactly, isNumber, isObjectOf, isOneOf, isString } from "../src/checks.js";
import {
	activitySession,
	historyFields,
	historyOptional,
	playerJoinFields,
	premiumFields,
	runningGame,
	workspaceFields,
} from "./shapes.js";

const success = isExactly(true);

/** 24-hex database ids, the deployed service's form for running games, every `_id` and calls. */
export const DOCUMENT_ID = /^[0-9a-f]{24}$/;

/** The interface's workspace with the deployed field names in `owner` and `premium.managedBy`. */
export const deployedWorkspace = isObjectOf({
	...workspaceFields,
	owner: isObjectOf({ id: isString, platform: isString }),
	premium: isObjectOf({ ...premiumFields, managedBy: isObjectOf({ platform: isString, customer: isString }) }),
});

const joinFields = {
	...playerJoinFields,
	tracked: isBoolean,
	needsConsent: isBoolean,
	expiration: isDateTime,
};

/** The interface's history item with looser types for four fields, and `ended` optional. */
export const deployedHistoryItem = isObjectOf(
	{
		...historyFields,
		type: isString,
		userId: isOneOf(isBoolean, isString, isNumber),
		disciplinarianId: isOneOf(isString, isNumber),
		rankTo: isOneOf(isString, isExactly(false)),
	},
	{ optional: [...historyOptional, "ended"] },
);

export const deployedAnswers = {
	createServer: isObjectOf({
		success,
		gameId: isString,
		runningGameId: isString,
		workspace: deployedWorkspace,
		serverName: isString,
		created: isDateTime,
		moderation: isBoolean,
		afkReportingSettings: isObjectOf({
			altTab: isObjectOf({ active: isBoolean, timeUntilIdle: isNumber }, { optional: ["timeUntilIdle"] }),
			movement: isObjectOf({ active: isBoolean, timeUntilIdle: isNumber }, { optional: ["timeUntilIdle"] }),
		}),
		privacy: isObjectOf({ trackStaffOnly: isBoolean, requireConsent: isBoolean }),
	}),
	/** `reason` only when banned; the privacy mode leaves out `banned` (when false), `sessionId`, `runningPlayerId`. */
	playerJoin: isObjectOf(joinFields, { optional: ["reason", "banned", "sessionId", "runningPlayerId"] }),
	getActivityNone: isObjectOf({ success, summary: isExactly(null), sessions: isArrayOf(activitySession) }),
	listHistory: isObjectOf({ success, history: isArrayOf(deployedHistoryItem) }),
	playerLeave: isObjectOf({ success, finalized: isBoolean }),
	endServer: isObjectOf({ success }),
	getServer: isObjectOf({ success, workspace: deployedWorkspace }),
	/** The interface's running players, each with `userSessionId`: the session its join opened. */
	getRunningGame: isObjectOf({
		success,
		runningGame,
		players: isArrayOf(
			isObjectOf({
				_id: isString,
				runningGameId: isString,
				groupId: isString,
				internalGameId: isString,
				userId: isString,
				platform: isString,
				isStaff: isBoolean,
				joined: isDateTime,
				userSessionId: isString,
			}),
		),
	}),
	/** A final playerLeave chunk without leftTime: `error`, not `reason`. */
	errorFailure: isObjectOf({ success: isExactly(false), error: isString }),
	nestNotFound: isObjectOf({ message: isString, error: isExactly("Not Found"), statusCode: isExactly(404) }),
};
