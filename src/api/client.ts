import { RequestBudget } from "../transport/budget";
import { StaffOpsError } from "../transport/StaffOpsError";
import { Transport, TransportConfig, TransportSeams } from "../transport/transport";
import { CallOptions, readCallOptions } from "./callOptions";
import type {
	ActivityApi,
	CallsApi,
	ExtensionsApi,
	GamesApi,
	HistoryApi,
	OrdersApi,
	TeamsApi,
	TimeOffApi,
} from "./namespaces";
import { AnyOperationId, decodeAnswer, encodeRequest, OPERATIONS } from "./operations";
import { RawRequest, sendRawRequest } from "./rawRequest";
import type { PlayerLeaveArgs } from "./types";
import { SupportCallsApi, supportCallsNamespace } from "./resources/supportCalls";

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
	/** Support calls of the deployed service: create, end, list. */
	readonly support: SupportCallsApi;
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
		this.support = supportCallsNamespace(call);
	}

	/**
	 * Sends a request to a route the interface does not list, through the same budget, retries, failure handling and
	 * key handling as every other call. Use it for routes your service has that StaffOps does not wrap; prefer the
	 * typed methods for everything they cover. Resolves with the decoded JSON answer of a 2xx status, typed `unknown`:
	 * check it (with `@rbxts/t`) before use. Rejects with a {@link StaffOpsError} like every other call: `service`
	 * for a `success: false` body, `http` for another non-2xx status, `decode` (with `acted`) for a 2xx answer that is
	 * not JSON, `invalid` for a bad method, path or body (nothing sent). The key is redacted from the answer.
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
		return sendRawRequest(this.transport, request);
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
		const [optionsOk, priority, maxAttempts] = readCallOptions(options, OPERATIONS[operation].priority);
		if (!optionsOk) {
			return Promise.reject(new StaffOpsError({ kind: "invalid", operation, message: priority })) as Promise<T>;
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
				maxAttempts,
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
}
