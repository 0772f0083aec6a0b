import { HttpService } from "@rbxts/services";
import { harness } from "./harness";
import type { AnyOperationId } from "../../src/api/routes";

/** Operation ids as the reference service names them (the client uses the same), plus `*` for every operation. */
export type FaultOperation = AnyOperationId | "*";

/** A fault the reference service injects into matching requests (`POST /_control/faults`). */
export interface FaultSpec {
	operation: FaultOperation;
	/** The HTTP status to answer with (alone: a `success:false` body instead of the operation). */
	status?: number;
	/** Seconds to send in `Retry-After`. */
	retryAfter?: number;
	/**
	 * `drop`: the connection closes unanswered; `drop-after`: the operation acts first, then the connection closes;
	 * `late`: the request waits `latencyMs` before the operation acts (a frozen service working through its queue).
	 */
	kind?: "success-false" | "malformed" | "truncated" | "wrong-types" | "drop" | "drop-after" | "late" | "extended";
	latencyMs?: number;
	/** How many matching requests it applies to; unlimited when omitted. */
	times?: number;
	/**
	 * With `extended`: fields of the real answer set to these values (a service that added a value); a name is a
	 * top-level field or a dotted path with list positions from 0 (`messages.0.origin`).
	 */
	fields?: Record<string, string>;
}

/** One request the reference service logged (never its headers). */
export interface LoggedRequest {
	operation: string;
	method: string;
	path: string;
	/** 0 when a `drop` fault closed the connection. */
	status: number;
	at: number;
	body: unknown;
}

/** The reference service's profiles: the interface as documented, or the deployed service as measured. */
export type ServiceProfile = "default" | "deployed";

/** One session as `GET /_control/records` lists it. */
export interface RecordedSession {
	_id: string;
	userId: string;
	runningGameId: string;
	internalGameId: string;
	staff: boolean;
	inGame: boolean;
	deleted: boolean;
	started: string;
	ended: string;
	/** Whole minutes (`minutes.total`); negative, to the hundredth, for a session that ended before it started. */
	minutes: number;
}

/** One server as `GET /_control/records` lists it. */
export interface RecordedServer {
	runningGameId: string;
	internalGameId: string;
	jobId: string;
	deleted: boolean;
	removal?: "silence" | "forget" | "endServer";
	removedAt?: string;
	lastPresence: string;
	players: Array<string>;
}

/** What the reference service recorded for the default workspace since the last reset. */
export interface ServiceRecords {
	groupId: string;
	joinsByUser: Record<string, number | undefined>;
	sessionsByUser: Record<string, number | undefined>;
	openSessionsByUser: Record<string, number | undefined>;
	/** Sessions (not deleted) that ended before they started: negative minutes at the deployed service. */
	negativeMinuteSessions: number;
	sessions: Array<RecordedSession>;
	servers: Array<RecordedServer>;
	timezones: Record<string, string | undefined>;
}

function control(method: "GET" | "POST" | "DELETE", path: string, body?: object): unknown {
	const response = HttpService.RequestAsync({
		Url: `${harness.serviceUrl}${path}`,
		Method: method,
		Headers: body !== undefined ? { "Content-Type": "application/json" } : undefined,
		Body: body !== undefined ? HttpService.JSONEncode(body) : undefined,
	});
	if (!response.Success) {
		error(`control ${method} ${path} answered ${response.StatusCode}: ${response.Body}`, 2);
	}
	return HttpService.JSONDecode(response.Body);
}

/**
 * The reference service's control API (test code: it uses HttpService directly and needs no key).
 * Every function throws when the service refuses, so a spec's setup fails loudly.
 */
export const serviceControl = {
	/**
	 * Restores the default seed and clears faults and the request log; `profile` picks the service's profile
	 * (`deployed`: how the deployed service behaves, docs/service-contract.md#what-the-deployed-service-sends), else the startup one (`default`).
	 */
	/** One call of the control API (the typed functions here and in deskControl.ts are built on it). */
	call(this: void, method: "GET" | "POST" | "DELETE", path: string, body?: object): unknown {
		return control(method, path, body);
	},
	reset(this: void, profile?: ServiceProfile): void {
		control("POST", "/_control/reset", profile !== undefined ? { profile } : undefined);
	},
	/** Sets the silence limit after which a quiet server is forgotten, and the deployed profile's privacy mode. */
	configure(this: void, config: { forgetAfterSeconds?: number; privacy?: boolean }): void {
		control("POST", "/_control/config", config);
	},
	/** What the service recorded per workspace: joins, sessions and servers (`GET /_control/records`). */
	records(this: void): ServiceRecords {
		const answer = control("GET", "/_control/records") as { workspaces: Array<ServiceRecords> };
		const workspace = answer.workspaces.find((candidate) => candidate.groupId === "5012345");
		if (workspace === undefined) error("the default workspace is missing from /_control/records", 2);
		return workspace;
	},
	/** Adds a fault; returns its id. */
	fault(this: void, spec: FaultSpec): string {
		return (control("POST", "/_control/faults", spec) as { id: string }).id;
	},
	/** Removes every fault. */
	clearFaults(this: void): void {
		control("DELETE", "/_control/faults");
	},
	/** The requests logged since `since` (ms since the epoch; 0 for all), and counts per operation. */
	requests(this: void, since = 0): { requests: Array<LoggedRequest>; counts: Record<string, number | undefined> } {
		return control("GET", `/_control/requests?since=${since}`) as {
			requests: Array<LoggedRequest>;
			counts: Record<string, number | undefined>;
		};
	},
	/** Empties the request log. */
	clearRequests(this: void): void {
		control("DELETE", "/_control/requests");
	},
	/** How many requests of `operation` the service received since the log was cleared. */
	count(this: void, operation: FaultOperation): number {
		const counts = serviceControl.requests().counts;
		return counts[operation] ?? 0;
	},
	/** What the service recorded (running games, players, joins, history, orders), per workspace. */
	state(this: void): unknown {
		return control("GET", "/_control/state");
	},
	/** Makes the service forget a running game, as after a quiet period. */
	forget(this: void, internalGameId: string): void {
		control("POST", "/_control/forget", { internalGameId });
	},
	/** Appends an agent message to a call's transcript. */
	addCallMessage(this: void, callId: string, message: { username: string; userId: number; message: string }): void {
		control("POST", `/_control/calls/${callId}/messages`, message);
	},
	/** Sets a call's status (`open` or `closed`). */
	setCallStatus(this: void, callId: string, status: "open" | "closed"): void {
		control("POST", `/_control/calls/${callId}/status`, { status });
	},
};
