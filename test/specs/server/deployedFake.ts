import { HttpService } from "@rbxts/services";
import type { StaffOpsConfig } from "../../../src/server/config";
import type { ServerSeams } from "../../../src/server/seams";
import type { HttpServiceLike } from "../../../src/transport/httpDoor";
import { RequestBudget } from "../../../src/transport/budget";
import { StaffOps } from "../../../src/server";
import { SYNC_IDLE_SECONDS } from "../../../src/server/features/presence/sync";
import { FakeScheduler } from "../../support/fakes";
import { waitUntil } from "../../support/waits";

// An in-process stand-in for the deployed service's in-game routes (docs/service-contract.md#routes-beyond-the-interface), for the sync specs until the reference
// service models sendData (not a spec: TestEZ runs only *.spec modules). It counts what reached it, hands queued
// actions over at most once, and fails a route on demand.

/** The key the specs start with: a kick message that echoes it must arrive redacted. */
export const FAKE_KEY = "deployed-spec-key-0123456789";

/** One request the fake received. */
export interface FakeRequest {
	readonly at: number;
	readonly method: string;
	readonly path: string;
	readonly body: Record<string, unknown>;
}

type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | { throws: string };

/** The fake deployed service. */
export class DeployedFake implements HttpServiceLike {
	readonly seen = new Array<FakeRequest>();
	/** Actions handed over by the next sync answer (then gone, as on the service). */
	readonly queued = new Array<defined>();
	/** Whether createServer's answer has the deployed service's top-level fields. */
	deployed = true;
	/** Users the join answer calls banned. */
	readonly banned = new Set<number>();
	/** Whether the running game is gone (reads answer 404). */
	forgotten = false;
	/** A raw `queuedActions` value for the next answer instead of `queued` (hostile shapes). */
	rawQueued?: unknown;
	/** Seconds of the spec's clock that requests to a path take to answer (a slow route). */
	readonly slow = new Map<string, number>();
	private readonly faults = new Map<string, Array<Reply>>();
	private servers = 0;

	constructor(private readonly clock: FakeScheduler) {}

	/** The next `times` requests to `path` get `reply`. */
	fail(path: string, reply: Reply, times = 1): void {
		const list = this.faults.get(path) ?? [];
		for (let i = 0; i < times; i++) list.push(reply);
		this.faults.set(path, list);
	}

	/** Requests to `path` answer again as the service would (the faults still waiting for it are dropped). */
	heal(path: string): void {
		this.faults.delete(path);
	}

	/** Requests to `path` (a prefix). */
	to(path: string): Array<FakeRequest> {
		return this.seen.filter((request) => request.path.sub(1, path.size()) === path);
	}

	RequestAsync(options: RequestAsyncRequest): RequestAsyncResponse {
		const [path] = (options.Url as string).gsub("^https?://[^/]+", "");
		const body = (options.Body !== undefined ? HttpService.JSONDecode(options.Body) : {}) as Record<
			string,
			unknown
		>;
		this.seen.push({ at: this.clock.now(), method: options.Method ?? "GET", path, body });
		// RequestAsync runs in a thread of the transport's own: it may wait for the spec to move the clock.
		const answersAt = this.clock.now() + (this.slow.get(path) ?? 0);
		// Bounded in real time: a spec that ends before moving the clock that far must not leave a thread that
		// resumes every frame for the rest of the run.
		const began = os.clock();
		while (this.clock.now() < answersAt && os.clock() - began < 60) task.wait();
		const fault = this.faults.get(path)?.shift();
		const reply = fault ?? this.answer(path, body);
		if ("throws" in reply) error(reply.throws, 0);
		const text = reply.body === undefined ? "" : HttpService.JSONEncode(reply.body);
		return {
			Success: reply.status >= 200 && reply.status <= 299,
			StatusCode: reply.status,
			StatusMessage: "",
			Headers: reply.headers ?? {},
			Body: text,
		};
	}

	private answer(path: string, body: Record<string, unknown>): Reply {
		if (path === "/activity/createServer") {
			this.servers += 1;
			this.forgotten = false;
			const answer: Record<string, unknown> = {
				success: true,
				gameId: "internal-1",
				runningGameId: `running-${this.servers}`,
				workspace: { groupId: "5012345", loaderId: FAKE_KEY },
			};
			if (this.deployed) {
				answer.moderation = { enabled: true };
				answer.afkReportingSettings = { altTab: true, movement: true };
				answer.privacy = { trackStaffOnly: false, requireConsent: false };
			}
			return { status: 200, body: answer };
		}
		if (path === "/activity/playerJoin") {
			const userId = body.playerId as number;
			const banned = this.banned.has(userId);
			return {
				status: 200,
				body: banned
					? { success: true, banned: true, reason: "spam", isStaff: false, sessionId: `s-${userId}` }
					: { success: true, banned: false, isStaff: false, sessionId: `s-${userId}`, runningPlayerId: "p" },
			};
		}
		if (path === "/activity/sendData") {
			if (this.forgotten) return { status: 404, body: { success: false, reason: "Game not found" } };
			const queuedActions = this.rawQueued ?? [...this.queued];
			this.rawQueued = undefined;
			this.queued.clear();
			return { status: 200, body: { success: true, queuedActions, ongoingChats: [] } };
		}
		if (path === "/activity/playerLeave/v2") return { status: 200, body: { success: true, finalized: true } };
		if (path === "/activity/endServer") return { status: 200, body: { success: true } };
		if (path.sub(1, 15) === "/games/running/") {
			if (this.forgotten) return { status: 404, body: { success: false, reason: "Game not found" } };
			return { status: 200, body: { success: true, runningGame: { _id: "running" }, players: [] } };
		}
		return { status: 404, body: { message: "Cannot POST", error: "Not Found", statusCode: 404 } };
	}

	JSONEncode(input: unknown): string {
		return HttpService.JSONEncode(input);
	}

	JSONDecode(input: string): unknown {
		return HttpService.JSONDecode(input);
	}
}

/** A started integration against the fake. */
export interface FakeStarted {
	readonly fake: DeployedFake;
	readonly clock: FakeScheduler;
	readonly server: NonNullable<ReturnType<typeof StaffOps.start>>;
}

/** Starts StaffOps against a fresh fake with a hand-moved clock and waits for registration. */
export function startAgainstFake(config: Partial<StaffOpsConfig> = {}, deployed = true): FakeStarted {
	const clock = new FakeScheduler();
	const fake = new DeployedFake(clock);
	fake.deployed = deployed;
	return startOnFake(fake, clock, config);
}

/**
 * Starts StaffOps against `fake` (a subclass that answers its own way, say) on its clock, with one attempt per request,
 * a roomy budget of its own and the `seams` given, and waits for registration and the profile.
 */
export function startOnFake(
	fake: DeployedFake,
	clock: FakeScheduler,
	config: Partial<StaffOpsConfig> = {},
	seams: Partial<ServerSeams> = {},
): FakeStarted {
	const server = StaffOps.start(
		{
			baseUrl: "https://staffops.spec.invalid",
			apiKey: FAKE_KEY,
			budget: new RequestBudget({ perMinute: 100_000, burst: 10_000 }),
			retry: { maxAttempts: 1 },
			clientReportTimeoutSeconds: 0,
			...config,
		} as StaffOpsConfig,
		{ scheduler: clock, random: () => 0.5, transport: { http: fake }, ...seams },
	);
	if (server === undefined) error("StaffOps.start refused the spec's configuration", 2);
	// The profile is decided just after registration (a log line between the two may yield).
	waitUntil(() => server.isRegistered() && server.getProfile() !== undefined, "registration");
	return { fake, clock, server };
}

/**
 * One idle sync interval (the default `syncSeconds`) and one more step of {@link run}: `run(started, ONE_SYNC)` from
 * a sync (or the registration) has the next idle sync sent and answered, whatever the default is.
 */
export const ONE_SYNC = SYNC_IDLE_SECONDS + 0.5;

/** Advances the fake clock by `seconds` in 0.5 s steps, letting each request settle. */
export function run(started: FakeStarted, seconds: number): void {
	for (let passed = 0; passed < seconds; passed += 0.5) {
		started.clock.advance(0.5);
		// A request started by a timer settles over a few resumptions.
		for (let i = 0; i < 3; i++) task.wait();
	}
}
