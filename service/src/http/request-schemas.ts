import { HISTORY_TYPES, PLATFORMS } from "../model.js";

/**
 * JSON schemas for the request bodies. Every body is an object with no undocumented fields; beyond the
 * interface's types and value sets, only limits that keep stored data meaningful are added (see README).
 */
const id = { type: "string", minLength: 1 } as const;

function body(properties: Record<string, object>, required: string[]) {
	return { type: "object", additionalProperties: false, required, properties } as const;
}

export const recordHistoryBody = body(
	{
		actioningUser: id,
		userId: id,
		reason: { type: "string" },
		type: { type: "string", enum: HISTORY_TYPES },
		approval_required: { type: "boolean" },
		notify: { type: "boolean" },
		role: { type: "string" },
		expiresInDays: { type: "number", minimum: 0, maximum: 36500 },
	},
	["actioningUser", "userId", "reason", "type", "approval_required"],
);

export const createServerBody = body(
	{
		gameId: { type: "number" },
		placeId: { type: "number" },
		jobId: { type: "string" },
		privateServerId: { type: "string" },
		privateServerOwnerId: { type: "number" },
		placeVersion: { type: "string" },
	},
	["gameId", "placeId", "jobId", "privateServerId", "privateServerOwnerId", "placeVersion"],
);

/** ISO 8601 UTC offsets: Z, ±HH, ±HHMM or ±HH:MM (the library sends ±HH:MM). */
export const TZ_OFFSET_PATTERN = "^(Z|[+-](0\\d|1[0-4])(:?[0-5]\\d)?)$";

export const playerJoinBody = body(
	{
		playerId: { type: "number" },
		safechat: { type: "boolean" },
		username: { type: "string" },
		tzOffset: { type: "string", pattern: TZ_OFFSET_PATTERN },
		platform: { type: "string", enum: PLATFORMS },
		gameId: id,
	},
	["playerId", "safechat", "username", "tzOffset", "platform", "gameId"],
);

export const createOrderBody = body(
	{
		customerId: id,
		cashierId: id,
		items: {
			type: "array",
			minItems: 1,
			items: body({ item: id, quantity: { type: "number", exclusiveMinimum: 0 } }, ["item", "quantity"]),
		},
		placeId: { type: "string" },
		gameId: { type: "string" },
	},
	["customerId", "cashierId", "items", "placeId", "gameId"],
);

export const releaseOrderBody = body({ actorId: id }, ["actorId"]);

/** Hints for fields whose pattern alone would make a cryptic reason. */
export const FORMAT_HINTS: Record<string, string> = {
	tzOffset: "a UTC offset such as -05:00, +05:30 or Z",
};

/** Path parameters are strings; an empty one ("/time-off/") addresses nothing. */
export function pathParams(...names: string[]) {
	return {
		type: "object",
		required: names,
		properties: Object.fromEntries(names.map((name) => [name, id])),
	} as const;
}
