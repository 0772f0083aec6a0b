import { RequestBudget } from "../transport/budget";
import { StaffOpsError } from "../transport/staffOpsError";
import { Transport, TransportAnswer, TransportConfig, TransportSeams } from "../transport/transport";
import { CallOptions, readCallOptions } from "./callOptions";
import { decodeAnswer, encodeRequest } from "./codec";
import { RawRequest, sendRawRequest } from "./rawRequest";
import { ActivityApi, activityApi } from "./resources/activity";
import { CallsApi, callsApi } from "./resources/calls";
import { CommandsApi, commandsApi } from "./resources/commands";
import { ExtensionsApi, extensionsApi } from "./resources/deployed";
import { SupportCallsApi, supportCallsApi } from "./resources/supportCalls";
import { GamesApi, gamesApi } from "./resources/games";
import { HistoryApi, historyApi } from "./resources/history";
import { OrdersApi, ordersApi } from "./resources/orders";
import { TeamsApi, teamsApi } from "./resources/teams";
import { TimeOffApi, timeOffApi } from "./resources/timeOff";
import { AnyOperationId, OPERATIONS } from "./routes";

/**
 * The configuration of a {@link StaffOpsApiClient}: the base URL, the API key (a string or a `Secret`), the ranking key
 * when the game has one (`client.commands.setRank` only), the timeout per attempt, the request budget and the retry
 * options.
 *
 * @example
 * ```ts
 * const config: ApiClientConfig = { baseUrl: "https://staff.example.com", apiKey: HttpService.GetSecret("staffops") };
 * ```
 * @see README#configuration
 */
export type ApiClientConfig = TransportConfig;

/**
 * The api client of the Staff Operations Service (the typed HTTP client): one method per operation, grouped by
 * resource. Every method returns a Promise that resolves with the checked answer or rejects with a
 * {@link StaffOpsError}; arguments are checked before anything is sent. Construction never throws: a bad
 * configuration makes every call reject with kind `invalid` (see {@link StaffOpsApiClient.configError}).
 *
 * @example
 * ```ts
 * const client = new StaffOpsApiClient({ baseUrl: "https://staff.example.com", apiKey: HttpService.GetSecret("staffops") });
 * client.orders
 * 	.create({ customerId: "1", cashierId: "2", items: [{ item: "Latte", quantity: 1 }], placeId: "10", gameId: "20" })
 * 	.andThen(({ order }) => print(`order ${order._id}`))
 * 	.catch((err: unknown) => warn(tostring(err)));
 * ```
 * @see README#typed-client
 */
export class StaffOpsApiClient {
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
	/** Support calls of the deployed service: create, end, list. */
	readonly support: SupportCallsApi;
	/** Team memberships. */
	readonly teams: TeamsApi;
	/** The deployed service's admin chat command routes: registration, permissions, bans, verify links. */
	readonly commands: CommandsApi;
	/** Operations of the deployed service beyond the interface. */
	readonly extensions: ExtensionsApi;
	/** Why the configuration is unusable, or undefined when it is fine. */
	readonly configError: StaffOpsError | undefined;

	private readonly transport: Transport;

	/**
	 * @param config base URL, API key, timeout, budget, retries
	 * @param seams Roblox seams for tests (HttpService, clock, randomness); omit in games
	 */
	constructor(config: ApiClientConfig, seams?: TransportSeams) {
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

		this.history = historyApi(call);
		this.activity = activityApi(call);
		this.games = gamesApi(call);
		this.orders = ordersApi(call);
		this.timeOff = timeOffApi(call);
		this.calls = callsApi(call);
		this.support = supportCallsApi(call);
		this.teams = teamsApi(call);
		this.commands = commandsApi(call);
		this.extensions = extensionsApi(call);
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

	/** The request budget this api client draws from. */
	getBudget(): RequestBudget {
		return this.transport.getBudget();
	}

	/** `StaffOpsApiClient(https://host)`: never the key. */
	toString(): string {
		return `StaffOpsApiClient(${this.transport.getBaseUrl()})`;
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
		const [optionsOk, priority, maxAttempts, timeout] = readCallOptions(options, OPERATIONS[operation].priority);
		if (!optionsOk) {
			return Promise.reject(new StaffOpsError({ kind: "invalid", operation, message: priority })) as Promise<T>;
		}
		const encoded = encodeRequest(transport.json(), operation, pathValues, body);
		if (!encoded.ok) return Promise.reject(encoded.error) as Promise<T>;
		const spec = OPERATIONS[operation];
		const read = (answer: TransportAnswer) =>
			decodeAnswer<T>(transport.json(), operation, answer.status, answer.body, {
				attempts: answer.attempts,
				retryAfter: answer.retryAfter,
				earlierMayHaveActed: answer.earlierMayHaveActed,
				redact: (text) => transport.redact(text, spec.credential),
				redactValues: (text) => transport.redactKnown(text),
				slicer: () => transport.slicer(),
			});
		const wanted = options?.late;
		// A late answer is read like any other; one the reader refuses (a refusal, an unusable body) is not handed over.
		const late =
			typeIs(wanted, "table") && typeIs(wanted.take, "function") && typeIs(wanted.listen, "number")
				? {
						listen: math.clamp(wanted.listen, 0, 120),
						take: (answer: TransportAnswer) => {
							const decoded = read(answer);
							if (decoded.ok) wanted.take(decoded.value);
						},
					}
				: undefined;
		return transport
			.send({
				operation,
				method: encoded.value.method,
				path: encoded.value.path,
				body: encoded.value.body,
				safeToRepeat: spec.safeToRepeat,
				priority,
				maxAttempts,
				timeout,
				credential: spec.credential,
				late,
			})
			.andThen((answer) => {
				const decoded = read(answer);
				if (!decoded.ok) return Promise.reject(decoded.error) as Promise<T>;
				return decoded.value;
			});
	}
}
