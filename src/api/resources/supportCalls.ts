import { ArgSpec, isFiniteNumber, Rule, serviceIdRule } from "../arguments";
import type { CallOptions } from "../callOptions";
import { either, list, num, object, opt, Reader, req, str, succeeded } from "../reader";
import { Call, route } from "../routeSpec";
import { CallMessage, callMessage } from "./calls";

// The deployed service's support-call routes (docs/service-contract.md, support calls): a player opens a call or reports a player
// (`support/create`), a call is ended (`support/end`), and the workspace's tickets are listed (`GET /calls`). The
// interface document has none of them; a service without them answers 404.

/**
 * A support ticket as the deployed service sends it (`support/create`, `GET /calls`, sendData's `ongoingChats`).
 * Only `_id` is required; `callerId` is a number there, read tolerantly.
 * @see README#support-calls
 */
export interface SupportTicket {
	readonly _id: string;
	readonly callType?: string;
	/** `open`, `claimed` or `closed`. */
	readonly status?: string;
	readonly callerId?: number | string;
	readonly reason?: string;
	readonly reporting?: string;
	readonly runningGameId?: string;
	readonly created?: string;
	readonly claimedBy?: string;
	readonly closedReason?: string;
	/** The whole transcript; messages without an `id` are left out. */
	readonly messages: ReadonlyArray<CallMessage>;
}

/** Arguments of `client.support.create` (`POST /activity/support/create`). @see README#support-calls */
export interface SupportCreateArgs {
	/** The `runningGameId` of this server's registration. */
	readonly runningGameId: string;
	readonly callType: "support" | "report";
	/** The caller's UserId. */
	readonly callerId: number;
	/** Non-empty, at most 500 characters. */
	readonly reason: string;
	/** For a report: the reported player's name. */
	readonly reporting?: string;
	/** The players in the server: `[UserId, Name, DisplayName]` each; at least one. */
	readonly players: ReadonlyArray<readonly [number, string, string]>;
}

/** Why a call is ended (`support/end`). @see README#support-calls */
export type SupportEndReason = "closedByUser" | "userLeft" | "serverClosed";

/** Answer of `client.support.create`: the new ticket (status `open`). @see README#support-calls */
export interface SupportCreateAnswer {
	readonly success: true;
	readonly ticket: SupportTicket;
}

/** Answer of `client.support.end`. @see README#support-calls */
export interface SupportEndAnswer {
	readonly success: true;
}

/** Answer of `client.support.list`: the 100 newest tickets of the workspace with that status. */
export interface ListCallsAnswer {
	readonly success: true;
	readonly calls: ReadonlyArray<SupportTicket>;
}

/** The statuses `GET /calls?status=` takes. @see README#support-calls */
export type CallListStatus = "open" | "claimed" | "closed" | "all";

/**
 * Support calls of the deployed service: `client.support`.
 * @see README#support-calls
 */
export interface SupportCallsApi {
	/**
	 * Opens a support call or a report (`POST /activity/support/create`). Never repeated after an unknown outcome:
	 * look the call up with {@link SupportCallsApi.list} instead. A soft refusal (call-banned, a call already open)
	 * rejects with kind `service` and the service's `reason`, meant for the player.
	 */
	create(args: SupportCreateArgs, options?: CallOptions): Promise<SupportCreateAnswer>;
	/** Ends a call (`POST /activity/support/end`); a repeat is refused (400). */
	end(
		runningGameId: string,
		callId: string,
		reason: SupportEndReason,
		options?: CallOptions,
	): Promise<SupportEndAnswer>;
	/** Lists the workspace's 100 newest tickets with `status` (`GET /calls?status=`). */
	list(status: CallListStatus, options?: CallOptions): Promise<ListCallsAnswer>;
}

const MAX_REASON = 500;
const MAX_NAME = 100;

const isName = (value: unknown) => typeIs(value, "string") && value.size() > 0 && value.size() <= MAX_NAME;
const reasonRule: Rule = [
	(value) => typeIs(value, "string") && value.size() > 0 && value.size() <= MAX_REASON,
	`a non-empty string of at most ${MAX_REASON} characters`,
];
const callTypeRule: Rule = [(value) => value === "support" || value === "report", "support or report"];
const userIdRule: Rule = [(value) => isFiniteNumber(value) && value > 0 && value % 1 === 0, "a whole number above 0"];
const playersRule: Rule = [
	(value) => {
		if (!typeIs(value, "table")) return false;
		const rows = value as Array<unknown>;
		if (rows.size() === 0 || rows.size() > 1000) return false;
		for (const row of rows) {
			if (!typeIs(row, "table")) return false;
			const [id, name, display] = row as [unknown, unknown, unknown];
			if (!userIdRule[0](id) || !isName(name) || !isName(display)) return false;
		}
		return true;
	},
	"a non-empty list of [UserId, Name, DisplayName]",
];
const endReasonRule: Rule = [
	(value) => value === "closedByUser" || value === "userLeft" || value === "serverClosed",
	"closedByUser, userLeft or serverClosed",
];

// The bodies as sent.
const supportCreateArgs: ArgSpec = {
	required: {
		gameId: serviceIdRule,
		callType: callTypeRule,
		callerId: userIdRule,
		reason: reasonRule,
		players: playersRule,
	},
	optional: { reporting: [isName, `a name of at most ${MAX_NAME} characters`] as Rule },
};
const supportEndArgs: ArgSpec = {
	required: { gameId: serviceIdRule, supportId: serviceIdRule, reason: endReasonRule },
};

/** One ticket, read tolerantly: only `_id` is needed. @internal */
export const supportTicket: Reader<SupportTicket> = object({
	_id: req(str),
	callType: opt(str),
	status: opt(str),
	callerId: opt(either(num, str)),
	reason: opt(str),
	reporting: opt(str),
	runningGameId: opt(str),
	created: opt(str),
	claimedBy: opt(str),
	closedReason: opt(str),
	messages: list(callMessage),
});

/**
 * The support routes. A create is never repeated blindly: after an unknown outcome the caller looks the call up
 * instead. An end is refused when repeated (400), so it is not repeated either.
 * @internal
 */
export const supportCallsRoutes = {
	supportCreate: route({
		method: "POST",
		path: "/activity/support/create",
		safeToRepeat: false,
		priority: "high",
		args: supportCreateArgs,
		answer: object({ success: succeeded, ticket: req(supportTicket) }) satisfies Reader<SupportCreateAnswer>,
	}),
	supportEnd: route({
		method: "POST",
		path: "/activity/support/end",
		safeToRepeat: false,
		priority: "high",
		args: supportEndArgs,
		answer: object({ success: succeeded }) satisfies Reader<SupportEndAnswer>,
	}),
	listCalls: route({
		method: "GET",
		path: "/calls?status={status}",
		safeToRepeat: true,
		answer: object({ success: succeeded, calls: list(supportTicket) }) satisfies Reader<ListCallsAnswer>,
	}),
};

/** Reads a list of tickets (sendData's `ongoingChats`), keeping the readable ones and dropping the rest. @internal */
export function readTickets(value: unknown, max = 100): Array<SupportTicket> {
	const out = new Array<SupportTicket>();
	if (!typeIs(value, "table")) return out;
	for (const item of value as Array<unknown>) {
		if (out.size() >= max) break;
		if (supportTicket.read(item, "") === undefined) out.push(item as SupportTicket);
	}
	return out;
}

/** Builds `client.support` over the client's one `call`. @internal */
export function supportCallsApi(call: Call<keyof typeof supportCallsRoutes>): SupportCallsApi {
	return {
		create(args, options) {
			const given = (typeIs(args, "table") ? args : {}) as Partial<SupportCreateArgs>;
			const body = {
				gameId: given.runningGameId,
				callType: given.callType,
				callerId: given.callerId,
				reason: given.reason,
				reporting: given.callType === "report" ? given.reporting : undefined,
				players: given.players,
			};
			return call("supportCreate", options, [], body);
		},
		end(runningGameId, callId, reason, options) {
			return call("supportEnd", options, [], { gameId: runningGameId, supportId: callId, reason });
		},
		list(status, options) {
			return call("listCalls", options, [status]);
		},
	};
}
