import { meaningOf, reactionTo, retryAfterOf } from "../../../api/failurePolicy";
import type { QueuedAction, SendDataArgs, SessionEventBody } from "../../../api/resources/sync";
import { logWarn } from "../../../background/log";
import { backoff, BACKGROUND } from "../../../shared/backoff";
import { toBase64 } from "./base64";
import type { WorkerSeams } from "../../context";
import type { Registered } from "../../records";
import type { SessionEvent, SessionEvents } from "./sessionEvents";

/**
 * Seconds between syncs while no support call is open: the default of `syncSeconds` (attribute `SyncSeconds`), declared
 * here once (the presence feature's declaration names it; specs read it). 19 keeps a whole game's requests under a
 * fifth of the official module's (bench/whole-game.luau: 3.16 syncs a minute, plus one request per join and per leave
 * and the staff commands' permission reads; 18 came to 20.1 %). The cost: a dashboard kick waits for the next sync,
 * uniform over the interval, so its p95 is 0.95 × 19 ≈ 18 s plus one round trip; a 100-player hour costs
 * 3600 / 19 ≈ 190 syncs (bench/sync-hour.luau).
 * @internal
 */
export const SYNC_IDLE_SECONDS = 19;
/**
 * Seconds between syncs while a support call is open (`setFast(true)`), unless `callSyncSeconds` says otherwise:
 * one sync carries every open call, so 3 s is 20 requests a minute for all of them together.
 * @internal
 */
export const SYNC_FAST_SECONDS = 3;
/** The longest `Retry-After` honoured, in seconds. */
const MAX_RETRY_AFTER = 600;

/**
 * Where a support call's player messages wait for the sync (the support-call feature plugs one in). `chatEvents` are
 * appended by the service without dedup, so the sync never re-sends them itself: it hands them back through
 * `settled`, and the outbox decides (e.g. look the call's transcript up after `unknown`).
 * @internal
 */
export interface ChatOutbox {
	/** The chat events to carry in the next sync, or undefined for none. */
	take(): ReadonlyArray<unknown> | undefined;
	/** What became of the events of the last `take`: stored (`sent`), maybe stored (`unknown`), not stored (`failed`). */
	settled(outcome: "sent" | "unknown" | "failed"): void;
}

const NO_OUTBOX: ChatOutbox = {
	take() {
		return undefined;
	},
	settled() {},
};

/** What the sync needs from the integration. @internal */
export interface SyncSeams extends WorkerSeams {
	readonly events: SessionEvents;
	readonly forgotten: (source: string) => void;
	/** The answer's usable actions and what the reader dropped; called at most once per answer. */
	readonly actions: (actions: ReadonlyArray<QueuedAction>, dropped: ReadonlyArray<string>) => void;
	/** After each sync that reached the service (the join queue and leaves retry if they were failing). */
	readonly beaten: () => void;
	/** Seconds between syncs while a support call is open (`callSyncSeconds`). */
	readonly fastSeconds: number;
	/** Seconds between syncs otherwise (`syncSeconds`); default {@link SYNC_IDLE_SECONDS}. */
	readonly idleSeconds?: number;
}

/** A queued event in the deployed service's shape (docs/service-contract.md#session-events). */
function toBody(event: SessionEvent): SessionEventBody {
	const user = tostring(event.userId);
	return {
		type: event.type,
		date: math.floor(event.datetime / 1000),
		datetime: event.datetime,
		user,
		userKey: user,
		sessionIds: { userGameSession: event.sessionId },
		message: event.message !== undefined ? toBase64(event.message) : undefined,
		encoded: event.message !== undefined ? true : undefined,
		to: event.to !== undefined ? tostring(event.to) : undefined,
	};
}

/**
 * The deployed profile's one sync channel, `POST /activity/sendData`, in place of the heartbeat: it keeps the server
 * present, carries pending session events (and chat events from the {@link ChatOutbox}), and hands queued dashboard
 * actions and ongoing chats on. Its body never has `players` (docs/service-contract.md#the-sync-roster-removes-missing-players: that roster removes everyone missing from
 * it). Failures go through the one policy: an unknown outcome sends the same events again (the service dedups them)
 * after the one backoff, never before `Retry-After`; a 404 or 405 is told apart by one read (server gone: register
 * again; route missing: probe again at the longest backoff, and resume by itself).
 * @internal
 */
export class Sync {
	private token?: object;
	private inFlight = false;
	private fast = false;
	private failures = 0;
	private stopped = false;
	/** Shutdown's last sync (`finish`): whether it went out, and whether it settled. */
	private last?: { sent: boolean; settled: boolean };
	private outbox = NO_OUTBOX;
	private readonly refusals = new Set<string>();
	/** When the last sync went out (the scheduler's clock): the next one is timed from it, not from its answer. */
	private startedAt = 0;
	/** Receives each answer's `ongoingChats` (the support-call feature plugs in here). */
	onOngoingChats: (chats: ReadonlyArray<object>) => void = () => undefined;
	/** Syncs that reached the service, and failures handled (diagnostics, specs). */
	readonly counts = { sent: 0, failures: 0 };

	constructor(private readonly seams: SyncSeams) {}

	/** Plugs in the chat outbox (one at a time). */
	setChatOutbox(outbox: ChatOutbox | undefined): void {
		this.outbox = outbox ?? NO_OUTBOX;
	}

	/** Syncs every `fastSeconds` while `on` (a support call is open), else every `idleSeconds`. */
	setFast(on: boolean): void {
		const sooner = on && !this.fast;
		this.fast = on;
		if (sooner && this.token !== undefined && !this.inFlight && this.failures === 0)
			this.schedule(this.seams.fastSeconds);
	}

	/** The interval now, in seconds. */
	interval(): number {
		return this.fast ? this.seams.fastSeconds : (this.seams.idleSeconds ?? SYNC_IDLE_SECONDS);
	}

	/** Schedules the next sync after `seconds` (default: the interval), replacing any scheduled one. */
	schedule(seconds = this.interval()): void {
		if (this.stopped || this.last !== undefined) return;
		const token = {};
		this.token = token;
		this.seams.scheduler.delay(seconds, () =>
			this.seams.guard("sync", () => {
				if (this.token === token) this.send(token);
			}),
		);
	}

	/** Pauses (re-registration); `schedule` resumes. */
	pause(): void {
		this.token = undefined;
	}

	stop(): void {
		this.stopped = true;
		this.token = undefined;
	}

	/**
	 * Shutdown: no more periodic syncs, and one last sync now (after the one in flight, if any), before the server's
	 * end removes it. It carries the session events and players' call messages that wait (sent at no other time) and
	 * takes the actions still queued, acted on as any answer's. Not repeated: a failed last sync is not retried.
	 */
	finish(): void {
		if (this.stopped || this.last !== undefined) return;
		this.last = { sent: false, settled: false };
		this.token = undefined;
		if (!this.inFlight) this.sendLast();
	}

	/** Whether the last sync of {@link finish} is still to go out or be answered. */
	isFinishing(): boolean {
		return this.last !== undefined && !this.last.settled && !this.stopped;
	}

	private sendLast(): void {
		const last = this.last!;
		last.sent = true;
		const token = {};
		this.token = token;
		this.send(token);
		// Not sent (no registration): nothing to wait for.
		if (!this.inFlight) last.settled = true;
	}

	/** After each answer or failure: the last sync goes out once the one in flight settled, then counts as settled. */
	private settled(): void {
		const last = this.last;
		if (last === undefined || this.stopped) return;
		if (last.sent) last.settled = true;
		else this.sendLast();
	}

	private send(token: object): void {
		const registered = this.seams.registration();
		if (registered === undefined) return;
		if (this.inFlight) {
			// The previous sync is still out (a re-registration rescheduled): come back once it settled.
			this.schedule(1);
			return;
		}
		const batch = this.seams.events.peek();
		const events = batch.map(toBody);
		const [taken, chat] = pcall(() => this.outbox.take());
		const chatEvents = taken && typeIs(chat, "table") && next(chat)[0] !== undefined ? chat : undefined;
		const args: SendDataArgs = { gameId: registered.runningGameId, events, chatEvents };
		this.inFlight = true;
		this.startedAt = this.seams.scheduler.now();
		this.seams.client.extensions.sendData(args, { priority: "normal", maxAttempts: 1 }).andThen(
			(answer) =>
				this.seams.guard("sync answer", () => {
					this.inFlight = false;
					this.seams.events.ack(batch);
					if (chatEvents !== undefined) this.settle("sent");
					if (this.stopped) return;
					// Handed over at most once: acted on even if the sync was paused meanwhile.
					this.seams.guard("dashboard actions", () =>
						this.seams.actions(answer.queuedActions, answer.dropped),
					);
					this.seams.guard("ongoing chats", () => this.onOngoingChats(answer.ongoingChats));
					this.reached(token);
					this.settled();
				}),
			(err: unknown) =>
				this.seams.guard("sync failure", () => {
					this.inFlight = false;
					this.failed(token, registered, batch, chatEvents !== undefined, err);
					this.settled();
				}),
		);
	}

	private settle(outcome: "sent" | "unknown" | "failed"): void {
		const [ok, problem] = pcall(() => this.outbox.settled(outcome));
		if (!ok) logWarn(`the chat outbox failed (${tostring(problem)})`);
	}

	private reached(token: object): void {
		this.counts.sent += 1;
		if (this.failures > 0) {
			this.failures = 0;
			this.seams.health.recovered("sync", "syncs reach the service again");
		}
		// The interval runs from the start of this sync, so a round trip does not stretch it (a call's messages wait
		// at most one interval for the next sync).
		const elapsed = this.seams.scheduler.now() - this.startedAt;
		if (this.token === token) this.schedule(math.max(0.1, this.interval() - elapsed));
		this.seams.beaten();
	}

	private failed(
		token: object,
		registered: Registered,
		batch: ReadonlyArray<SessionEvent>,
		hadChat: boolean,
		err: unknown,
	): void {
		const reaction = reactionTo("sendData", err);
		if (hadChat) this.settle(reaction === "done" ? "sent" : meaningOf(err) === "unknown" ? "unknown" : "failed");
		if (this.stopped) return;
		if (this.last !== undefined) {
			// Shutting down: nothing is retried and the server is not registered again; what the service acted on
			// is not kept to be sent again.
			if (reaction === "done" || reaction === "give-up") this.seams.events.ack(batch);
			return;
		}
		if (reaction === "done") {
			// The service acted but its answer is unreadable: its actions are lost with it (at most once).
			this.seams.events.ack(batch);
			this.seams.health.problem("sync answer", `a sync answer could not be read (${tostring(err)})`);
			this.reached(token);
			return;
		}
		if (reaction === "give-up") {
			// Refused for good: sending the same events again would be refused again.
			this.seams.events.ack(batch);
			this.refused(err);
			if (this.token === token) this.schedule();
			return;
		}
		if (reaction === "forgotten") {
			this.seams.forgotten("the sync");
			return;
		}
		if (this.token !== token) return;
		this.failures += 1;
		this.counts.failures += 1;
		if (reaction === "verify") {
			this.verify(token, registered, err);
			return;
		}
		const badKey = reaction === "bad-key";
		this.seams.health.problem(
			"sync",
			badKey
				? `the service refused the API key on the sync (${tostring(err)}); retrying every minute`
				: `syncs are failing (${tostring(err)}); will keep trying, pending events are kept`,
			err,
		);
		this.retryLater(badKey ? BACKGROUND.cap : undefined, err);
	}

	private retryLater(fixed: number | undefined, err: unknown): void {
		const retryAfter = retryAfterOf(err);
		const wait =
			fixed ??
			backoff(this.failures, this.seams.random, { ...BACKGROUND, retryAfter, maxRetryAfter: MAX_RETRY_AFTER });
		this.schedule(retryAfter !== undefined ? math.max(wait, math.min(retryAfter, MAX_RETRY_AFTER)) : wait);
	}

	/** A 404 or 405: the server is gone (register again) or the route is (probe again later). One read tells. */
	private verify(token: object, registered: Registered, err: unknown): void {
		this.seams.client.games.getRunning(registered.internalGameId, { priority: "normal", maxAttempts: 1 }).andThen(
			() =>
				this.seams.guard("sync", () => {
					if (this.token !== token) return;
					this.seams.health.problem(
						"sync",
						`the service has no sync route (${tostring(err)}); trying it again every ${BACKGROUND.cap} s`,
						err,
						"no-route",
					);
					this.schedule(BACKGROUND.cap);
				}),
			(readErr: unknown) =>
				this.seams.guard("sync", () => {
					if (this.token !== token) return;
					if (reactionTo("getRunningGame", readErr) === "forgotten") {
						this.seams.forgotten("the sync");
						return;
					}
					this.seams.health.problem(
						"sync",
						`syncs are failing (${tostring(err)}); will keep trying`,
						readErr,
					);
					this.retryLater(undefined, readErr);
				}),
		);
	}

	/** One warning per kind of refusal. */
	private refused(err: unknown): void {
		const [problem] = tostring(err).gsub("^StaffOpsError%(%a+%) %a+ ", "");
		if (this.refusals.has(problem) || this.refusals.size() >= 20) return;
		this.refusals.add(problem);
		logWarn(
			`the service refused a sync (${tostring(err)}); its events are dropped. Others refused alike stay quiet`,
		);
	}
}
