import { RequestBudget, RequestPriority } from "../transport/budget";
import { StaffOpsError } from "../transport/StaffOpsError";
import { HttpMethod, Transport, TransportConfig, TransportSeams } from "../transport/transport";
import { safeEncode } from "../transport/httpDoor";
import { AnyOperationId, decodeAnswer, encodeRequest, OPERATIONS, redactEverywhere } from "./operations";
import { anyAnswer } from "./schemas";
import type {
	CallMessagesAnswer,
	CreateOrderAnswer,
	CreateOrderArgs,
	CreateServerAnswer,
	CreateServerArgs,
	EndServerAnswer,
	GetServerAnswer,
	PlayerLeaveAnswer,
	PlayerLeaveArgs,
	ListHistoryAnswer,
	PlayerJoinAnswer,
	PlayerJoinArgs,
	RecordHistoryAnswer,
	RecordHistoryArgs,
	ReleaseOrderAnswer,
	ReleaseOrderArgs,
	RunningGameAnswer,
	TimeOffAnswer,
	TimeOffListAnswer,
	UserActivityAnswer,
	UserTeamsAnswer,
} from "./types";

/**
 * Settings of a {@link StaffOpsClient}: the base URL, the API key (a string or a `Secret`), the timeout per attempt,
 * the request budget and the retry policy.
 *
 * @example
 * ```ts
 * const config: ClientConfig = { baseUrl: "https://staff.example.com", apiKey: HttpService.GetSecret("staffops") };
 * ```
 * @see README#configuration
 */
export type ClientConfig = TransportConfig;

/**
 * Per-call options.
 *
 * @example
 * ```ts
 * client.calls.getMessages(callId, { priority: "low" });
 * ```
 * @see README#request-budget
 */
export interface CallOptions {
	/** The call's place in the budget queue; registration and join reports default to `high`, the rest `normal`. */
	readonly priority?: RequestPriority;
	/**
	 * At most this many attempts for this call (1 or more), instead of the client's retry policy. The game integration
	 * sends its background work with 1 and retries it itself, at a pace that keeps an outage cheap.
	 */
	readonly maxAttempts?: number;
}

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

/**
 * Activity tracking: `client.activity`.
 * @see README#typed-client
 */
export interface ActivityApi {
	/** Registers this running server (`POST /activity/createServer`); priority `high`. */
	registerServer(args: CreateServerArgs, options?: CallOptions): Promise<CreateServerAnswer>;
	/** Reports a player joining (`POST /activity/playerJoin`); priority `high`. */
	reportJoin(args: PlayerJoinArgs, options?: CallOptions): Promise<PlayerJoinAnswer>;
	/** Reads a staff member's activity summary and recent sessions (`GET /activity/workspace/users/{userId}/activity`). */
	getUserActivity(userId: string, options?: CallOptions): Promise<UserActivityAnswer>;
}

/**
 * Running games: `client.games`.
 * @see README#typed-client
 */
export interface GamesApi {
	/** Reads one running server and its players (`GET /games/running/{internalGameId}`). */
	getRunning(internalGameId: string, options?: CallOptions): Promise<RunningGameAnswer>;
}

/**
 * Orders: `client.orders`.
 * @see README#typed-client
 */
export interface OrdersApi {
	/** Creates an order (`POST /orders`). Not retried after an unknown outcome: a repeat would create two. */
	create(args: CreateOrderArgs, options?: CallOptions): Promise<CreateOrderAnswer>;
	/**
	 * Releases an order (`PUT /orders/{orderId}/release`). Retried after an unknown outcome; if the repeat is
	 * refused (409) the error's message says the earlier attempt may have released it.
	 */
	release(orderId: string, args: ReleaseOrderArgs, options?: CallOptions): Promise<ReleaseOrderAnswer>;
}

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

/**
 * Support calls: `client.calls`.
 * @see README#typed-client
 */
export interface CallsApi {
	/** Reads a call's status and message transcript (`GET /calls/{callId}/messages`); meant for polling. */
	getMessages(callId: string, options?: CallOptions): Promise<CallMessagesAnswer>;
}

/**
 * Teams: `client.teams`.
 * @see README#typed-client
 */
export interface TeamsApi {
	/** Lists the teams a user belongs to and their role on each (`GET /teams/users/{userId}`). */
	forUser(userId: string, options?: CallOptions): Promise<UserTeamsAnswer>;
}

/**
 * Operations the deployed Staff Operations Service has beyond the interface document (DESIGN §3): `client.extensions`.
 * A service without them answers 404 (or 405); the game integration then turns the feature that uses them off.
 * @see README#deployed-service-extensions
 */
export interface ExtensionsApi {
	/**
	 * Ends a player's activity session (`POST /activity/playerLeave/v2`, final, with `leftTime`). Idempotent on that
	 * service: a repeat answers `finalized: false`, so it is retried after an unknown outcome.
	 */
	reportLeave(args: PlayerLeaveArgs, options?: CallOptions): Promise<PlayerLeaveAnswer>;
	/** Ends the sessions still in game and removes the server (`DELETE /activity/endServer`). */
	endServer(runningGameId: string, options?: CallOptions): Promise<EndServerAnswer>;
	/** Reads the workspace by running game id (`POST /activity/getServer`); refreshes the server's presence there. */
	getServer(runningGameId: string, options?: CallOptions): Promise<GetServerAnswer>;
}

/**
 * A request to a route the interface does not list, for {@link StaffOpsClient.request}.
 * @see README#routes-the-interface-does-not-list
 */
export interface RawRequest {
	readonly method: HttpMethod;
	/** Starts with `/`; may carry a query string. Path segments you build from values must be percent-encoded. */
	readonly path: string;
	/** A JSON-encodable table, for methods other than GET. */
	readonly body?: object;
	/**
	 * Whether sending it again after an unknown outcome (a timeout, a dropped connection, a 500/502/504) is harmless.
	 * Default: true for GET, false otherwise. Requests the service certainly did not act on are retried either way.
	 */
	readonly safeToRepeat?: boolean;
	/** Default `normal`. */
	readonly priority?: RequestPriority;
	/** At most this many attempts (1 to 10), instead of the client's retry policy. */
	readonly maxAttempts?: number;
}

/**
 * The typed client of the Staff Operations Service: one method per operation, grouped by resource. Every method
 * returns a Promise that resolves with the checked answer or rejects with a {@link StaffOpsError}; arguments are
 * checked before anything is sent. Construction never throws: a bad configuration makes every call reject with
 * kind `invalid` (see {@link StaffOpsClient.configError}).
 *
 * @example
 * ```ts
 * const client = new StaffOpsClient({ baseUrl: "https://staff.example.com", apiKey: HttpService.GetSecret("staffops") });
 * client.orders
 * 	.create({ customerId: "1", cashierId: "2", items: [{ item: "Latte", quantity: 1 }], placeId: "10", gameId: "20" })
 * 	.andThen(({ order }) => print(`order ${order._id}`))
 * 	.catch((err: unknown) => warn(tostring(err)));
 * ```
 * @see README#typed-client
 */
export class StaffOpsClient {
	/** Staff history. */
	readonly history: HistoryApi;
	/** Activity tracking: server registration, join reports, a user's activity. */
	readonly activity: ActivityApi;
	/** Running games. */
	readonly games: GamesApi;
	/** Orders. */
	readonly orders: OrdersApi;
	/** Time off requests. */
	readonly timeOff: TimeOffApi;
	/** Support call transcripts. */
	readonly calls: CallsApi;
	/** Team memberships. */
	readonly teams: TeamsApi;
	/** Operations of the deployed service beyond the interface. */
	readonly extensions: ExtensionsApi;
	/** Why the configuration is unusable, or undefined when it is fine. */
	readonly configError: StaffOpsError | undefined;

	private readonly transport: Transport;

	/**
	 * @param config base URL, API key, timeout, budget, retries
	 * @param seams Roblox seams for tests (HttpService, clock, randomness); omit in games
	 */
	constructor(config: ClientConfig, seams?: TransportSeams) {
		const transport = new Transport(config, seams);
		this.transport = transport;
		this.configError =
			transport.configProblem !== undefined
				? new StaffOpsError({
						kind: "invalid",
						operation: "config",
						message: `invalid configuration: ${transport.configProblem}`,
					})
				: undefined;

		const call = <T>(
			operation: AnyOperationId,
			options: CallOptions | undefined,
			pathValues: ReadonlyArray<unknown>,
			body?: unknown,
		): Promise<T> => this.call<T>(operation, options, pathValues, body);

		this.history = {
			record(args, options) {
				return call("recordHistory", options, [], args);
			},
			list(options) {
				return call("listHistory", options, []);
			},
		};
		this.activity = {
			registerServer(args, options) {
				return call("createServer", options, [], args);
			},
			reportJoin(args, options) {
				return call("playerJoin", options, [], args);
			},
			getUserActivity(userId, options) {
				return call("getActivity", options, [userId]);
			},
		};
		this.games = {
			getRunning(internalGameId, options) {
				return call("getRunningGame", options, [internalGameId]);
			},
		};
		this.orders = {
			create(args, options) {
				return call("createOrder", options, [], args);
			},
			release(orderId, args, options) {
				return call("releaseOrder", options, [orderId], args);
			},
		};
		this.timeOff = {
			list(options) {
				return call("listTimeOff", options, []);
			},
			get(requestId, options) {
				return call("getTimeOff", options, [requestId]);
			},
		};
		this.calls = {
			getMessages(callId, options) {
				return call("getCallMessages", options, [callId]);
			},
		};
		this.teams = {
			forUser(userId, options) {
				return call("getUserTeams", options, [userId]);
			},
		};
		this.extensions = {
			reportLeave(args, options) {
				const given = (typeIs(args, "table") ? args : {}) as Partial<PlayerLeaveArgs>;
				const body = {
					gameId: given.runningGameId,
					playerId: typeIs(given.userId, "number") ? tostring(given.userId) : given.userId,
					events: [],
					final: true,
					leftTime: given.leftTime,
				};
				return call("playerLeave", options, [], body);
			},
			endServer(runningGameId, options) {
				return call("endServer", options, [], { gameId: runningGameId });
			},
			getServer(runningGameId, options) {
				return call("getServer", options, [], { gameId: runningGameId });
			},
		};
	}

	/**
	 * Sends a request to a route the interface does not list, through the same budget, retries, failure handling and
	 * key handling as every other call. Use it for routes your service has that StaffOps does not wrap; prefer the
	 * typed methods for everything they cover. Resolves with the decoded JSON answer of a 2xx status, typed `unknown`:
	 * check it (with `@rbxts/t`) before use. Rejects with a {@link StaffOpsError} like every other call: `service`
	 * for a `success: false` body, `http` for another non-2xx status, `decode` (with `acted`) for a 2xx answer that is
	 * not JSON, `invalid` for a bad method, path or body (nothing sent).
	 *
	 * @example
	 * ```ts
	 * client
	 * 	.request({ method: "POST", path: "/activity/getServer", body: { gameId: runningGameId }, safeToRepeat: true })
	 * 	.andThen((answer) => print(t.interface({ success: t.literal(true) })(answer)));
	 * ```
	 * @see README#routes-the-interface-does-not-list
	 */
	request(request: RawRequest): Promise<unknown> {
		const transport = this.transport;
		const reject = (message: string, kind: "invalid" = "invalid") =>
			Promise.reject(new StaffOpsError({ kind, operation: "request", message })) as Promise<unknown>;
		if (transport.configProblem !== undefined) {
			return reject(`invalid configuration: ${transport.configProblem}`);
		}
		if (!typeIs(request, "table")) return reject("request must be a table");
		const method: unknown = request.method;
		if (method !== "GET" && method !== "POST" && method !== "PUT" && method !== "PATCH" && method !== "DELETE") {
			return reject("request.method must be GET, POST, PUT, PATCH or DELETE");
		}
		const path: unknown = request.path;
		if (
			!typeIs(path, "string") ||
			path.sub(1, 1) !== "/" ||
			path.size() > 2048 ||
			path.find("[%s%c#\\]")[0] !== undefined ||
			path.find("//", 1, true)[0] !== undefined ||
			path.find("/%.%.?/")[0] !== undefined ||
			path.find("/%.%.?$")[0] !== undefined
		) {
			return reject("request.path must start with / and hold no spaces, //, . or .. segments, # or backslashes");
		}
		let body: string | undefined;
		if (request.body !== undefined) {
			if (method === "GET") return reject("a GET request cannot carry a body");
			if (!typeIs(request.body, "table")) return reject("request.body must be a table");
			body = safeEncode(transport.json(), request.body);
			if (body === undefined) return reject("request.body cannot be encoded as JSON");
		}
		const priority = this.priorityOf("request", { priority: request.priority });
		if (priority === undefined) return reject("request.priority must be urgent, high, normal or low");
		const maxAttempts: unknown = request.maxAttempts;
		if (maxAttempts !== undefined && !(typeIs(maxAttempts, "number") && maxAttempts >= 1 && maxAttempts <= 10)) {
			return reject("request.maxAttempts must be from 1 to 10");
		}
		const safeToRepeat: unknown = request.safeToRepeat;
		if (safeToRepeat !== undefined && !typeIs(safeToRepeat, "boolean")) {
			return reject("request.safeToRepeat must be true or false");
		}
		return transport
			.send({
				operation: "request",
				method,
				path,
				body,
				safeToRepeat: safeToRepeat ?? method === "GET",
				priority,
				maxAttempts: maxAttempts !== undefined ? math.floor(maxAttempts) : undefined,
			})
			.andThen((answer) => {
				const decoded = decodeAnswer<unknown>(
					transport.json(),
					"request",
					answer.status,
					answer.body,
					{
						attempts: answer.attempts,
						retryAfter: answer.retryAfter,
						earlierMayHaveActed: answer.earlierMayHaveActed,
						redact: (text) => transport.redact(text),
					},
					anyAnswer,
				);
				if (!decoded.ok) return Promise.reject(decoded.error) as Promise<unknown>;
				// An unknown route may echo the key anywhere (the deployed service's workspace does, as `loaderId`).
				return redactEverywhere(decoded.value, (text) => transport.redact(text));
			});
	}

	/** The request budget this client draws from. */
	getBudget(): RequestBudget {
		return this.transport.getBudget();
	}

	/** `StaffOpsClient(https://host)`: never the key. */
	toString(): string {
		return `StaffOpsClient(${this.transport.getBaseUrl()})`;
	}

	private call<T>(
		operation: AnyOperationId,
		options: CallOptions | undefined,
		pathValues: ReadonlyArray<unknown>,
		body?: unknown,
	): Promise<T> {
		const transport = this.transport;
		if (transport.configProblem !== undefined) {
			return Promise.reject(
				new StaffOpsError({
					kind: "invalid",
					operation,
					message: `invalid configuration: ${transport.configProblem}`,
				}),
			) as Promise<T>;
		}
		const priority = this.priorityOf(operation, options);
		if (priority === undefined) {
			return Promise.reject(
				new StaffOpsError({
					kind: "invalid",
					operation,
					message: "options.priority must be urgent, high, normal or low",
				}),
			) as Promise<T>;
		}
		const maxAttempts: unknown = typeIs(options, "table") ? options.maxAttempts : undefined;
		if (maxAttempts !== undefined && !(typeIs(maxAttempts, "number") && maxAttempts >= 1 && maxAttempts <= 10)) {
			return Promise.reject(
				new StaffOpsError({ kind: "invalid", operation, message: "options.maxAttempts must be from 1 to 10" }),
			) as Promise<T>;
		}
		const encoded = encodeRequest(transport.json(), operation, pathValues, body);
		if (!encoded.ok) return Promise.reject(encoded.error) as Promise<T>;
		const spec = OPERATIONS[operation];
		return transport
			.send({
				operation,
				method: encoded.value.method,
				path: encoded.value.path,
				body: encoded.value.body,
				safeToRepeat: spec.safeToRepeat,
				priority,
				maxAttempts: maxAttempts !== undefined ? math.floor(maxAttempts) : undefined,
			})
			.andThen((answer) => {
				const decoded = decodeAnswer<T>(transport.json(), operation, answer.status, answer.body, {
					attempts: answer.attempts,
					retryAfter: answer.retryAfter,
					earlierMayHaveActed: answer.earlierMayHaveActed,
					redact: (text) => transport.redact(text),
				});
				if (!decoded.ok) return Promise.reject(decoded.error) as Promise<T>;
				return decoded.value;
			});
	}

	private priorityOf(
		operation: AnyOperationId | "request",
		options: CallOptions | undefined,
	): RequestPriority | undefined {
		const fallback = operation === "request" ? "normal" : OPERATIONS[operation].priority;
		if (options === undefined) return fallback;
		if (!typeIs(options, "table")) return undefined;
		const priority: unknown = options.priority;
		if (priority === undefined) return fallback;
		return priority === "urgent" || priority === "high" || priority === "normal" || priority === "low"
			? priority
			: undefined;
	}
}
