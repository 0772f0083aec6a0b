import { HttpService } from "@rbxts/services";
import { BudgetOptions, RequestBudget, RequestPriority, sharedBudget } from "./budget";
import { DoorResult, HttpServiceLike, sendThroughDoor, ThrownFailure } from "./httpDoor";
import {
	AttemptOutcome,
	backoffDelay,
	classifyOutcome,
	parseRetryAfter,
	RetryOptions,
	RetrySettings,
	retrySettings,
	shouldRetry,
} from "./retry";
import { robloxScheduler, Scheduler, sleep } from "./scheduler";
import { Credential, KeyRing } from "./keyRing";
import { StaffOpsError } from "./staffOpsError";
import { checkBaseUrl } from "./settingsChecks";
import { frameYield, Slicer, YieldSlice } from "../shared/slicer";

/**
 * Settings of the connection to the Staff Operations Service.
 *
 * @example
 * ```ts
 * const config: TransportConfig = {
 * 	baseUrl: "https://staff.example.com",
 * 	apiKey: HttpService.GetSecret("staffops_key"),
 * 	timeout: 10,
 * };
 * ```
 * @see README#configuration
 */
export interface TransportConfig {
	/** The service's base address; `https://` required, except `http://` to loopback (127.0.0.1, localhost). */
	readonly baseUrl: string;
	/** The workspace's API key (sent as the `loader-id` header): a string or a Roblox `Secret`. */
	readonly apiKey: string | Secret;
	/**
	 * The workspace's separate ranking key, for the deployed service's ranking route only (sent there as the `api-key`
	 * header, and to no other route): a string or a Roblox `Secret`. Default: none, and ranking requests are refused.
	 */
	readonly rankingKey?: string | Secret;
	/** Seconds one attempt may take before it counts as a timeout. Default 10. */
	readonly timeout?: number;
	/**
	 * The request budget: a {@link RequestBudget} to draw from, or options that reconfigure the library-wide one
	 * ({@link sharedBudget}). Default: the library-wide budget as it is.
	 */
	readonly budget?: RequestBudget | BudgetOptions;
	/** How failed requests are retried. */
	readonly retry?: RetryOptions;
}

/**
 * The Roblox seams of the transport; each defaults to the real thing. Specs pass fakes.
 *
 * @example
 * ```ts
 * new StaffOpsApiClient(config, { http: fakeHttp, scheduler: fakeClock, random: () => 0.5 });
 * ```
 * @see README#testing
 */
export interface TransportSeams {
	/** The HTTP door; default `HttpService`. */
	readonly http?: HttpServiceLike;
	/** The clock for timeouts and backoff; default `os.clock` + `task.delay`. */
	readonly scheduler?: Scheduler;
	/** Uniform draws in [0, 1) for jitter; default `math.random`. */
	readonly random?: () => number;
	/**
	 * How reading a large answer gives the frame back; default one frame (`task.wait()`). A simulation passes one
	 * frame of its own clock, so a slice costs simulated time, not whatever the host was doing meanwhile.
	 * @internal
	 */
	readonly yieldSlice?: YieldSlice;
	/** The clock a slice's length is measured on; default `os.clock`. @internal */
	readonly workClock?: () => number;
}

/** The HTTP methods requests use. @see README#typed-client */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** One request as the API layer hands it to the transport. @internal */
export interface TransportRequest {
	readonly operation: string;
	readonly method: HttpMethod;
	/** Starts with `/`, already percent-encoded. */
	readonly path: string;
	/** JSON text, for POST and PUT. */
	readonly body?: string;
	readonly safeToRepeat: boolean;
	readonly priority: RequestPriority;
	/** At most this many attempts (default: the retry settings'). */
	readonly maxAttempts?: number;
	/** Seconds each attempt waits for its answer (default: the transport's timeout). */
	readonly timeout?: number;
	/** The key it carries (default the API key, in `loader-id`). */
	readonly credential?: Credential;
	/** Keeps listening after an attempt is given up on, and hands over an answer that still comes (any status). */
	readonly late?: LateListener;
}

/**
 * What to do with an answer that arrives after its attempt was given up on: RequestAsync keeps listening `listen`
 * seconds past the attempt's timeout, and `take` gets what comes in that time. For an operation that is not safe to
 * repeat, where the caller would rather use a late answer than leave what the service made unknown.
 * @internal
 */
export interface LateListener {
	readonly listen: number;
	readonly take: (answer: TransportAnswer) => void;
}

/** The answer the transport settled on (any HTTP status). @internal */
export interface TransportAnswer {
	readonly status: number;
	readonly body: string;
	readonly headers: Record<string, string>;
	readonly attempts: number;
	readonly retryAfter?: number;
	/** An earlier attempt may have been acted on (its outcome was unknown), e.g. a release after a timeout. */
	readonly earlierMayHaveActed: boolean;
}

/** The whole seconds sent as RequestAsync's `Timeout` for an attempt of `seconds`: rounded up, at least 1. */
function requestTimeout(seconds: number): number {
	return math.max(1, math.ceil(seconds));
}

function finiteTimeout(value: number | undefined): number {
	if (value === undefined || value !== value || value <= 0 || value >= math.huge) return 10;
	return value;
}

/**
 * The one door to HttpService: sends a request through the shared budget, with a timeout per attempt and
 * retries, and settles on an answer (any HTTP status) or rejects with a `network`, `timeout` or `budget`
 * {@link StaffOpsError}. Holds the keys in a {@link KeyRing} so printing the transport never shows them.
 * @internal
 */
export class Transport {
	/** Why the configuration is unusable; every request then rejects with kind `invalid`. */
	readonly configProblem: string | undefined;
	private readonly baseUrl: string;
	private readonly timeout: number;
	private readonly retry: RetrySettings;
	private readonly budget: RequestBudget;
	private readonly http: HttpServiceLike;
	private readonly yieldSlice: YieldSlice;
	private readonly workClock: () => number;
	private readonly scheduler: Scheduler;
	private readonly random: () => number;
	private readonly keys: KeyRing;

	constructor(config: TransportConfig, seams: TransportSeams = {}) {
		const [urlOk, urlOrProblem] = checkBaseUrl(typeIs(config, "table") ? config.baseUrl : undefined);
		const isTable = typeIs(config, "table");
		this.keys = new KeyRing(isTable ? config.apiKey : undefined, isTable ? config.rankingKey : undefined);
		const keyProblem = this.keys.apiKeyProblem;
		this.configProblem = !isTable ? "config must be a table" : !urlOk ? urlOrProblem : keyProblem;
		this.baseUrl = urlOk ? urlOrProblem : "";
		this.timeout = finiteTimeout(config?.timeout);
		this.retry = retrySettings(config?.retry);
		const budget = config?.budget;
		if (budget instanceof RequestBudget) {
			this.budget = budget;
		} else {
			this.budget = sharedBudget();
			if (typeIs(budget, "table")) this.budget.configure(budget as BudgetOptions);
		}
		this.http = seams.http ?? HttpService;
		this.yieldSlice = seams.yieldSlice ?? frameYield;
		this.workClock = seams.workClock ?? os.clock;
		this.scheduler = seams.scheduler ?? robloxScheduler;
		this.random = seams.random ?? (() => math.random());
	}

	/**
	 * Removes both keys from a text that a request carrying `credential` may echo back (a Secret's text cannot be
	 * read, so its echo cannot be found: key-like tokens are masked instead).
	 */
	redact(text: string, credential?: Credential): string {
		return this.keys.scrub(text, credential);
	}

	/**
	 * Removes the keys' known texts from a text (nothing for a Secret, whose text cannot be read): for every value of a
	 * typed answer, where masking anything key-like would also mask the service's ids.
	 */
	redactKnown(text: string): string {
		return this.keys.redactKnown(text);
	}

	/** The normalised base URL. */
	getBaseUrl(): string {
		return this.baseUrl;
	}

	/** The JSON codec (the HTTP door's `JSONEncode`/`JSONDecode`). */
	json(): HttpServiceLike {
		return this.http;
	}

	/** A new slicer for one long piece of work (reading a large answer), on the transport's frame seams. */
	slicer(): Slicer {
		return new Slicer(this.yieldSlice, this.workClock);
	}

	/** The budget this transport draws from. */
	getBudget(): RequestBudget {
		return this.budget;
	}

	/** Sends `request`, retrying as the retry settings allow, and settles on the last answer. */
	send(request: TransportRequest): Promise<TransportAnswer> {
		if (this.configProblem !== undefined) {
			return Promise.reject(
				new StaffOpsError({
					kind: "invalid",
					operation: request.operation,
					message: `invalid configuration: ${this.configProblem}`,
				}),
			) as Promise<TransportAnswer>;
		}
		const rankingKeyProblem = this.keys.rankingKeyProblem;
		if (request.credential === "rankingKey" && rankingKeyProblem !== undefined) {
			return Promise.reject(
				new StaffOpsError({ kind: "invalid", operation: request.operation, message: rankingKeyProblem }),
			) as Promise<TransportAnswer>;
		}
		return this.run(request, 1, false);
	}

	/** `Transport(https://host)`: never the key. */
	toString(): string {
		return `StaffOpsTransport(${this.baseUrl})`;
	}

	private run(request: TransportRequest, attempt: number, earlierMayHaveActed: boolean): Promise<TransportAnswer> {
		return this.budget
			.acquire(request.priority)
			.catch((reason: unknown) => {
				throw new StaffOpsError({
					kind: "budget",
					operation: request.operation,
					message: typeIs(reason, "string") ? reason : "request budget refused the request",
					attempts: attempt - 1,
					mayHaveActed: earlierMayHaveActed,
				});
			})
			.andThen(() => this.attempt(request))
			.andThen((result): Promise<TransportAnswer> | TransportAnswer => {
				const outcome: AttemptOutcome = result.ok
					? { type: "status", status: result.response.StatusCode }
					: { type: "thrown", failure: result.failure };
				const acted = earlierMayHaveActed || classifyOutcome(outcome).mayHaveActed;
				if (result.ok) {
					const response = result.response;
					const retryAfter = parseRetryAfter(response.Headers);
					const answer: TransportAnswer = {
						status: response.StatusCode,
						body: typeIs(response.Body, "string") ? response.Body : "",
						headers: typeIs(response.Headers, "table") ? response.Headers : {},
						attempts: attempt,
						retryAfter,
						earlierMayHaveActed,
					};
					const status = response.StatusCode;
					if (status >= 200 && status <= 299) return answer;
					if (!this.mayRetry(outcome, request, attempt, retryAfter)) return answer;
					return this.retryLater(request, attempt, acted, retryAfter);
				}
				const failure = result.failure;
				if (failure.kind === "limit") this.budget.pause();
				if (!this.mayRetry(outcome, request, attempt, undefined))
					throw this.failureError(request, failure, attempt, acted);
				return this.retryLater(request, attempt, acted, undefined);
			});
	}

	private mayRetry(
		outcome: AttemptOutcome,
		request: TransportRequest,
		attempt: number,
		retryAfter: number | undefined,
	): boolean {
		if (attempt >= (request.maxAttempts ?? this.retry.maxAttempts)) return false;
		if (retryAfter !== undefined && retryAfter > this.retry.maxRetryAfter) return false;
		return shouldRetry(outcome, request.safeToRepeat);
	}

	private retryLater(
		request: TransportRequest,
		attempt: number,
		earlierMayHaveActed: boolean,
		retryAfter: number | undefined,
	): Promise<TransportAnswer> {
		const wait = backoffDelay(this.retry, attempt, this.random, retryAfter);
		return sleep(this.scheduler, wait).andThen(() => this.run(request, attempt + 1, earlierMayHaveActed));
	}

	private failureError(
		request: TransportRequest,
		failure: ThrownFailure,
		attempts: number,
		mayHaveActed: boolean,
	): StaffOpsError {
		const kind = failure.kind === "limit" ? "budget" : failure.kind;
		const unsent =
			failure.sent && !request.safeToRepeat && failure.retryable
				? " (not repeated: it may have been acted on)"
				: "";
		return new StaffOpsError({
			kind,
			operation: request.operation,
			message: this.keys.scrub(failure.message, request.credential) + unsent,
			attempts,
			mayHaveActed,
		});
	}

	private lateAnswer(response: RequestAsyncResponse): TransportAnswer {
		return {
			status: response.StatusCode,
			body: typeIs(response.Body, "string") ? response.Body : "",
			headers: typeIs(response.Headers, "table") ? response.Headers : {},
			attempts: 1,
			earlierMayHaveActed: false,
		};
	}

	/** One attempt with the timeout; resolves with the door's result, never rejects. */
	private attempt(request: TransportRequest): Promise<DoorResult> {
		const timeout = request.timeout ?? this.timeout;
		const late = request.late;
		// RequestAsync's own `Timeout` makes the engine give up on the request too; without it an attempt abandoned
		// below would keep running and hold a connection. Roblox types it Integer (seconds): the attempt's timeout
		// rounded up, at least 1, so the engine never gives up before the timer below.
		const options: RequestAsyncRequest & { Timeout: number } = {
			Url: this.baseUrl + request.path,
			Method: request.method,
			Headers: this.keys.headers(request.body !== undefined, request.credential),
			Body: request.body,
			Timeout: requestTimeout(timeout + (late?.listen ?? 0)),
		};
		return new Promise<DoorResult>((resolve) => {
			let settled = false;
			this.scheduler.delay(timeout, () => {
				if (settled) return;
				settled = true;
				resolve({
					ok: false,
					failure: { kind: "timeout", retryable: true, sent: true, message: `no answer within ${timeout} s` },
				});
			});
			// A separate thread, so a RequestAsync that yields past the timeout is simply abandoned.
			task.spawn(() => {
				const result = sendThroughDoor(this.http, options, (text) => this.keys.scrub(text, request.credential));
				if (settled) {
					// Given up on already: only a caller that listens late hears of it.
					if (late !== undefined && result.ok) late.take(this.lateAnswer(result.response));
					return;
				}
				settled = true;
				resolve(result);
			});
		});
	}
}
