import { CALL_STATUSES } from "../model.js";
import { EXTENSION_OPERATION_IDS, OPERATION_IDS } from "../operations.js";
import { FAULT_KINDS } from "../faults/fault-book.js";

function body(properties: Record<string, object>, required: string[]) {
	return { type: "object", additionalProperties: false, required, properties } as const;
}

export const faultBody = body(
	{
		operation: { type: "string", enum: [...OPERATION_IDS, ...EXTENSION_OPERATION_IDS, "*"] },
		status: { type: "integer", minimum: 200, maximum: 599 },
		retryAfter: { type: "number", minimum: 0 },
		kind: { type: "string", enum: FAULT_KINDS },
		latencyMs: { type: "number", minimum: 0, maximum: 120_000 },
		times: { type: "integer", minimum: 1 },
		fields: {
			type: "object",
			maxProperties: 10,
			// A top-level field or a dotted path into the answer (names and list positions from 0).
			propertyNames: { pattern: "^[A-Za-z0-9_$]+(\\.[A-Za-z0-9_$]+)*$", maxLength: 200 },
			additionalProperties: { type: "string", maxLength: 100 },
		},
	},
	["operation"],
);

export const configBody = body(
	{ forgetAfterSeconds: { type: "number", exclusiveMinimum: 0 }, privacy: { type: "boolean" } },
	[],
);

export const forgetBody = body({ internalGameId: { type: "string", minLength: 1 } }, ["internalGameId"]);

export const agentMessageBody = body(
	{ username: { type: "string" }, userId: { type: "number" }, message: { type: "string" } },
	["username", "userId", "message"],
);

/** Filler for a long call: `count` messages of `length` characters each, from the player or an agent. */
export const transcriptFillerBody = body(
	{
		count: { type: "integer", minimum: 1, maximum: 10_000 },
		length: { type: "integer", minimum: 1, maximum: 10_000 },
		origin: { type: "string", enum: ["user", "agent"] },
	},
	["count", "length"],
);

export const callStatusBody = body({ status: { type: "string", enum: CALL_STATUSES } }, ["status"]);

const userId = { type: "string", pattern: "^-?\\d+$" };
const groupId = { type: "string", minLength: 1 };
/** An AFK signal: the deployed service's `{active, timeUntilIdle?}`, or the older `true`/number shapes. */
const signal = {
	anyOf: [
		{ type: "boolean" },
		{ type: "number" },
		{
			type: "object",
			required: ["active"],
			additionalProperties: false,
			properties: { active: { type: "boolean" }, timeUntilIdle: { type: "integer", minimum: 0, maximum: 3600 } },
		},
	],
};

/** A dashboard action: `runningGameId` names the server; every other field is the action, kept as given. */
export const actionBody = {
	type: "object",
	required: ["runningGameId", "type"],
	properties: { runningGameId: { type: "string", minLength: 1 } },
} as const;

export const chatBody = body(
	{ runningGameId: { type: "string", minLength: 1 }, userId, actorId: userId, message: { type: "string" } },
	["runningGameId", "userId", "actorId"],
);

export const actorBody = body({ actorId: userId }, ["actorId"]);

export const settingsBody = body(
	{
		groupId,
		moderation: { type: "boolean" },
		privacy: body({ trackStaffOnly: { type: "boolean" }, requireConsent: { type: "boolean" } }, []),
		afkReportingSettings: body({ altTab: signal, movement: signal }, []),
	},
	[],
);

export const userMarkBody = body({ userId, groupId, on: { type: "boolean" } }, ["userId"]);

export const commandGrantBody = body(
	{ commandId: { type: "string", minLength: 1 }, userId, groupId, on: { type: "boolean" } },
	["commandId", "userId"],
);

export const rankingKeyBody = body({ key: { type: "string", minLength: 1, maxLength: 1024 }, groupId }, ["key"]);

export const verifyCodeBody = body(
	{
		linkedTo: { type: "string", minLength: 1 },
		code: { type: "string", minLength: 1 },
		groupId,
		expiresInSeconds: { type: "number" },
	},
	["linkedTo"],
);

/** The official module's commands, registered for a game and place with grants (UserId → command ids). */
export const officialCommandsBody = body(
	{
		gameId: { type: "integer" },
		placeId: { type: "integer" },
		groupId,
		grants: { type: "object", additionalProperties: { type: "array", items: { type: "string", minLength: 1 } } },
	},
	["gameId", "placeId"],
);

export const groupRolesBody = body(
	{
		groupId,
		roles: {
			type: "array",
			items: body(
				{
					id: { type: "integer", minimum: 1 },
					name: { type: "string", minLength: 1 },
					rank: { type: "integer", minimum: 0, maximum: 255 },
				},
				["id", "name", "rank"],
			),
		},
	},
	["roles"],
);

export const rankingFailuresBody = body({ groupId, times: { type: "integer", minimum: 0 } }, ["times"]);
