import { meaningOf, reactionTo, retryAfterOf } from "../api/failurePolicy";
import { CALL_STATUSES, CallMessagesAnswer } from "../api/resources/calls";
import type { CallCloseReason } from "../shared/chatProtocol";
import { HealthLog, logWarn } from "../background/log";
import { backoff, BACKGROUND } from "../shared/backoff";
import type { Scheduler } from "../transport/scheduler";
import type { ChatRegistry, Session } from "./chatRegistry";
import type { Delivery } from "./messageDelivery";
import { ENDING_POLLS, PollingSettings } from "./settings";
import type { CallsApiClient } from "./types";

// The health log's areas: the key (one for every chat), polls that fail and are retried, the bridge's own delivery
// step, and refusals that end a chat.
const KEY = "calls: key";
const POLLS = "calls: polls";
const DELIVERY = "calls: delivery";
const REFUSED = "calls: refused";

/** What the poller needs from the bridge. @internal */
export interface PollerSeams {
	readonly client: CallsApiClient;
	readonly scheduler: Scheduler;
	readonly random: () => number;
	readonly settings: PollingSettings;
	readonly registry: ChatRegistry;
	readonly delivery: Delivery;
	readonly health: HealthLog;
	/** The first answer showed the call open: show the window. */
	readonly opened: (session: Session) => void;
	/** Ends a chat. */
	readonly finish: (session: Session, reason: CallCloseReason) => void;
}

/**
 * Polls each chat's transcript, one request in flight per chat: adaptive waits while it works, the one backoff
 * (full jitter, `Retry-After`) when a poll fails, the longest backoff while the key is refused, and never more than
 * `budgetShare` of the request budget for all chats together. Failures are read through the one failure policy
 * (`reactionTo("getCallMessages", err)`); warnings go through one health log, once per area and outage.
 * @internal
 */
export class Poller {
	polls = 0;
	failedPolls = 0;
	/** Answers whose call status StaffOps does not know: left alone (the chat as it was), counted, warned once. */
	unknownStatuses = 0;

	constructor(private readonly ports: PollerSeams) {}

	/** Polls a chat now, unless it is closed or already has a poll in flight. */
	poll(session: Session): void {
		if (session.chat.state === "closed" || session.busy) return;
		session.busy = true;
		this.polls += 1;
		this.ports.client.calls.getMessages(session.chat.callId, { priority: "low" }).andThen(
			(answer) => {
				// Filtering and long transcripts yield: run them in their own thread so the Promise chain never does.
				task.spawn(() => {
					const [ok, problem] = pcall(() => this.afterAnswer(session, answer));
					if (!ok) this.afterProblem(session, problem);
				});
			},
			(err: unknown) => this.afterFailure(session, err),
		);
	}

	private afterAnswer(session: Session, answer: CallMessagesAnswer): void {
		if (session.chat.state === "closed") return;
		session.failures = 0;
		session.failing = undefined;
		this.deliverAnswer(session, answer);
		// Log lines last, once the chat's next step is planned: a host may yield while writing one.
		const { health } = this.ports;
		health.recovered(KEY, "support calls: the service accepts the API key again; chats poll as usual");
		health.recovered(DELIVERY, "support calls: delivering messages works again");
		this.updatePollHealth();
	}

	private deliverAnswer(session: Session, given: CallMessagesAnswer): void {
		let answer = given;
		const { chat } = session;
		const { settings } = this.ports;
		const stillOpen = this.goesOn(answer.status);
		const hide = session.hide;
		if (hide !== undefined) answer = { ...answer, messages: answer.messages.filter((message) => !hide(message)) };
		let opening = false;
		if (stillOpen === undefined && chat.state === "connecting") {
			// An unknown status neither opens nor ends the chat: it waits, unseen, for a status StaffOps knows.
			session.busy = false;
			session.interval = math.min(settings.quietInterval, session.interval * settings.growth);
			this.schedule(session, this.jittered(session.interval));
			return;
		}
		if (chat.state === "connecting") {
			if (!stillOpen) {
				session.busy = false;
				this.ports.finish(session, "ended");
				return;
			}
			chat.state = "open";
			this.ports.opened(session);
			opening = true;
		}
		const { count, more } = this.ports.delivery.deliverNew(session, answer.messages, opening);
		session.busy = false;
		// Delivery yields: the player may have left, or game code closed the chat, meanwhile.
		if (chat.getState() === "closed") return;
		if (stillOpen === false) {
			session.endingPolls += 1;
			if (!more || session.endingPolls > ENDING_POLLS) {
				this.ports.finish(session, "ended");
				return;
			}
		}
		session.interval =
			count > 0 || more
				? settings.busyInterval
				: math.min(settings.quietInterval, session.interval * settings.growth);
		this.schedule(session, this.jittered(session.interval));
	}

	/**
	 * Whether a call in `status` goes on, looked up in {@link CALL_STATUSES} (the compiler checks each status has its
	 * answer). Undefined for a status StaffOps does not know (a service may add one): counted and warned once, never
	 * read as open or closed.
	 */
	private goesOn(status: string): boolean | undefined {
		if (CALL_STATUSES.is(status)) return CALL_STATUSES.of[status].goesOn;
		this.unknownStatuses += 1;
		if (this.unknownStatuses === 1) {
			logWarn(
				`support calls: the service answered a call status StaffOps does not know (${status}); such a chat is left as it was (not ended, not opened). Later ones stay quiet`,
			);
		}
		return undefined;
	}

	private afterFailure(session: Session, err: unknown): void {
		session.busy = false;
		if (session.chat.state === "closed") return;
		this.failedPolls += 1;
		const { health, settings, random } = this.ports;
		const reaction = reactionTo("getCallMessages", err);
		const meaning = meaningOf(err);
		if (reaction === "give-up") {
			this.ports.finish(session, meaning === "not-found" ? "not-found" : "error");
			if (meaning !== "not-found") {
				health.problem(
					REFUSED,
					`support calls: the service refused a call's messages (${meaning}); chat closed`,
				);
			}
			return;
		}
		session.failures += 1;
		if (reaction === "bad-key") {
			// The key is the same for every chat: keep the chats, poll each at the longest backoff until it works.
			session.failing = "bad-key";
			this.schedule(session, settings.maxRetryDelay * (1 - settings.jitter * random()));
			health.problem(
				KEY,
				"support calls: the service refuses the API key; chats stay open and poll about once a minute",
			);
		} else {
			session.failing = "retry";
			this.retryLater(session, retryAfterOf(err));
			health.problem(POLLS, `support calls: polls are failing (${meaning}); chats stay open and back off`);
		}
		this.updatePollHealth();
	}

	/** The bridge's own step failed (a bug, or game code's handler threw): retry the chat later, warn once. */
	private afterProblem(session: Session, problem: unknown): void {
		session.busy = false;
		this.failedPolls += 1;
		if (session.chat.state !== "closed") {
			session.failures += 1;
			this.retryLater(session, undefined);
		}
		this.ports.health.problem(DELIVERY, `support calls: delivering messages failed: ${tostring(problem)}`);
	}

	private retryLater(session: Session, retryAfter: number | undefined): void {
		const { settings, random } = this.ports;
		this.schedule(
			session,
			backoff(session.failures, random, {
				base: settings.retryDelay,
				cap: settings.maxRetryDelay,
				retryAfter,
				maxRetryAfter: math.max(settings.maxRetryDelay, BACKGROUND.maxRetryAfter),
			}),
		);
	}

	/** Polls are a problem while any open chat is backing off after a failed poll; they recover when none is. */
	private updatePollHealth(): void {
		const { health, registry } = this.ports;
		if (!health.isFailing(POLLS)) return;
		for (const session of registry.all()) if (session.failing === "retry") return;
		health.recovered(POLLS, "support calls: polls work again");
	}

	/** A chat closed: it no longer counts toward the polls' health. */
	forget(): void {
		this.updatePollHealth();
	}

	/** Cancels the chat's scheduled poll, if any. */
	cancel(session: Session): void {
		session.timer += 1;
	}

	/**
	 * Delivers a transcript the sync brought (`ongoingChats`), as a poll's answer; one at a time per chat, and a
	 * transcript that arrives meanwhile is delivered after it (the newest only: each carries the whole transcript).
	 */
	deliverFed(session: Session, answer: CallMessagesAnswer): void {
		if (session.chat.state === "closed") return;
		if (session.busy) {
			session.queuedFeed = answer;
			return;
		}
		session.busy = true;
		task.spawn(() => {
			let upcoming: CallMessagesAnswer | undefined = answer;
			while (upcoming !== undefined && session.chat.state !== "closed") {
				session.queuedFeed = undefined;
				session.busy = true;
				const current = upcoming;
				const [ok, problem] = pcall(() => this.afterAnswer(session, current));
				if (!ok) this.afterProblem(session, problem);
				upcoming = session.queuedFeed;
			}
			session.busy = false;
		});
	}

	private schedule(session: Session, seconds: number): void {
		session.timer += 1;
		// A chat the sync feeds is not polled; it polls again only when the sync stops feeding it.
		if (session.fed === true) return;
		const token = session.timer;
		this.ports.scheduler.delay(math.max(seconds, this.minInterval()), () => {
			if (session.timer === token && session.chat.state !== "closed") this.poll(session);
		});
	}

	private jittered(seconds: number): number {
		return seconds * (1 + this.ports.settings.jitter * (2 * this.ports.random() - 1));
	}

	/** The shortest wait that keeps every open chat together within `budgetShare` of the budget. */
	private minInterval(): number {
		const [ok, perMinute] = pcall(() => this.ports.client.getBudget().getPerMinute());
		if (!ok || !typeIs(perMinute, "number") || perMinute <= 0) return 0;
		return (60 * this.ports.registry.size()) / (perMinute * this.ports.settings.budgetShare);
	}
}
