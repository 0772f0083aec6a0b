import { t } from "@rbxts/t";
import { ArgSpec, boolRule, daysRule, idRule, Rule, shortTextRule, textRule } from "../arguments";
import type { CallOptions } from "../callOptions";
import {
	array,
	bool,
	either,
	literal,
	num,
	object,
	opt,
	Reader,
	req,
	str,
	strings,
	succeeded,
	withRule,
} from "../reader";
import { Call, route } from "../routeSpec";

// Staff history: `client.history`. Recording a promotion, suspension, termination or writeup, and listing them.
// Readers are tolerant (`reader.ts`): what identifies a resource or what the library itself needs is required,
// everything else optional; each answer reader is declared against its answer type, so the compiler checks the two agree.

// ---- Resources ----

/**
 * The kinds of staff history action.
 * @see README#typed-client
 */
export type HistoryType = "promotion" | "suspension" | "termination" | "writeup";

/**
 * A staff history item (a promotion, suspension, termination or writeup).
 * @see README#typed-client
 */
export interface HistoryItem {
	readonly _id: string;
	readonly groupId?: string;
	/** `promotion`, `suspension`, `termination` or `writeup` (see {@link HistoryType}); other values pass as they are. */
	readonly type?: string;
	/** The interface allows a boolean or a string; the deployed service also sends numbers. */
	readonly userId?: boolean | string | number;
	/** A user id; the deployed service may send it as a number. */
	readonly disciplinarianId?: string | number;
	readonly reason?: string;
	readonly created?: string;
	readonly expires?: string;
	/** The rank given; `false` when there is none (the deployed service's way of saying so). */
	readonly rankTo?: string | false;
	readonly rankFrom?: string;
	/** Absent on the deployed service when the item has not ended. */
	readonly ended?: boolean;
	readonly endedBy?: string;
	readonly evidence?: ReadonlyArray<string>;
	readonly pendingApproval?: boolean;
	readonly approvedBy?: string;
	readonly notify?: boolean;
	readonly distribution?: number;
}

/**
 * A history item as `GET /staff/history` lists it: the interface says without `type`, the deployed service sends it.
 * @see README#typed-client
 */
export type HistoryListItem = HistoryItem;

// ---- Arguments ----

/**
 * Arguments of `client.history.record` (`POST /staff/history`).
 * @see README#typed-client
 */
export interface RecordHistoryArgs {
	/** Who takes the action (a user id). */
	readonly actioningUser: string;
	/** Whom it concerns (a user id). */
	readonly userId: string;
	readonly reason: string;
	readonly type: HistoryType;
	/** The service's own spelling. */
	readonly approval_required: boolean;
	readonly notify?: boolean;
	readonly role?: string;
	/** From 0 to 36500. */
	readonly expiresInDays?: number;
}

const historyTypeRule: Rule = [
	t.literal("promotion", "suspension", "termination", "writeup"),
	"one of promotion, suspension, termination, writeup",
];

const recordHistoryArgs: ArgSpec = {
	required: {
		actioningUser: idRule,
		userId: idRule,
		reason: textRule,
		type: historyTypeRule,
		approval_required: boolRule,
	},
	optional: { notify: boolRule, role: shortTextRule, expiresInDays: daysRule },
};

// ---- Answers ----

/** Answer of `client.history.record`. @see README#typed-client */
export interface RecordHistoryAnswer {
	readonly success: true;
	readonly history: HistoryItem;
}

/**
 * Answer of `client.history.list`: the list, or (the interface allows it) only a `reason` and no list.
 * @see README#typed-client
 */
export interface ListHistoryAnswer {
	readonly success: true;
	readonly history?: ReadonlyArray<HistoryListItem>;
	readonly reason?: string;
}

/** A user id, which the deployed service sends as a string or a number. */
const userIdLike = either(str, num);

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

// ---- Routes ----

/** The routes of staff history. @internal */
export const historyRoutes = {
	recordHistory: route({
		method: "POST",
		path: "/staff/history",
		safeToRepeat: false,
		args: recordHistoryArgs,
		answer: object({ success: succeeded, history: req(historyItem) }) satisfies Reader<RecordHistoryAnswer>,
	}),
	listHistory: route({
		method: "GET",
		path: "/staff/history",
		safeToRepeat: true,
		// The interface allows the list, or only a `reason` and no list; an answer with neither cannot be used.
		answer: withRule(
			object({
				success: succeeded,
				history: opt(array(historyItem)),
				reason: opt(str),
			}) satisfies Reader<ListHistoryAnswer>,
			(answer) =>
				answer.history === undefined && answer.reason === undefined
					? "neither `history` nor `reason`"
					: undefined,
		),
	}),
};

// ---- Namespace ----

/**
 * Staff history: `client.history`.
 * @see README#typed-client
 */
export interface HistoryApi {
	/**
	 * Records a promotion, suspension, termination or writeup (`POST /staff/history`). Not retried after an
	 * unknown outcome: a repeat would record the action twice.
	 */
	record(args: RecordHistoryArgs, options?: CallOptions): Promise<RecordHistoryAnswer>;
	/** Lists the workspace's staff history (`GET /staff/history`); items come without `type`. */
	list(options?: CallOptions): Promise<ListHistoryAnswer>;
}

/** Builds `client.history` on the api client's call. @internal */
export function historyApi(call: Call<keyof typeof historyRoutes>): HistoryApi {
	return {
		record(args, options) {
			return call("recordHistory", options, [], args);
		},
		list(options) {
			return call("listHistory", options, []);
		},
	};
}
