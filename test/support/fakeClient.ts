import { ApiClientConfig, StaffOpsApiClient } from "../../src/api/apiClient";
import type { CreateServerArgs } from "../../src/api/resources/activity";
import { RequestBudget } from "../../src/transport/budget";
import { FakeHttp, FakeScheduler } from "./fakes";

// An API client on the fakes, for transport and client specs that script every answer themselves.

/** An API client with its fake clock and fake HTTP. */
export interface FakeClientRig {
	readonly clock: FakeScheduler;
	readonly http: FakeHttp;
	readonly client: StaffOpsApiClient;
}

/**
 * An API client for `apiKey` on a fake clock and fake HTTP, with a budget of its own on that clock (400 a minute,
 * bursts of 10, a request waits at most 600 s), the random draw 0.5 and the `retry` given.
 */
export function fakeClient(apiKey: string, retry: ApiClientConfig["retry"]): FakeClientRig {
	const clock = new FakeScheduler();
	const http = new FakeHttp(clock);
	const client = new StaffOpsApiClient(
		{
			baseUrl: "https://staff.example.com",
			apiKey,
			budget: new RequestBudget({ perMinute: 400, burst: 10, maxWait: 600 }, clock),
			retry,
		},
		{ http, scheduler: clock, random: () => 0.5 },
	);
	return { clock, http, client };
}

/** A server's facts for a registerServer call whose values do not matter to the spec. */
export const ANY_SERVER: CreateServerArgs = {
	gameId: 1,
	placeId: 2,
	jobId: "",
	privateServerId: "",
	privateServerOwnerId: 0,
	placeVersion: "1",
};
