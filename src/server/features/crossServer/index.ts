// The cross-server delivery feature: a dashboard kick or notification for a player on another server of the game
// reaches them there, over MessagingService.
import { HttpService } from "@rbxts/services";
import type { QueuedAction } from "../../../api/resources/sync";
import { logInfo, logWarn } from "../../../background/log";
import { MessagingLike, ReceivedMessage, robloxMessaging } from "../../../roblox/messaging";
import { BACKGROUND, backoff } from "../../../shared/backoff";
import { RateLimiter } from "../../../shared/rateLimiter";
import { CROSS_SERVER_TOPIC, crossServerMessage, readCrossServerMessage } from "./crossServerMessage";
import type { ServerContext } from "../../context";
import type { DashboardActionsFeature } from "../dashboardActions";
import type { Feature, FeatureDeclaration } from "../../feature";

/**
 * Cross-server delivery's setting in `StaffOpsConfig`.
 */
export interface CrossServerConfig {
	/**
	 * Pass a dashboard kick, ban-kick or notification for a player who is not on this server to the server where they
	 * are, over MessagingService (attribute `CrossServer`). Default true. Where MessagingService refuses the
	 * subscription (Studio without API access, or the game's own subscriptions already fill the server's 20 + 8 ×
	 * players) it is off, with one warning, and asked again with the one backoff until it holds. See README#many-servers.
	 */
	readonly crossServer?: boolean;
}

// Its settings join `StaffOpsConfig` (and their resolved types `StaffOpsSettings`): the core names no feature.
declare module "../../config" {
	interface StaffOpsBaseConfig extends CrossServerConfig {}
}

/**
 * Cross-server delivery: one subscription per server, one publish per action passed on, applied once where the
 * player is. In the package's declarations for the config type; not an API.
 */
export const CROSS_SERVER: FeatureDeclaration<CrossServerConfig, "crossServer"> = {
	name: "crossServer",
	settings: [{ field: "crossServer", attribute: "CrossServer", default: true }],
	remotes: [],
	clientParts: [],
};

/**
 * Messages one server may publish: a bucket of {@link PUBLISH_BURST} refilled at {@link PUBLISHES_PER_MINUTE}. Far
 * below MessagingService's limits (600 + 240 × players a minute per server; 40 + 80 × servers per topic), so the
 * game keeps nearly all of them. @internal
 */
export const PUBLISHES_PER_MINUTE = 6;
/** @internal */
export const PUBLISH_BURST = 10;
/** Action ids applied here, remembered so a copy delivered twice acts once (the newest are kept). @internal */
export const REMEMBERED_IDS = 100;

/** What cross-server delivery did, for `server.diagnostics()`. @internal */
export interface CrossServerDiagnostics {
	/** Subscribed and passing actions on. */
	readonly on: boolean;
	/** Subscriptions asked for: 1, plus one per refusal asked again after the backoff. */
	readonly subscribeAttempts: number;
	/** Actions passed on (published). */
	readonly published: number;
	/** Publishes MessagingService refused (throttled, too big, no access): those actions are lost. */
	readonly publishFailures: number;
	/** Actions not passed on because this server's budget was spent: those actions are lost. */
	readonly overBudget: number;
	/** Messages delivered to this server. */
	readonly received: number;
	/** Actions applied here, for a player on this server. */
	readonly applied: number;
	/** Copies of an action already applied here, ignored. */
	readonly duplicates: number;
	/** Messages for a player not on this server, ignored (nothing kept). */
	readonly notHere: number;
	/** Messages that are not StaffOps' own shape, ignored. */
	readonly malformed: number;
	/** Action ids kept to drop copies: only of actions applied here, at most {@link REMEMBERED_IDS}. */
	readonly remembered: number;
}

/** The publish budget's key: the limiter keeps one bucket, for this server. */
const SERVER_BUCKET = 0;

/** The cross-server delivery feature. @internal */
export class CrossServerFeature implements Feature {
	readonly declaration = CROSS_SERVER;
	private readonly messaging: MessagingLike;
	private subscribed = false;
	/** Subscription refusals in a row (the backoff's count). */
	private refusals = 0;
	/** The publish budget: one bucket for the whole server (the limiter's one key). */
	private readonly publishes: RateLimiter;
	private readonly applied = new Array<string>();
	private readonly warned = new Set<string>();
	private readonly counts = {
		subscribeAttempts: 0,
		published: 0,
		publishFailures: 0,
		overBudget: 0,
		received: 0,
		applied: 0,
		duplicates: 0,
		notHere: 0,
		malformed: 0,
	};

	constructor(
		private readonly ctx: ServerContext,
		private readonly dashboardActions: DashboardActionsFeature,
	) {
		this.messaging = ctx.seams.messaging ?? robloxMessaging;
		this.publishes = new RateLimiter(PUBLISHES_PER_MINUTE / 60, PUBLISH_BURST, () => ctx.scheduler.now());
		dashboardActions.actions.passOn = (action) => this.passOn(action);
	}

	start(): void {
		if (this.ctx.config.crossServer === false) return;
		task.spawn(() => this.subscribe());
	}

	/**
	 * Asks for the one subscription; a refusal (a passing MessagingService fault, or the game's own subscriptions
	 * filling the server's 20 + 8 × players until a player joins) is asked again after the one backoff, for as long as
	 * the server runs, with one warning for the whole while it does not hold.
	 */
	private subscribe(): void {
		if (this.ctx.stopped) return;
		this.counts.subscribeAttempts += 1;
		const [ok, connection] = pcall(() =>
			this.messaging.SubscribeAsync(CROSS_SERVER_TOPIC, (message) =>
				this.ctx.guard("cross-server message", () => this.received(message)),
			),
		);
		if (!ok) {
			this.refusals += 1;
			if (this.refusals === 1) {
				logWarn(
					`cross-server delivery is off until MessagingService takes its subscription (${tostring(connection)}); ` +
						"asking again with the backoff. Meanwhile a dashboard kick or notification for a player on another server is dropped",
				);
			}
			const wait = backoff(this.refusals, this.ctx.random, BACKGROUND);
			// In a thread of its own: subscribing yields, and the scheduler's caller must not wait for it.
			this.ctx.scheduler.delay(wait, () =>
				task.spawn(() => this.ctx.guard("cross-server subscription", () => this.subscribe())),
			);
			return;
		}
		this.ctx.connect(connection);
		// Stopped while subscribing: the connection was not there to be cut.
		if (this.ctx.stopped) {
			connection.Disconnect();
			return;
		}
		this.subscribed = true;
		if (this.refusals > 0) logInfo(`cross-server delivery is on: subscribed after ${this.refusals} refusal(s)`);
	}

	stop(): void {
		this.subscribed = false;
	}

	diagnostics(): CrossServerDiagnostics {
		return { on: this.subscribed, ...this.counts, remembered: this.applied.size() };
	}

	/** A kick or notify whose player is not here: published once, within the budget. False when it is not. */
	private passOn(action: QueuedAction): boolean {
		if (!this.subscribed || this.ctx.stopped) return false;
		const message = crossServerMessage(action, HttpService.GenerateGUID(false));
		if (message === undefined) return false;
		if (!this.publishes.allow(SERVER_BUCKET)) {
			this.counts.overBudget += 1;
			this.warnOnce(
				"budget",
				`cross-server delivery: over its budget of ${PUBLISHES_PER_MINUTE} a minute; an action for a player on another server is dropped`,
			);
			return false;
		}
		task.spawn(() => {
			const [ok, problem] = pcall(() => this.messaging.PublishAsync(CROSS_SERVER_TOPIC, message));
			if (ok) {
				this.counts.published += 1;
				return;
			}
			this.counts.publishFailures += 1;
			this.warnOnce(
				"publish",
				`cross-server delivery: MessagingService refused a publish (${tostring(problem)})`,
			);
		});
		return true;
	}

	/** A message from the topic: applied once if its player is here; otherwise nothing is kept. */
	private received(delivered: ReceivedMessage): void {
		if (this.ctx.stopped) return;
		this.counts.received += 1;
		const message = readCrossServerMessage(typeIs(delivered, "table") ? delivered.Data : undefined);
		if (message === undefined) {
			this.counts.malformed += 1;
			return;
		}
		if (this.applied.includes(message.id)) {
			this.counts.duplicates += 1;
			return;
		}
		const action: QueuedAction = { type: message.type, userId: message.userId, message: message.message };
		if (!this.dashboardActions.actions.actHere(action)) {
			this.counts.notHere += 1;
			return;
		}
		this.applied.push(message.id);
		if (this.applied.size() > REMEMBERED_IDS) this.applied.remove(0);
		this.counts.applied += 1;
		logInfo(`cross-server delivery: a ${message.type} passed on by another server reached its player here`);
	}

	private warnOnce(kind: string, text: string): void {
		if (this.warned.has(kind)) return;
		this.warned.add(kind);
		logWarn(`${text}. Others alike stay quiet`);
	}
}
