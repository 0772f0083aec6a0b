import { t } from "@rbxts/t";
import { supportArgSpecs } from "./resources/supportCalls";

// Argument checks run before anything is sent. Each rule says in words what it expects, so the `invalid` error
// names the field and the expectation. Unknown fields are refused: in Luau a typo would otherwise be dropped.

/** A check and the words that describe what it expects. @internal */
export type Rule = readonly [check: (value: unknown) => boolean, expects: string];

/** Required and optional fields of an argument table. @internal */
export interface ArgSpec {
	readonly required: { readonly [name: string]: Rule };
	readonly optional?: { readonly [name: string]: Rule };
}

const MAX_ID = 256;
const MAX_TEXT = 10_000;
const MAX_SAFE_INTEGER = 2 ** 53;

/** A number that is neither NaN nor infinite. @internal */
export const isFiniteNumber = (value: unknown): value is number =>
	typeIs(value, "number") && value === value && value > -math.huge && value < math.huge;

/** A non-empty identifier without control characters. @internal */
export const idRule: Rule = [
	(value) =>
		typeIs(value, "string") && value.size() > 0 && value.size() <= MAX_ID && value.find("%c")[0] === undefined,
	`a non-empty string of at most ${MAX_ID} characters`,
];
/**
 * An id the service made (a running game id): sent back as it came, so it is bounded only loosely. A registration
 * whose id is longer is refused by the integration itself, once, rather than every join after it.
 * @internal
 */
export const MAX_SERVICE_ID = 1024;
export const serviceIdRule: Rule = [
	(value) =>
		typeIs(value, "string") &&
		value.size() > 0 &&
		value.size() <= MAX_SERVICE_ID &&
		value.find("%c")[0] === undefined,
	`a non-empty string of at most ${MAX_SERVICE_ID} characters`,
];
const textRule: Rule = [
	(value) => typeIs(value, "string") && value.size() <= MAX_TEXT,
	`a string of at most ${MAX_TEXT} characters`,
];
const shortTextRule: Rule = [
	(value) => typeIs(value, "string") && value.size() <= MAX_ID && value.find("%c")[0] === undefined,
	`a string of at most ${MAX_ID} characters`,
];
const boolRule: Rule = [(value) => typeIs(value, "boolean"), "a boolean"];
const robloxIdRule: Rule = [
	(value) => isFiniteNumber(value) && value >= 0 && value % 1 === 0 && value < MAX_SAFE_INTEGER,
	"a whole number of 0 or more",
];
const positiveIdRule: Rule = [
	(value) => isFiniteNumber(value) && value > 0 && value % 1 === 0 && value < MAX_SAFE_INTEGER,
	"a whole number above 0",
];
const positiveRule: Rule = [(value) => isFiniteNumber(value) && value > 0, "a finite number above 0"];
const daysRule: Rule = [
	(value) => isFiniteNumber(value) && value >= 0 && value <= 36_500,
	"a number of days from 0 to 36500",
];
const historyTypeRule: Rule = [
	t.literal("promotion", "suspension", "termination", "writeup"),
	"one of promotion, suspension, termination, writeup",
];
const platformRule: Rule = [
	t.literal("Phone", "Tablet", "Console", "Desktop", "unknown"),
	"one of Phone, Tablet, Console, Desktop, unknown",
];
const tzOffsetRule: Rule = [
	(value) => {
		if (!typeIs(value, "string")) return false;
		const [hours, minutes] = value.match("^[+-](%d%d):(%d%d)$");
		if (!typeIs(hours, "string") || !typeIs(minutes, "string")) return false;
		return tonumber(hours)! <= 14 && tonumber(minutes)! <= 59;
	},
	"an offset like +02:00 or -05:30",
];
const orderItemsRule: Rule = [
	(value) => {
		if (!t.array(t.any)(value) || value.size() === 0 || value.size() > 1000) return false;
		for (const line of value) {
			if (checkArgs({ required: { item: idRule, quantity: positiveRule } }, line) !== undefined) return false;
		}
		return true;
	},
	"a non-empty array of { item: string, quantity: number above 0 }",
];

const emptyListRule: Rule = [(value) => typeIs(value, "table") && next(value)[0] === undefined, "an empty list"];

/** Argument specs per operation (only those with a body or more than one path value). @internal */
export const argSpecs = {
	recordHistory: {
		required: {
			actioningUser: idRule,
			userId: idRule,
			reason: textRule,
			type: historyTypeRule,
			approval_required: boolRule,
		},
		optional: { notify: boolRule, role: shortTextRule, expiresInDays: daysRule },
	},
	createServer: {
		required: {
			gameId: robloxIdRule,
			placeId: robloxIdRule,
			jobId: shortTextRule,
			privateServerId: shortTextRule,
			privateServerOwnerId: robloxIdRule,
			placeVersion: shortTextRule,
		},
	},
	playerJoin: {
		required: {
			playerId: positiveIdRule,
			safechat: boolRule,
			username: idRule,
			tzOffset: tzOffsetRule,
			platform: platformRule,
			gameId: serviceIdRule,
		},
	},
	createOrder: {
		required: {
			customerId: idRule,
			cashierId: idRule,
			items: orderItemsRule,
			placeId: shortTextRule,
			gameId: shortTextRule,
		},
	},
	releaseOrder: { required: { actorId: idRule } },
	playerLeave: {
		required: {
			gameId: serviceIdRule,
			playerId: idRule,
			events: emptyListRule,
			final: boolRule,
			leftTime: [(value) => isFiniteNumber(value) && value > 0, "a time in Unix seconds"],
		},
	},
	endServer: { required: { gameId: serviceIdRule } },
	getServer: { required: { gameId: serviceIdRule } },
	...supportArgSpecs,
} satisfies { [operation: string]: ArgSpec };

/**
 * Checks an argument table against a spec: undefined when it passes, else a text naming the first bad field.
 * @internal
 */
export function checkArgs(spec: ArgSpec, value: unknown, label = "arguments"): string | undefined {
	if (!typeIs(value, "table")) return `${label} must be a table`;
	const record = value as Record<string, unknown>;
	for (const [key] of pairs(record)) {
		if (!typeIs(key, "string")) return `${label} must have only named fields`;
		if (spec.required[key] === undefined && spec.optional?.[key] === undefined) {
			return `${label} has an unknown field \`${key}\``;
		}
	}
	const names = new Array<string>();
	for (const [name] of pairs(spec.required)) names.push(name as string);
	names.sort();
	for (const name of names) {
		const [check, expects] = spec.required[name];
		if (record[name] === undefined) return `\`${name}\` is required (${expects})`;
		if (!check(record[name])) return `\`${name}\` must be ${expects}`;
	}
	if (spec.optional !== undefined) {
		for (const [name, [check, expects]] of pairs(spec.optional)) {
			const field = record[name as string];
			if (field !== undefined && !check(field)) return `\`${name}\` must be ${expects}`;
		}
	}
	return undefined;
}

/**
 * Percent-encodes one path segment (everything but unreserved characters), so an id can never change the path.
 * @internal
 */
export function encodePathSegment(segment: string): string {
	const [encoded] = segment.gsub("[^%w%-%._~]", (character: string) => string.format("%%%02X", character.byte()[0]));
	return encoded;
}
