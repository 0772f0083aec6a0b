import { HttpService } from "@rbxts/services";
import { HttpServiceLike } from "../../src/transport/httpDoor";
import { Scheduler } from "../../src/transport/scheduler";

/** A clock that moves only when a spec advances it; timers run in time order, ties in scheduling order. */
export class FakeScheduler implements Scheduler {
	private time = 0;
	private seq = 0;
	private timers = new Array<{ at: number; seq: number; fn: () => void }>();

	now(): number {
		return this.time;
	}

	delay(seconds: number, callback: () => void): void {
		this.seq += 1;
		this.timers.push({ at: this.time + math.max(seconds, 0), seq: this.seq, fn: callback });
	}

	/** Moves time forward by `seconds`, running every timer that falls due on the way. */
	advance(seconds: number): void {
		const target = this.time + seconds;
		for (;;) {
			let best: number | undefined;
			for (let i = 0; i < this.timers.size(); i++) {
				const timer = this.timers[i];
				if (timer.at > target) continue;
				if (best === undefined) {
					best = i;
					continue;
				}
				const current = this.timers[best];
				if (timer.at < current.at || (timer.at === current.at && timer.seq < current.seq)) best = i;
			}
			if (best === undefined) break;
			const timer = this.timers.remove(best)!;
			this.time = math.max(this.time, timer.at);
			timer.fn();
		}
		this.time = target;
	}

	/** Advances in steps until no timer is left or `limit` seconds have passed; returns the time. */
	runUntilIdle(limit = 3600, step = 1): number {
		const stop = this.time + limit;
		while (this.timers.size() > 0 && this.time < stop) this.advance(step);
		return this.time;
	}

	pendingTimers(): number {
		return this.timers.size();
	}
}

/** A request the fake door saw. */
export interface SeenRequest {
	readonly at: number;
	readonly options: RequestAsyncRequest;
}

/** What the fake door does with a request: answer, throw (a Roblox error text) or hang forever. */
export type FakeReply =
	{ status: number; body?: string | object; headers?: Record<string, string> } | { throws: string } | { hang: true };

/** An HttpService whose RequestAsync answers from a script; JSON goes through the harness's real codec. */
export class FakeHttp implements HttpServiceLike {
	readonly seen = new Array<SeenRequest>();
	private readonly script = new Array<FakeReply>();

	/**
	 * @param clock the time stamped on each request
	 * @param fallback the reply once the script is used up
	 */
	constructor(
		private readonly clock: Scheduler,
		private fallback: FakeReply = { status: 200, body: { success: true } },
	) {}

	/** Queues replies for the next requests, in order. */
	then(...replies: Array<FakeReply>): this {
		for (const reply of replies) this.script.push(reply);
		return this;
	}

	/** Sets the reply used once the script is empty. */
	always(reply: FakeReply): this {
		this.fallback = reply;
		return this;
	}

	RequestAsync(options: RequestAsyncRequest): RequestAsyncResponse {
		this.seen.push({ at: this.clock.now(), options });
		const reply = this.script.size() > 0 ? this.script.remove(0)! : this.fallback;
		if ("throws" in reply) error(reply.throws, 0);
		if ("hang" in reply) {
			coroutine.yield();
			error("HttpError: Timedout", 0);
		}
		const body =
			reply.body === undefined ? "" : typeIs(reply.body, "string") ? reply.body : this.JSONEncode(reply.body);
		return {
			Success: reply.status >= 200 && reply.status <= 299,
			StatusCode: reply.status,
			StatusMessage: "",
			Headers: reply.headers ?? {},
			Body: body,
		};
	}

	JSONEncode(input: unknown): string {
		return HttpService.JSONEncode(input);
	}

	JSONDecode(input: string): unknown {
		return HttpService.JSONDecode(input);
	}
}

/** Valid answers per operation, for specs that need one without the service. */
export const SAMPLE = {
	order: {
		success: true,
		order: {
			_id: "o1",
			groupId: "5012345",
			customerId: "1",
			cashierId: "2",
			items: [{ item: "Latte", quantity: 1 }],
		},
	},
	released: { success: true, order: { _id: "o1", status: "released" } },
	timeOff: {
		success: true,
		request: { _id: "t1", status: "pending", starts: "2024-07-01T00:00:00.000Z", approvalChain: [] },
	},
	timeOffList: { success: true, requests: [] },
	join: { success: true, banned: false, reason: "", isStaff: true, sessionId: "s1", runningPlayerId: "p1" },
	server: { success: true, gameId: "g1", runningGameId: "r1", workspace: { groupId: "5012345" } },
	history: {
		success: true,
		history: {
			_id: "h1",
			groupId: "5012345",
			type: "writeup",
			userId: "1005",
			disciplinarianId: "1002",
			reason: "late",
			created: "2024-06-05T16:30:00.000Z",
			rankFrom: "Trainee",
			ended: false,
		},
	},
};

/** One request a {@link RecordingHttp} passed on: when (on its clock), the operation's path and method. */
export interface RecordedRequest {
	readonly at: number;
	readonly method: string;
	readonly path: string;
	/** The JSON body as sent, if any. */
	readonly body?: string;
}

/**
 * The real HttpService (so requests reach the reference service), recording each request with the time of a spec's
 * clock: counts per simulated minute come from here.
 */
export class RecordingHttp implements HttpServiceLike {
	readonly seen = new Array<RecordedRequest>();
	/** Requests sent and not yet answered: a spec moving its clock waits for 0, so a round trip costs no fake time. */
	inFlight = 0;

	constructor(private readonly clock: Scheduler) {}

	RequestAsync(options: RequestAsyncRequest): RequestAsyncResponse {
		const [path] = (options.Url as string).gsub("^https?://[^/]+", "");
		this.seen.push({ at: this.clock.now(), method: options.Method ?? "GET", path, body: options.Body });
		this.inFlight += 1;
		const [ok, response] = pcall(() => HttpService.RequestAsync(options));
		this.inFlight -= 1;
		if (!ok) error(response, 0);
		return response as RequestAsyncResponse;
	}

	JSONEncode(input: unknown): string {
		return HttpService.JSONEncode(input);
	}

	JSONDecode(input: string): unknown {
		return HttpService.JSONDecode(input);
	}

	/** Requests whose path starts with `prefix`. */
	to(prefix: string): Array<RecordedRequest> {
		return this.seen.filter((request) => request.path.sub(1, prefix.size()) === prefix);
	}
}
