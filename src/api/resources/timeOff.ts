import type { CallOptions } from "../callOptions";
import { array, list, num, object, opt, Reader, req, str, strings, succeeded } from "../reader";
import { Call, route } from "../routeSpec";

// Time off requests: `client.timeOff`. Listing them and reading one.
// Readers are tolerant (`reader.ts`): what identifies a resource or what the library itself needs is required,
// everything else optional; each answer reader is declared against its answer type, so the compiler checks the two agree.

// ---- Resources ----

/**
 * One step of a time off request's approval chain.
 * @see README#typed-client
 */
export interface ApprovalStep {
	readonly index?: number;
	readonly label?: string;
	readonly type?: string;
	readonly approverIds?: ReadonlyArray<string>;
	readonly status?: string;
	readonly decidedBy?: string;
	readonly decidedAt?: string;
	readonly note?: string;
}

/**
 * A time off request with its approval chain.
 * @see README#typed-client
 */
export interface TimeOffRequest {
	readonly _id: string;
	readonly groupId?: string;
	readonly userId?: string;
	readonly reason?: string;
	readonly starts?: string;
	readonly ends?: string;
	readonly status?: string;
	readonly created?: string;
	readonly teamId?: string;
	readonly reviewedBy?: string;
	readonly reviewNote?: string;
	readonly reviewedAt?: string;
	readonly approvalChain?: ReadonlyArray<ApprovalStep>;
	readonly currentStepIndex?: number;
	readonly currentApproverIds?: ReadonlyArray<string>;
}

// ---- Answers ----

/** Answer of `client.timeOff.list`. @see README#typed-client */
export interface TimeOffListAnswer {
	readonly success: true;
	readonly requests: ReadonlyArray<TimeOffRequest>;
}

/** Answer of `client.timeOff.get`. @see README#typed-client */
export interface TimeOffAnswer {
	readonly success: true;
	readonly request: TimeOffRequest;
}

const approvalStep: Reader<ApprovalStep> = object({
	index: opt(num),
	label: opt(str),
	type: opt(str),
	approverIds: opt(strings),
	status: opt(str),
	decidedBy: opt(str),
	decidedAt: opt(str),
	note: opt(str),
});

const timeOffRequest: Reader<TimeOffRequest> = object({
	_id: req(str),
	groupId: opt(str),
	userId: opt(str),
	reason: opt(str),
	starts: opt(str),
	ends: opt(str),
	status: opt(str),
	created: opt(str),
	teamId: opt(str),
	reviewedBy: opt(str),
	reviewNote: opt(str),
	reviewedAt: opt(str),
	approvalChain: opt(array(approvalStep)),
	currentStepIndex: opt(num),
	currentApproverIds: opt(strings),
});

// ---- Routes ----

/** The routes of time off requests. @internal */
export const timeOffRoutes = {
	listTimeOff: route({
		method: "GET",
		path: "/time-off",
		safeToRepeat: true,
		answer: object({ success: succeeded, requests: list(timeOffRequest) }) satisfies Reader<TimeOffListAnswer>,
	}),
	getTimeOff: route({
		method: "GET",
		path: "/time-off/{requestId}",
		safeToRepeat: true,
		answer: object({ success: succeeded, request: req(timeOffRequest) }) satisfies Reader<TimeOffAnswer>,
	}),
};

// ---- Namespace ----

/**
 * Time off requests: `client.timeOff`.
 * @see README#typed-client
 */
export interface TimeOffApi {
	/** Lists every time off request (`GET /time-off`). */
	list(options?: CallOptions): Promise<TimeOffListAnswer>;
	/** Reads one time off request (`GET /time-off/{requestId}`). */
	get(requestId: string, options?: CallOptions): Promise<TimeOffAnswer>;
}

/** Builds `client.timeOff` on the api client's call. @internal */
export function timeOffApi(call: Call<keyof typeof timeOffRoutes>): TimeOffApi {
	return {
		list(options) {
			return call("listTimeOff", options, []);
		},
		get(requestId, options) {
			return call("getTimeOff", options, [requestId]);
		},
	};
}
