import { readFileSync } from "node:fs";
import defaultSeedJson from "../seed/default.json";
import {
	type Check,
	isArrayOf,
	isBoolean,
	isDateTime,
	isIn,
	isNonEmptyString,
	isNumber,
	isObjectOf,
	isOneOf,
	isPlainObject,
	isString,
} from "./checks.js";
import {
	type ActivitySession,
	CALL_STATUSES,
	type CallMessage,
	type CallStatus,
	HISTORY_TYPES,
	type HistoryItem,
	type Minutes,
	PLATFORMS,
	type TimeOffRequest,
	type WorkspaceProfile,
} from "./model.js";

/** The whole in-memory world the service starts from; `service/README.md` documents the format. */
export interface Seed {
	workspaces: WorkspaceSeed[];
}

export interface WorkspaceSeed {
	key: string;
	workspace: WorkspaceProfile;
	staff: { userId: string; username: string; rank: string }[];
	bans: { userId: string; reason: string; bannedBy: string }[];
	teams: {
		teamId: string;
		teamName: string;
		members: { userId: string; roleId: string; roleName: string; isLead: boolean; created: string }[];
	}[];
	timeOff: Omit<TimeOffRequest, "groupId">[];
	calls: CallSeed[];
	activity: ActivitySeed[];
	history: Omit<HistoryItem, "groupId">[];
}

export interface CallSeed {
	callId: string;
	status: CallStatus;
	messages: (Omit<CallMessage, "created"> & { afterSeconds: number })[];
}

export interface ActivitySeed {
	userId: string;
	_id: string;
	distribution: string;
	minutes: Minutes;
	goals: Record<string, unknown>;
	created: string;
	updated: string;
	attendedSessions: string[];
	sessions: Omit<ActivitySession, "groupId" | "userId">[];
}

export class SeedError extends Error {
	constructor(
		readonly source: string,
		readonly problems: string[],
	) {
		const shown = problems.slice(0, 10).join("\n  ");
		const more = problems.length > 10 ? `\n  ...and ${problems.length - 10} more` : "";
		super(`invalid seed (${source}):\n  ${shown}${more}`);
		this.name = "SeedError";
	}
}

const isUserId: Check = (value, path) =>
	typeof value === "string" && !/^-?\d+$/.test(value)
		? [`${path} must be a Roblox user id written as a string of digits (got ${JSON.stringify(value)})`]
		: isString(value, path);

const isMinutes = isObjectOf({
	total: isNumber,
	active: isNumber,
	inactive: isNumber,
	typing: isNumber,
	messages: isNumber,
});

const isWorkspaceProfile = isObjectOf({
	groupId: (value, path) =>
		typeof value === "string" && !/^\d+$/.test(value)
			? [`${path} must be a Roblox group id written as a string of digits`]
			: isString(value, path),
	owner: isObjectOf({ serviceId: isString, platformId: isString }),
	minSyncRole: isNumber,
	currentDistribution: isNumber,
	distributionPeriod: isString,
	distributionDMs: isBoolean,
	premium: isObjectOf({
		is: isBoolean,
		subscriptionId: isString,
		planType: isString,
		managedBy: isObjectOf({ platformId: isString, customerId: isString }),
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

const isApprovalStep = isObjectOf({
	index: isNumber,
	label: isString,
	type: isString,
	approverIds: isArrayOf(isString),
	status: isString,
	decidedBy: isString,
	decidedAt: isDateTime,
	note: isString,
});

const isTimeOffSeed = isObjectOf({
	_id: isNonEmptyString,
	userId: isUserId,
	reason: isString,
	starts: isDateTime,
	ends: isDateTime,
	status: isString,
	created: isDateTime,
	teamId: isString,
	reviewedBy: isString,
	reviewNote: isString,
	reviewedAt: isDateTime,
	approvalChain: isArrayOf(isApprovalStep),
	currentStepIndex: isNumber,
	currentApproverIds: isArrayOf(isString),
});

const isCallSeed = isObjectOf({
	callId: isNonEmptyString,
	status: isIn(CALL_STATUSES),
	messages: isArrayOf(
		isObjectOf({
			afterSeconds: (value, path) =>
				typeof value === "number" && value < 0 ? [`${path} must not be negative`] : isNumber(value, path),
			id: isNonEmptyString,
			username: isString,
			userId: isNumber,
			message: isString,
			origin: isString,
			sentFrom: isString,
		}),
	),
});

const isActivitySeed = isObjectOf({
	userId: isUserId,
	_id: isNonEmptyString,
	distribution: isString,
	minutes: isMinutes,
	goals: isPlainObject,
	created: isDateTime,
	updated: isDateTime,
	attendedSessions: isArrayOf(isString),
	sessions: isArrayOf(
		isObjectOf({
			_id: isNonEmptyString,
			gameId: isNumber,
			placeId: isNumber,
			internalGameId: isString,
			platform: isIn(PLATFORMS),
			staff: isBoolean,
			inGame: isBoolean,
			distribution: isNumber,
			minutes: isMinutes,
			started: isDateTime,
			ended: isDateTime,
			created: isDateTime,
		}),
	),
});

const isHistorySeed = isObjectOf(
	{
		_id: isNonEmptyString,
		type: isIn(HISTORY_TYPES),
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
	},
	{
		optional: [
			"expires",
			"rankTo",
			"endedBy",
			"evidence",
			"pendingApproval",
			"approvedBy",
			"notify",
			"distribution",
		],
	},
);

const isWorkspaceSeed = isObjectOf({
	key: isNonEmptyString,
	workspace: isWorkspaceProfile,
	staff: isArrayOf(isObjectOf({ userId: isUserId, username: isString, rank: isString })),
	bans: isArrayOf(isObjectOf({ userId: isUserId, reason: isString, bannedBy: isString })),
	teams: isArrayOf(
		isObjectOf({
			teamId: isNonEmptyString,
			teamName: isString,
			members: isArrayOf(
				isObjectOf({
					userId: isUserId,
					roleId: isString,
					roleName: isString,
					isLead: isBoolean,
					created: isDateTime,
				}),
			),
		}),
	),
	timeOff: isArrayOf(isTimeOffSeed),
	calls: isArrayOf(isCallSeed),
	activity: isArrayOf(isActivitySeed),
	history: isArrayOf(isHistorySeed),
});

const isSeed = isObjectOf({ workspaces: isArrayOf(isWorkspaceSeed) });

function duplicates(values: string[]): string[] {
	return [...new Set(values.filter((value, index) => values.indexOf(value) !== index))];
}

/** Cross-record rules the structural check cannot express. */
function consistencyProblems(seed: Seed): string[] {
	const problems: string[] = [];
	if (seed.workspaces.length === 0) problems.push("seed.workspaces must hold at least one workspace");
	for (const key of duplicates(seed.workspaces.map((w) => w.key))) {
		// The key itself is never printed, only where it repeats.
		problems.push(`seed.workspaces: two workspaces share a key (ending in ${JSON.stringify(key.slice(-4))})`);
	}
	for (const groupId of duplicates(seed.workspaces.map((w) => w.workspace.groupId))) {
		problems.push(`seed.workspaces: groupId ${groupId} is used twice`);
	}
	// Control endpoints address calls without a key, so call ids are unique across workspaces.
	for (const callId of duplicates(seed.workspaces.flatMap((w) => w.calls.map((c) => c.callId)))) {
		problems.push(`seed: call id ${JSON.stringify(callId)} is used twice`);
	}
	seed.workspaces.forEach((w, index) => {
		const at = `seed.workspaces[${index}]`;
		for (const id of duplicates(w.timeOff.map((r) => r._id)))
			problems.push(`${at}.timeOff: _id ${id} is used twice`);
		for (const id of duplicates(w.activity.map((a) => a.userId)))
			problems.push(`${at}.activity: user ${id} has two summaries`);
		for (const id of duplicates(w.teams.map((t) => t.teamId)))
			problems.push(`${at}.teams: teamId ${id} is used twice`);
	});
	return problems;
}

/** Checks an untrusted value against the seed format; throws a SeedError listing every problem. */
export function validateSeed(value: unknown, source: string): Seed {
	const structural = isSeed(value, "seed");
	if (structural.length > 0) throw new SeedError(source, structural);
	const seed = value as Seed;
	const consistency = consistencyProblems(seed);
	if (consistency.length > 0) throw new SeedError(source, consistency);
	return seed;
}

export function defaultSeed(): Seed {
	return validateSeed(structuredClone(defaultSeedJson), "built-in default seed");
}

export function loadSeedFile(file: string): Seed {
	let text: string;
	try {
		text = readFileSync(file, "utf8");
	} catch (error) {
		throw new SeedError(file, [`cannot read the file: ${(error as Error).message}`]);
	}
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		throw new SeedError(file, [`not valid JSON: ${(error as Error).message}`]);
	}
	return validateSeed(parsed, file);
}
