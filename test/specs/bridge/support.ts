import { HttpService } from "@rbxts/services";
import { StaffOpsApiClient } from "../../../src/api/apiClient";
import { CallMessagesAnswer } from "../../../src/api/resources/calls";
import { CallBridge } from "../../../src/bridge/callBridge";
import { CallBridgeOptions, CallsApiClient } from "../../../src/bridge/types";
import { ChatMessagePayload } from "../../../src/shared/chatProtocol";
import { RequestBudget } from "../../../src/transport/budget";
import { HttpServiceLike } from "../../../src/transport/httpDoor";
import { RetryOptions } from "../../../src/transport/retry";
import { Scheduler } from "../../../src/transport/scheduler";
import { FakeScheduler } from "../../support/fakes";
import { harness } from "../../support/harness";
import { referenceClient } from "../../support/referenceClient";
import { serviceControl } from "../../support/serviceControl";
import { waitUntil } from "../../support/waits";

/** A seeded call with a fixed transcript (two messages, no timed arrivals); specs reopen it first. */
export const STATIC_CALL = "call-closed";
/** The seeded open call whose messages arrive 0, 5, 10 and 20 s after a reset. */
export const TIMED_CALL = "call-demo";

/** A client of the reference service with its own generous budget (pacing is tested with fakes). */
export function liveClient(retry: RetryOptions = { maxAttempts: 1 }, apiKey = harness.serviceKey): StaffOpsApiClient {
	return referenceClient({ retry, apiKey, timeout: 5 });
}

/** A bridge against the reference service whose polls run on a fake clock, over a remote of its own. */
export interface LiveRig {
	readonly bridge: CallBridge;
	readonly clock: FakeScheduler;
	readonly remote: RemoteEvent;
	readonly client: StaffOpsApiClient;
	/** Moves the fake clock far enough for every chat to poll once, then waits for the polls to finish. */
	readonly pollAgain: (seconds?: number) => void;
	/** Waits (real time) until no chat has a poll in flight. */
	readonly waitForPolls: () => void;
}

export function liveRig(overrides: Partial<CallBridgeOptions> = {}, retry?: RetryOptions): LiveRig {
	const clock = new FakeScheduler();
	const remote = new Instance("RemoteEvent");
	remote.Name = "CallEventsUnderTest";
	const client = liveClient(retry);
	const bridge = new CallBridge({ client, scheduler: clock, random: () => 0.5, remote, ...overrides });
	const waitForPolls = () => waitUntil(() => bridge.getStats().busy === 0, "the polls to finish", 10);
	return {
		bridge,
		clock,
		remote,
		client,
		waitForPolls,
		pollAgain: (seconds = 60) => {
			waitForPolls();
			clock.advance(seconds);
			waitForPolls();
		},
	};
}

/** A live-rig spec's `beforeEach`: the reference service back to its seeded state, with STATIC_CALL open. */
export function openStaticCall(): void {
	serviceControl.reset();
	serviceControl.setCallStatus(STATIC_CALL, "open");
}

/**
 * A live-rig spec's `afterEach`: its rig (when it made one) destroyed, the service's faults cleared and the fakes
 * reset. Returns undefined, for the spec file's rig variable: `afterEach(() => (rig = dropLiveRig(rig)))`.
 */
export function dropLiveRig(rig: LiveRig | undefined): undefined {
	rig?.bridge.destroy();
	serviceControl.clearFaults();
	harness.reset();
	return undefined;
}

/**
 * Opens STATIC_CALL's chat for a new player `userId`, lets its first poll land (the spec made it a 429 asking for
 * `retryAfter` seconds), then counts the polls 0.1 s before and 0.1 s after that wait has passed.
 */
export function pollsAroundRetryAfter(
	rig: LiveRig,
	userId: number,
	retryAfter: number,
): { player: Player; before: number; after: number } {
	const player = harness.players.add(userId);
	rig.bridge.open(player, STATIC_CALL);
	rig.waitForPolls();
	rig.clock.advance(retryAfter - 0.1);
	rig.waitForPolls();
	const before = rig.bridge.getStats().polls;
	rig.clock.advance(0.2);
	rig.waitForPolls();
	return { player, before, after: rig.bridge.getStats().polls };
}

/** What a player's client received on `remote`: [kind, payload] pairs, oldest first. */
export function received(player: Player, remote: RemoteEvent): Array<[string, Record<string, unknown>]> {
	return harness.players
		.client(player)
		.received(remote)
		.map((entry) => [entry[0] as string, entry[1] as Record<string, unknown>]);
}

/** The `message` payloads a player's client received. */
export function messagesOf(player: Player, remote: RemoteEvent): Array<ChatMessagePayload> {
	const out = new Array<ChatMessagePayload>();
	for (const [kind, payload] of received(player, remote)) {
		if (kind === "message") out.push(payload as unknown as ChatMessagePayload);
	}
	return out;
}

/** The kinds a player's client received, e.g. `opened,message,closed`. */
export function kindsOf(player: Player, remote: RemoteEvent): string {
	return received(player, remote)
		.map(([kind]) => kind)
		.join(",");
}

/** The texts of the messages a player's client received, joined by `|`. */
export function textsOf(player: Player, remote: RemoteEvent): string {
	return messagesOf(player, remote)
		.map((message) => message.text)
		.join("|");
}

/** Every string anywhere in what a player's client received, joined (to search for leaks). */
export function everythingSentTo(player: Player, remote: RemoteEvent): string {
	const parts = new Array<string>();
	const walk = (value: unknown) => {
		if (typeIs(value, "string")) parts.push(value);
		else if (typeIs(value, "table")) {
			for (const [key, item] of pairs(value)) {
				walk(key);
				walk(item);
			}
		}
	};
	for (const entry of harness.players.client(player).received(remote)) walk(entry);
	return parts.join("\n");
}

/** The message ids of a call's transcript right now (read with a client of its own). */
export function transcriptIds(callId: string): Array<string> {
	const [ok, answer] = liveClient().calls.getMessages(callId).await();
	if (!ok) error(`could not read ${callId}: ${tostring(answer)}`, 2);
	return (answer as CallMessagesAnswer).messages.map((message) => message.id);
}

interface FakeCall {
	status: string;
	messages: Array<{ id: string; username?: string; message?: string; origin?: string; created?: string }>;
}

/**
 * A fake service that answers `GET /calls/{callId}/messages` from memory, with no real time involved: for specs of
 * pacing on a fake clock. Other paths answer 404. `hang` makes a call's requests never answer.
 */
export class FakeCallsHttp implements HttpServiceLike {
	readonly calls = new Map<string, FakeCall>();
	/** Every request: the time on the clock and the call id. */
	readonly requests = new Array<{ at: number; callId: string }>();
	/** Calls whose requests hang until the transport's timeout. */
	readonly hanging = new Set<string>();
	/** Calls that have a new message on every request (a busy conversation). */
	readonly chatty = new Set<string>();
	/** Calls whose next requests answer with these statuses (a failure body), one per request. */
	readonly failures = new Map<string, Array<number>>();
	private nextId = 0;

	constructor(private readonly clock: Scheduler) {}

	/** Adds an open call with no messages. */
	open(callId: string): this {
		this.calls.set(callId, { status: "open", messages: [] });
		return this;
	}

	/** Appends an agent message to a call. */
	say(callId: string, text: string, username = "Agent"): string {
		this.nextId += 1;
		const id = `m${this.nextId}`;
		this.calls.get(callId)!.messages.push({
			id,
			username,
			message: text,
			origin: "agent",
			created: "2024-06-01T08:00:00.000Z",
		});
		return id;
	}

	/** How many requests a call got, or all calls when omitted. */
	count(callId?: string, since = -math.huge): number {
		return this.requests
			.filter((request) => (callId === undefined || request.callId === callId) && request.at >= since)
			.size();
	}

	RequestAsync(options: RequestAsyncRequest): RequestAsyncResponse {
		const [callId] = (options.Url as string).match("/calls/([^/]+)/messages$");
		const id = typeIs(callId, "string") ? callId : "";
		this.requests.push({ at: this.clock.now(), callId: id });
		if (this.hanging.has(id)) {
			coroutine.yield();
			error("HttpError: Timedout", 0);
		}
		const failures = this.failures.get(id);
		if (failures !== undefined && failures.size() > 0) {
			const status = failures.shift()!;
			return this.answer(status, { success: false, reason: "Injected failure" });
		}
		const call = this.calls.get(id);
		if (call !== undefined && this.chatty.has(id)) this.say(id, `message at ${this.clock.now()}`);
		if (call === undefined) return this.answer(404, { success: false, reason: `Unknown call ${id}` });
		return this.answer(200, { success: true, status: call.status, messages: call.messages });
	}

	JSONEncode(input: unknown): string {
		return HttpService.JSONEncode(input);
	}

	JSONDecode(input: string): unknown {
		return HttpService.JSONDecode(input);
	}

	private answer(status: number, body: object): RequestAsyncResponse {
		return {
			Success: status >= 200 && status <= 299,
			StatusCode: status,
			StatusMessage: "",
			Headers: {},
			Body: this.JSONEncode(body),
		};
	}
}

/** A bridge over {@link FakeCallsHttp}, with the client, budget and bridge all on one fake clock. */
export interface FakeRig {
	readonly bridge: CallBridge;
	readonly clock: FakeScheduler;
	readonly http: FakeCallsHttp;
	readonly budget: RequestBudget;
	readonly remote: RemoteEvent;
}

export function fakeRig(
	budgetOptions: { perMinute?: number; burst?: number; maxWait?: number } = { perMinute: 100_000, burst: 10_000 },
	overrides: Partial<CallBridgeOptions> = {},
): FakeRig {
	const clock = new FakeScheduler();
	const http = new FakeCallsHttp(clock);
	const budget = new RequestBudget(budgetOptions, clock);
	const client = new StaffOpsApiClient(
		{ baseUrl: "https://staffops.example", apiKey: "fake-key", timeout: 10, retry: { maxAttempts: 1 }, budget },
		{ http, scheduler: clock, random: () => 0.5 },
	);
	const remote = new Instance("RemoteEvent");
	remote.Name = "CallEventsUnderTest";
	const bridge = new CallBridge({
		client,
		scheduler: clock,
		random: () => 0.5,
		remote,
		// Synchronous, and never giving the frame back, so everything happens inside clock.advance.
		filter: (text) => text,
		yieldSlice: () => {},
		...overrides,
	});
	return { bridge, clock, http, budget, remote };
}

/** One message of a {@link ScriptedCalls} transcript. */
export type ScriptedMessage = { id: string; username?: string; message?: string; origin?: string; created?: string };

/**
 * A fake `CallsApiClient` that answers every poll at once, without HTTP or JSON, from a script: `answer(poll)` makes
 * the transcript of the poll'th request (1, 2, ...). For transcript shapes the reference service cannot produce
 * (ids that change on every poll, 10,000 messages) and for timing only the bridge's own work.
 */
export class ScriptedCalls implements CallsApiClient {
	/** Requests so far. */
	polls = 0;
	/** Called as each request starts (before the answer is handed over). */
	onPoll?: () => void;
	readonly calls: CallsApiClient["calls"];

	constructor(
		private readonly budget: RequestBudget,
		answer: (poll: number) => { status: string; messages: ReadonlyArray<ScriptedMessage> },
	) {
		// eslint-disable-next-line @typescript-eslint/no-this-alias
		const rig = this;
		this.calls = {
			getMessages(): Promise<CallMessagesAnswer> {
				rig.polls += 1;
				const made = answer(rig.polls);
				rig.onPoll?.();
				return Promise.resolve({ success: true as const, status: made.status, messages: made.messages });
			},
		};
	}

	getBudget(): RequestBudget {
		return this.budget;
	}
}

/** A bridge over {@link ScriptedCalls} on a fake clock, filtering with `filter` (default: unchanged, counted). */
export interface ScriptedRig {
	readonly bridge: CallBridge;
	readonly clock: FakeScheduler;
	readonly calls: ScriptedCalls;
	readonly remote: RemoteEvent;
	/** Filter calls so far. */
	readonly filterCalls: () => number;
}

export function scriptedRig(
	answer: (poll: number) => { status: string; messages: ReadonlyArray<ScriptedMessage> },
	overrides: Partial<CallBridgeOptions> = {},
	clock = new FakeScheduler(),
): ScriptedRig {
	const calls = new ScriptedCalls(new RequestBudget({ perMinute: 100_000, burst: 10_000 }, clock), answer);
	const remote = new Instance("RemoteEvent");
	remote.Name = "CallEventsUnderTest";
	let filterCalls = 0;
	const bridge = new CallBridge({
		client: calls,
		scheduler: clock,
		random: () => 0.5,
		remote,
		filter: (text) => {
			filterCalls += 1;
			return text;
		},
		yieldSlice: () => {},
		...overrides,
	});
	return { bridge, clock, calls, remote, filterCalls: () => filterCalls };
}

/** `count` agent messages `prefix1..prefixN` (ids and texts alike), all from one sender unless `senders` says. */
export function transcript(prefix: string, count: number, senders = 1, from = 1): Array<ScriptedMessage> {
	const out = new Array<ScriptedMessage>();
	for (let i = from; i < from + count; i++) {
		out.push({
			id: `${prefix}${i}`,
			username: `Agent${i % senders}`,
			message: `text ${i}`,
			origin: "agent",
			created: "2024-06-01T08:00:00.000Z",
		});
	}
	return out;
}
