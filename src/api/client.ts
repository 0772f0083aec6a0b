import { RequestBudget, RequestPriority } from "../transport/budget";
import { Transport, TransportConfig, TransportSeams } from "../transport/transport";
import { StaffOpsError } from "../transport/StaffOpsError";
import { decodeAnswer, encodeRequest, OperationId, OPERATIONS } from "./operations";
import type {
	CallMessagesAnswer,
	CreateOrderAnswer,
	CreateOrderArgs,
	CreateServerAnswer,
	CreateServerArgs,
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
			operation: OperationId,
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
		operation: OperationId,
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
					message: "options.priority must be high, normal or low",
				}),
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

	private priorityOf(operation: OperationId, options: CallOptions | undefined): RequestPriority | undefined {
		if (options === undefined) return OPERATIONS[operation].priority;
		if (!typeIs(options, "table")) return undefined;
		const priority: unknown = options.priority;
		if (priority === undefined) return OPERATIONS[operation].priority;
		return priority === "high" || priority === "normal" || priority === "low" ? priority : undefined;
	}
}
