import { KnownValue, knownValues } from "../../shared/knownValues";
import type { ArgSpec, Rule } from "../arguments";
import { isFiniteNumber, serviceIdRule } from "../arguments";
import type { CallOptions } from "../callOptions";
import { anyTable, array, literal, object, Reader, req } from "../reader";
import { Call, route } from "../routeSpec";

// The deployed service's sync route, `POST /activity/sendData` (docs/service-contract.md): its body, its argument
// rules, its answer reader, its route and its method (`client.extensions.sendData`), in one place. The body never
// has `players`: that field is a roster, and every running player of this server missing from it is removed at once (non-staff sessions deleted,
// staff sessions ended), so a roster that is not complete and keyed exactly as the joins were loses sessions. The
// argument rules refuse the field, so no caller can send it by mistake.

/**
 * One session event as the sync sends it, in the deployed service's shape (docs/service-contract.md#session-events):
 * `active`, `idle`, `typing` or `message` of the player `user` (= `userKey`, the UserId as a string), for
 * `sessionIds.userGameSession` (a join answer's `sessionId`), at `datetime` (Unix ms; `date` is its whole seconds).
 * The service skips an event without `user` silently and deduplicates by session, type and `datetime`, so a repeat
 * is harmless and changes within one second stay apart.
 * @see README#deployed-service-extensions
 */
export interface SessionEventBody {
	readonly type: "active" | "idle" | "typing" | "message";
	/** Unix seconds. */
	readonly date: number;
	/** Unix milliseconds. */
	readonly datetime: number;
	/** The player's UserId, as a string. */
	readonly user: string;
	/** The same UserId, as a string. */
	readonly userKey: string;
	readonly sessionIds: { readonly userGameSession: string };
	/** The chat line of a `message` event, base64 of its UTF-8 bytes. */
	readonly message?: string;
	/** `true` with `message`: it is base64. */
	readonly encoded?: true;
	/** A whispered `message`: the UserId it went to, as a string. */
	readonly to?: string;
}

/**
 * Arguments of `client.extensions.sendData` (`POST /activity/sendData`). There is no `players` field: see the
 * README on why the roster is never sent.
 * @see README#deployed-service-extensions
 */
export interface SendDataArgs {
	/** The `runningGameId` the server was registered under. */
	readonly gameId: string;
	/** Pending session events; may be empty. */
	readonly events: ReadonlyArray<SessionEventBody>;
	/** A support call's player messages; the service appends them without dedup, so never repeat them blindly. */
	readonly chatEvents?: ReadonlyArray<unknown>;
}

/**
 * Every type of dashboard action StaffOps acts on, written once, with whether it names a player (by `userId`; such an
 * action may be passed on to the player's server). The answer's reader keeps these types (an action of another type
 * is left out, named in `dropped` as {@link UNKNOWN_ACTION_TYPE}); the game's dispatch has a case for each, which the
 * compiler checks; a cross-server message carries those that name a player.
 * @internal
 */
export const DASHBOARD_ACTION_TYPES = knownValues({
	kick: { forPlayer: true },
	notify: { forPlayer: true },
	shutdown: { forPlayer: false },
});

/** A type of dashboard action StaffOps knows. @internal */
export type DashboardActionType = KnownValue<typeof DASHBOARD_ACTION_TYPES.of>;

/** The types of dashboard action that name a player. @internal */
export type PlayerActionType = {
	[K in DashboardActionType]: (typeof DASHBOARD_ACTION_TYPES.of)[K]["forPlayer"] extends true ? K : never;
}[DashboardActionType];

/** How `dropped` names an action of a type StaffOps does not know. @internal */
export const UNKNOWN_ACTION_TYPE = "an action of an unknown type";

/**
 * A dashboard or Discord action the service handed over for this server: `kick` and `notify` name a player by
 * `userId`; `shutdown` is for the whole server. The key is redacted from `message` before it reaches anyone.
 * @see README#deployed-service-extensions
 */
export interface QueuedAction {
	readonly type: DashboardActionType;
	/** The player's UserId (kick, notify). */
	readonly userId?: number;
	/** The text to show; may be absent. */
	readonly message?: string;
}

/**
 * Answer of `client.extensions.sendData`. The service hands `queuedActions` and `ongoingChats` over at most once: a
 * lost answer loses them. Items the reader could not use are left out one by one; `dropped` says what each was.
 * @see README#deployed-service-extensions
 */
export interface SendDataAnswer {
	readonly success: true;
	/** The usable actions, in the service's order. */
	readonly queuedActions: ReadonlyArray<QueuedAction>;
	/** This server's support tickets (open, claimed, or closed and not yet acknowledged), as the service sends them. */
	readonly ongoingChats: ReadonlyArray<object>;
	/** Not sent by the service: one short phrase per item left out (for one warning per kind). */
	readonly dropped: ReadonlyArray<string>;
}

/**
 * The longest action message acted on, in bytes: what StaffOps' notification shows (1,000) and what fits a
 * MessagingService message (1 kB) with its framing. A longer one is cut, never dropped (after the key is redacted
 * from it, so no cut keeps part of a key). @internal
 */
export const MAX_ACTION_MESSAGE = 1000;
/**
 * The largest sync answer read, in bytes. The deployed service puts every open call's whole transcript in every
 * answer: 10 long calls made 1.2 MB, 50 make about 6 MB. Read piece by piece (`jsonSections.ts`), so its size costs
 * frames, not one long stall.
 * @internal
 */
export const MAX_SYNC_ANSWER_BYTES = 32_000_000;
/** The most events one sync carries. @internal */
export const MAX_SYNC_EVENTS = 200;

const EVENT_FIELDS = new Set(["type", "date", "datetime", "user", "userKey", "sessionIds", "message", "encoded", "to"]);
const isUserId = (value: unknown) => typeIs(value, "string") && value.match("^%d+$")[0] !== undefined;

const eventRule: Rule = [
	(value) => {
		if (!typeIs(value, "table")) return false;
		const event = value as Partial<Record<string, unknown>>;
		for (const [key] of pairs(event)) if (!typeIs(key, "string") || !EVENT_FIELDS.has(key)) return false;
		const sessionIds = event.sessionIds;
		return (
			(event.type === "active" || event.type === "idle" || event.type === "typing" || event.type === "message") &&
			isFiniteNumber(event.date) &&
			event.date > 0 &&
			isFiniteNumber(event.datetime) &&
			event.datetime > 0 &&
			isUserId(event.user) &&
			event.userKey === event.user &&
			typeIs(sessionIds, "table") &&
			serviceIdRule[0]((sessionIds as { userGameSession?: unknown }).userGameSession) &&
			(event.message === undefined ||
				(typeIs(event.message, "string") && event.message.size() <= 16_000 && event.encoded === true)) &&
			(event.encoded === undefined || event.message !== undefined) &&
			(event.to === undefined || isUserId(event.to))
		);
	},
	"",
];

const listOf = (rule: Rule, max: number, expects: string): Rule => [
	(value) => {
		if (!typeIs(value, "table")) return false;
		const items = value as Array<unknown>;
		let keys = 0;
		for (const [key] of pairs(items as object)) {
			keys += 1;
			if (!typeIs(key, "number")) return false;
		}
		if (keys !== items.size() || keys > max) return false;
		for (const item of items) if (!rule[0](item)) return false;
		return true;
	},
	expects,
];

/** Argument rules of `sendData`; `players` is not among them, so it is refused. @internal */
const sendDataArgSpec: ArgSpec = {
	required: {
		gameId: serviceIdRule,
		events: listOf(
			eventRule,
			MAX_SYNC_EVENTS,
			`a list of at most ${MAX_SYNC_EVENTS} session events { type, date, datetime, user, userKey, sessionIds: { userGameSession }, message?, encoded?, to? }`,
		),
	},
	optional: {
		chatEvents: listOf([(value) => typeIs(value, "table"), ""], 100, "a list of at most 100 chat events"),
	},
};

/** What is wrong with one queued action, or undefined when it is usable. */
function actionProblem(value: unknown): string | undefined {
	if (!typeIs(value, "table")) return "an action that is not an object";
	const action = value as Partial<Record<string, unknown>>;
	const kind = action.type;
	if (!DASHBOARD_ACTION_TYPES.is(kind)) return UNKNOWN_ACTION_TYPE;
	const message = action.message;
	if (message !== undefined && !typeIs(message, "string")) return `a ${kind} whose message is not text`;
	if (!DASHBOARD_ACTION_TYPES.of[kind].forPlayer) return undefined;
	// Tolerant: a user id sent as a digit string is read as the number it spells.
	const userId = typeIs(action.userId, "string") ? tonumber(action.userId) : action.userId;
	if (!isFiniteNumber(userId) || userId <= 0 || userId % 1 !== 0) return `a ${kind} whose userId is not a user id`;
	action.userId = userId;
	return undefined;
}

const anyValue: Reader<unknown> = { read: () => undefined };
const isList = (value: unknown) => array(anyValue).read(value, "") === undefined;
const base = object({ success: req(literal(true)) });

/**
 * Reads a `sendData` answer in place, tolerant item by item: an action of an unknown type, a `userId` that is not a
 * number, a message that is not text, a non-object ticket, or a field that is not a list (e.g. a roster-shaped object) is
 * left out and named in `dropped`; it never fails the answer or the other items.
 * @internal
 */
const sendDataReader: Reader<SendDataAnswer> = {
	read: (value, path) => {
		const problem = base.read(value, path);
		if (problem !== undefined) return problem;
		const answer = value as Record<string, unknown>;
		const dropped = new Array<string>();
		const keep = (field: string, problemOf: (item: unknown) => string | undefined) => {
			const raw = answer[field];
			const kept = new Array<defined>();
			if (raw !== undefined && !isList(raw)) dropped.push(`a ${field} that is not a list`);
			else if (raw !== undefined) {
				for (const item of raw as Array<defined>) {
					const itemProblem = problemOf(item);
					if (itemProblem === undefined) kept.push(item);
					else dropped.push(itemProblem);
				}
			}
			answer[field] = kept;
		};
		keep("queuedActions", actionProblem);
		keep("ongoingChats", (item) =>
			anyTable.read(item, "") === undefined ? undefined : "a ticket that is not an object",
		);
		answer.dropped = dropped;
		return undefined;
	},
};

/**
 * The sync's route. Not repeated by the transport: its `chatEvents` are appended without dedup; the sync decides what
 * to resend.
 * @internal
 */
export const syncRoutes = {
	sendData: route({
		method: "POST",
		path: "/activity/sendData",
		safeToRepeat: false,
		args: sendDataArgSpec,
		answer: sendDataReader,
		// Every open call's whole transcript rides each answer: megabytes with a few long calls.
		largeAnswer: { maxBytes: MAX_SYNC_ANSWER_BYTES, lists: ["queuedActions", "ongoingChats"] },
	}),
};

/** The sync's method of `client.extensions`. @see README#deployed-service-extensions */
export interface SyncMethods {
	/**
	 * The deployed service's sync (`POST /activity/sendData`): keeps the server present, delivers session events (and
	 * a call's chat events) and hands over queued dashboard actions and ongoing chats, at most once. Never sends
	 * `players` (a roster that removes everyone missing from it). The key is redacted from the whole answer.
	 */
	sendData(args: SendDataArgs, options?: CallOptions): Promise<SendDataAnswer>;
}

/** Builds the sync's method over the client's one `call`. @internal */
export function syncMethods(call: Call<keyof typeof syncRoutes>): SyncMethods {
	return {
		sendData(args, options) {
			return call("sendData", options, [], args);
		},
	};
}
