import { StaffOpsApiClient } from "../../src/api/apiClient";
import { RequestBudget } from "../../src/transport/budget";
import { RetryOptions } from "../../src/transport/retry";
import { StaffOpsError } from "../../src/transport/staffOpsError";
import { harness } from "./harness";

/** What the specs' clients of the reference service differ in. */
export interface ReferenceClientOptions {
	/** How failed requests are retried. */
	readonly retry: RetryOptions;
	/** Seconds one attempt may take; left out, the client's default. */
	readonly timeout?: number;
	/** Default: the key of the reference service's default workspace. */
	readonly apiKey?: string | Secret;
	/** Default: the reference service this run started. */
	readonly baseUrl?: string;
	/** Default: a roomy budget of its own, as specs of the wire are not about pacing. */
	readonly budget?: RequestBudget;
}

/** A typed client of the reference service. */
export function referenceClient(options: ReferenceClientOptions): StaffOpsApiClient {
	return new StaffOpsApiClient({
		baseUrl: options.baseUrl ?? harness.serviceUrl,
		apiKey: options.apiKey ?? harness.serviceKey,
		timeout: options.timeout,
		retry: options.retry,
		budget: options.budget ?? new RequestBudget({ perMinute: 100_000, burst: 10_000 }),
	});
}

/** Registers a server of its own with `client` (`jobId` tells it apart) and returns its running game id. */
export function registerSpecServer(client: StaffOpsApiClient, jobId: string): string {
	const [ok, registration] = client.activity
		.registerServer({
			gameId: 1,
			placeId: 2,
			jobId,
			privateServerId: "",
			privateServerOwnerId: 0,
			placeVersion: "1",
		})
		.await();
	if (!ok) error(`register: ${tostring(registration)}`, 2);
	return (registration as { runningGameId: string }).runningGameId;
}

/** Waits for `promise` to fail; errors unless it fails with a StaffOpsError whose text does not show the key. */
export function failure(promise: Promise<unknown>): StaffOpsError {
	const [ok, value] = promise.await();
	if (ok) error("expected a failure, got success", 2);
	if (!StaffOpsError.is(value)) error(`expected a StaffOpsError, got ${tostring(value)}`, 2);
	if (tostring(value).find(harness.serviceKey, 1, true)[0] !== undefined) error("the error text shows the key", 2);
	return value;
}
