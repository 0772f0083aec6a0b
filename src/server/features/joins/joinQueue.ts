import type { TextFilter } from "../../../roblox/textFilter";
import { backgroundWait, reactionTo } from "../../../api/failurePolicy";
import type { PlayerJoinArgs } from "../../../api/resources/activity";
import { logInfo, logVerbose, logWarn, playerLabel } from "../../../background/log";
import type { StaffOpsSettings } from "../../config";
import type { WorkerSeams } from "../../context";
import { JoinLookup, Listing, runningGameRead } from "./joinLookup";
import type { RetryShare } from "../../../background/retryShare";
import { waitedForBudget } from "../../../transport/budget";
import { announce } from "./announce";
import type { DecidedProfile } from "../../profile";
import { joinArgsOf, outcomeOf, resultOfAnswer, resultOfListing } from "./joinAnswers";
import { JoinResult, PlayerRecord, Registered, ServerSignals } from "../../records";

/** What the join queue needs from the integration. @internal */
export interface JoinQueueSeams extends WorkerSeams {
	readonly config: StaffOpsSettings;
	readonly signals: ServerSignals;
	readonly records: Map<number, PlayerRecord>;
	readonly shuttingDown: () => boolean;
	readonly profile: () => DecidedProfile | undefined;
	/** The service no longer knows this server. */
	readonly forgotten: (source: string) => void;
	/** A join the player left during settled as answered: the leave follows. */
	readonly answeredAfterLeaving: (record: PlayerRecord) => void;
	/** The share of the budget retries may take. */
	readonly retries: RetryShare;
	/** The game's seams: a banned player's kick reason goes through its text filter. */
	readonly seams?: { readonly textFilter?: TextFilter };
}

/**
 * Sends each player's join once (docs/service-contract.md#playerjoin-is-not-idempotent). Outcomes follow the one
 * failure policy (`api/failurePolicy.ts`): an unusable 2xx counts as done, an unknown outcome is checked against the
 * player list before anything is sent again, by reads that cannot predate the join's processing ({@link JoinLookup}),
 * a refusal is dropped with one warning per problem, and a transient failure puts the queue in probe mode: while the
 * service is failing only one join is out at a time, so an outage costs a few requests a minute however many players
 * wait, and game code's own calls keep their share of the budget.
 * @internal
 */
export class JoinQueue {
	/** Answers so far; a heartbeat's list can only hold answers older than the read. */
	answerSeq = 0;
	readonly counts = { failures: 0 };
	private failures = 0;
	private retryScheduled = false;
	private probing = false;
	private stopped = false;
	private readonly refusals = new Set<string>();
	/** During shutdown nothing waits for timers: after a failure the shutdown loop sends again from this moment. */
	notBefore = 0;
	/** While failing, no probe goes out before this moment (the backoff, or the service's `Retry-After`). */
	private quietUntil = 0;
	private readonly lookup: JoinLookup;
	/** Ordinary joins answered since the queue last ran dry, for the one line of the wave. */
	private wave = new Array<string>();

	constructor(private readonly host: JoinQueueSeams) {
		this.lookup = new JoinLookup({
			scheduler: host.scheduler,
			random: host.random,
			read: runningGameRead(host.client, host.registration, "high", () => this.stopped),
			pending: () => {
				const users = new Array<number>();
				for (const [userId, record] of host.records) if (record.phase === "checking") users.push(userId);
				return users;
			},
			resendWhen: "absent",
			settle: (userId, listing) => host.guard("join lookup", () => this.settleFromListing(userId, listing)),
			forgotten: () => host.guard("join lookup", () => host.forgotten("the join check")),
			failed: (err) =>
				host.health.problem("joins", `join reports are failing (${tostring(err)}); they will be retried`, err),
		});
	}

	/** Whether joins are failing now (the heartbeat then nudges the queue). */
	isFailing(): boolean {
		return this.failures > 0;
	}

	/** Joins not settled yet. */
	pending(): number {
		let pending = 0;
		for (const [, record] of this.host.records) {
			const phase = record.phase;
			if (phase === "gathering" || phase === "ready" || phase === "sending" || phase === "checking") pending += 1;
		}
		return pending;
	}

	/** Sends what is ready: everything when the service works, one probe while it is failing. */
	flush(): void {
		const registered = this.host.registration();
		if (this.stopped || registered === undefined) return;
		const ready = new Array<PlayerRecord>();
		for (const [, record] of this.host.records) if (record.phase === "ready") ready.push(record);
		// Likely staff first (the staff hint), then in the order players joined.
		ready.sort((a, b) => (a.likelyStaff !== b.likelyStaff ? a.likelyStaff : a.order < b.order));
		for (const record of ready) {
			if (this.failures > 0) {
				if (this.probing) return;
				const quiet = this.quietUntil - this.host.scheduler.now();
				if (quiet > 0) {
					this.scheduleRetry(quiet);
					return;
				}
				const wait = this.host.retries.take();
				if (wait > 0) {
					this.scheduleRetry(wait);
					return;
				}
				this.probing = true;
			}
			this.send(record, registered);
		}
	}

	/**
	 * At the close: joins whose outcome is unknown are settled by one read of the player list now, not after the
	 * grace periods, which would outlast the close ({@link JoinLookup.checkAtClose}).
	 */
	checkAtClose(): void {
		if (this.stopped) return;
		for (const [, record] of this.host.records) {
			if (record.phase === "checking") return this.lookup.checkAtClose();
		}
	}

	/** Every in-flight join is dropped (the server is being registered again, or stopping). */
	cancelInFlight(): void {
		this.probing = false;
		for (const [, record] of this.host.records) {
			record.request?.cancel();
			record.request = undefined;
		}
	}

	stop(): void {
		this.stopped = true;
		this.lookup.stop();
		this.cancelInFlight();
	}

	private send(record: PlayerRecord, registered: Registered): void {
		record.phase = "sending";
		const args: PlayerJoinArgs = joinArgsOf(record, registered, this.host.profile());
		record.sentArgs = args;
		logVerbose(
			`sending the join of ${playerLabel(record.player)}${record.likelyStaff ? " first (likely staff)" : ""}`,
		);
		// One attempt: the queue retries by itself, at the pace of the backoff and the retry share.
		const request = this.host.client.activity.reportJoin(args, {
			priority: record.likelyStaff ? "urgent" : "high",
			maxAttempts: 1,
		});
		record.request = request;
		request.andThen(
			(answer) =>
				this.host.guard("join answer", () => {
					if (record.request !== request || this.stopped) return;
					record.request = undefined;
					this.settle(record, resultOfAnswer(args, answer), registered);
				}),
			(err: unknown) =>
				this.host.guard("join failure", () => {
					if (record.request !== request || this.stopped) return;
					record.request = undefined;
					this.failed(record, err);
				}),
		);
	}

	/** A join whose outcome was unknown, settled from the service's player list. */
	private settleFromListing(userId: number, listing: Listing): void {
		const record = this.host.records.get(userId);
		const registered = this.host.registration();
		if (record === undefined || record.phase !== "checking" || registered === undefined) return;
		if (!listing.listed) {
			// Reads a grace period after the service answered again found no trace of the join twice: it never
			// acted on it, so sending it is not a repeat. A player who left meanwhile is simply dropped, except at
			// shutdown, when every queued join is reported.
			if (record.left && !this.host.shuttingDown()) {
				this.host.records.delete(userId);
				return;
			}
			record.phase = "ready";
			this.flush();
			return;
		}
		this.settle(record, resultOfListing(listing, record.sentArgs), registered);
	}

	private settle(record: PlayerRecord, result: JoinResult, registered: Registered): void {
		this.answerSeq += 1;
		record.answer = result;
		record.answeredSeq = this.answerSeq;
		record.answeredUnder = registered.runningGameId;
		record.phase = "answered";
		this.recovered();
		logVerbose(`the join of ${playerLabel(record.player)} is answered: ${outcomeOf(result)}`);
		if (record.left) {
			this.host.answeredAfterLeaving(record);
			return;
		}
		if (this.host.records.get(record.userId) !== record) return;
		// Staff and banned players get a line of their own (announce); the rest are counted into the wave's line.
		if (!result.banned && !result.isStaff) this.wave.push(playerLabel(record.player));
		announce(this.host, record, result);
		this.endWave();
	}

	/**
	 * Once nothing is left to send or check, one line for the joins answered since the queue last ran dry: a join
	 * storm is one "reported 40 joins" in the output, not 40 lines.
	 */
	private endWave(): void {
		if (this.wave.size() === 0) return;
		for (const [, record] of this.host.records) {
			if (record.phase === "ready" || record.phase === "sending" || record.phase === "checking") return;
		}
		const wave = this.wave;
		this.wave = [];
		logInfo(wave.size() === 1 ? `reported the join of ${wave[0]}` : `reported ${wave.size()} joins`);
	}

	private recovered(): void {
		this.failures = 0;
		const wasProbing = this.probing;
		this.probing = false;
		this.host.health.recovered("joins", "join reports reach the service again");
		if (wasProbing) this.flush();
	}

	private failed(record: PlayerRecord, err: unknown): void {
		this.probing = false;
		const reaction = reactionTo("playerJoin", err);
		logVerbose(
			`the join of ${playerLabel(record.player)} got no usable answer; the failure policy says: ${reaction}`,
		);
		if (reaction === "done") {
			// The service acted (a 2xx) but its answer is unusable: the join counts as made. Sending it again would
			// open a second session; without an answer the player is neither marked staff nor kicked.
			record.phase = "answered";
			record.answeredUnder = this.host.registration()?.runningGameId;
			this.host.health.problem(
				"join answers",
				`the service accepted a join but its answer could not be read (${tostring(err)}); ` +
					"such players are reported once and not marked staff or kicked",
			);
			if (record.left) this.host.answeredAfterLeaving(record);
			return;
		}
		if (reaction === "check") {
			record.phase = "checking";
			this.noteFailure(err, "checking the player list before sending again");
			this.lookup.request(record.userId);
			return;
		}
		if (reaction === "forgotten") {
			record.phase = "ready";
			this.host.forgotten(`the join of ${record.username}`);
			return;
		}
		if (reaction === "give-up") {
			record.phase = "refused";
			if (record.left) this.host.records.delete(record.userId);
			this.refused(err);
			return;
		}
		if (record.left && !this.host.shuttingDown()) {
			// Nothing reached the service and the player is gone: there is nothing to report any more.
			this.host.records.delete(record.userId);
		} else {
			record.phase = "ready";
		}
		// A join that only waited its turn behind a storm says nothing about the service: back in line, no probe.
		if (waitedForBudget(err)) return this.flush();
		this.noteFailure(err, "they will be retried");
		const wait = backgroundWait(this.failures, this.host.random, err);
		this.quietUntil = this.host.scheduler.now() + wait;
		this.scheduleRetry(wait);
	}

	/** One warning per kind of refusal, not one per player. */
	private refused(err: unknown): void {
		const text = tostring(err);
		const [problem] = text.gsub("^StaffOpsError%(%a+%) %a+ ", "");
		if (this.refusals.has(problem) || this.refusals.size() >= 20) return;
		this.refusals.add(problem);
		logWarn(`the service refused a join report; not sending it again (${text}). Others refused alike stay quiet`);
	}

	private noteFailure(err: unknown, what: string): void {
		this.failures += 1;
		this.counts.failures += 1;
		this.host.health.problem("joins", `join reports are failing (${tostring(err)}); ${what}`, err);
	}

	private scheduleRetry(after: number): void {
		if (this.host.shuttingDown()) {
			this.notBefore = os.clock() + 1;
			return;
		}
		if (this.retryScheduled || this.stopped) return;
		this.retryScheduled = true;
		this.host.scheduler.delay(after, () =>
			this.host.guard("join retry", () => {
				this.retryScheduled = false;
				this.flush();
			}),
		);
	}
}
