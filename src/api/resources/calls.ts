import { KnownValue, knownValues } from "../../shared/knownValues";
import type { CallOptions } from "../callOptions";
import { list, num, object, opt, Reader, req, str, succeeded } from "../reader";
import { Call, route } from "../routeSpec";

// Support calls: `client.calls`. Reading a call's transcript, which the call bridge polls.
// Readers are tolerant (`reader.ts`): what identifies a resource or what the library itself needs is required,
// everything else optional; each answer reader is declared against its answer type, so the compiler checks the two agree.

// ---- Resources ----

/**
 * One message of a support call's transcript; `id` tells new messages from seen ones.
 * @see README#typed-client
 */
export interface CallMessage {
	readonly id: string;
	readonly username?: string;
	readonly userId?: number;
	readonly message?: string;
	readonly origin?: string;
	readonly sentFrom?: string;
	readonly created?: string;
}

// ---- Answers ----

/**
 * Every status of a call StaffOps knows, written once, with whether the call goes on in it (the deployed service
 * adds `claimed`: an agent took the call). A service may add others: the poller's dispatch has a case for each of
 * these, which the compiler checks, and leaves a call in any other status as it was (never ended, never opened),
 * counted and warned once.
 * @internal
 */
export const CALL_STATUSES = knownValues({
	open: { goesOn: true },
	claimed: { goesOn: true },
	closed: { goesOn: false },
});

/** A call status StaffOps knows. @internal */
export type CallStatus = KnownValue<typeof CALL_STATUSES.of>;

/**
 * Every origin of a transcript message StaffOps knows, written once, with how the player is shown it: `agent` (staff
 * answering from the website or Discord) as the agent's, `user` (the player's own words) and `systemMessage` (the
 * service's own notices) as other text (docs/service-contract.md#agents-and-call-routes). A service may add others:
 * delivery looks each origin up here, which the compiler checks, and shows a message of any other origin as other
 * text, counted and warned once, never as the agent's nor hidden as the player's own.
 * @internal
 */
export const MESSAGE_ORIGINS = knownValues({
	agent: { shownAs: "agent" },
	user: { shownAs: "other" },
	systemMessage: { shownAs: "other" },
});

/** An origin of a transcript message StaffOps knows. @internal */
export type MessageOrigin = KnownValue<typeof MESSAGE_ORIGINS.of>;

/** Answer of `client.calls.getMessages`. @see README#typed-client */
export interface CallMessagesAnswer {
	readonly success: true;
	/** The call's status: `open`, `claimed` (an agent took it) or `closed`; one StaffOps does not know is left alone. */
	readonly status: string;
	/** Messages without an `id` are left out: the bridge could not tell them apart. */
	readonly messages: ReadonlyArray<CallMessage>;
}

/** One transcript message, read tolerantly: only `id` is needed. @internal */
export const callMessage: Reader<CallMessage> = object({
	id: req(str),
	username: opt(str),
	userId: opt(num),
	message: opt(str),
	origin: opt(str),
	sentFrom: opt(str),
	created: opt(str),
});

// ---- Routes ----

/** The routes of support calls. @internal */
export const callsRoutes = {
	getCallMessages: route({
		method: "GET",
		path: "/calls/{callId}/messages",
		safeToRepeat: true,
		answer: object({
			success: succeeded,
			status: req(str),
			messages: list(callMessage),
		}) satisfies Reader<CallMessagesAnswer>,
	}),
};

// ---- Namespace ----

/**
 * Support calls: `client.calls`.
 * @see README#typed-client
 */
export interface CallsApi {
	/** Reads a call's status and message transcript (`GET /calls/{callId}/messages`); meant for polling. */
	getMessages(callId: string, options?: CallOptions): Promise<CallMessagesAnswer>;
}

/** Builds `client.calls` on the api client's call. @internal */
export function callsApi(call: Call<keyof typeof callsRoutes>): CallsApi {
	return {
		getMessages(callId, options) {
			return call("getCallMessages", options, [callId]);
		},
	};
}
