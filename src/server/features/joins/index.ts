// The joins-and-bans feature: every player's join reported in order, staff marked, banned players kicked.
import type { CloseOutcome, ClosingPart } from "../../closeWatch";
import { RetryShare } from "../../../background/retryShare";
import { Gathering } from "./gathering";
import { JoinQueue } from "./joinQueue";
import { DEFAULT_KICK_MESSAGE, kickMessageRule, resolveKickMessage } from "./kickMessage";
import type { JoinResult, PlayerRecord, PlayerSession } from "../../records";
import { defaultCanChat } from "../../seams";
import { isTrackedResult } from "./tracking";
import { JOINS_FACE, JoinsSignals } from "./face";
import type { ServerContext } from "../../context";
import type { Feature, FeatureDeclaration } from "../../feature";
import type { SessionsFeature } from "../sessions";
import type { SessionEnder } from "../sessions/sessions";
import type { StaffHintFeature } from "../staffHint";

/**
 * The joins' settings in `StaffOpsConfig`.
 */
export interface JoinsConfig {
	/** Kick players the service reports as banned. Default true. */
	readonly kickBanned?: boolean;
	/**
	 * The kick message for banned players: a template where `{reason}` stands for the service's reason, or a function
	 * of the reason. Default `"You are banned from this experience: {reason}"`.
	 */
	readonly kickMessage?: string | ((reason: string) => string);
}

// Its settings join `StaffOpsConfig` (and their resolved types `StaffOpsSettings`): the core names no feature.
declare module "../../config" {
	interface StaffOpsBaseConfig extends JoinsConfig {}
	interface ResolvedSettings {
		readonly kickBanned: boolean;
		readonly kickMessage: (reason: string) => string;
	}
}
// Its signals join the server's.
declare module "../../records" {
	interface ServerSignals extends JoinsSignals {}
}

/** Joins and bans: every player's join reported in order, staff marked, banned players kicked. (In the package's declarations for the config type; not an API.) */
export const JOINS: FeatureDeclaration<JoinsConfig, "joins", typeof JOINS_FACE> = {
	name: "joins",
	settings: [
		{ field: "kickBanned", attribute: "KickBanned", default: true },
		{
			field: "kickMessage",
			attribute: "KickMessage",
			default: DEFAULT_KICK_MESSAGE,
			modelDefault: "",
			luau: "(string | (reason: string) -> string)?",
			check: kickMessageRule,
			resolve: resolveKickMessage,
		},
	],
	remotes: [],
	clientParts: [],
	face: JOINS_FACE,
};

/** What specs and monitoring read of the joins. @internal */
export interface JoinsDiagnostics {
	/** Players tracked (memory checks: 0 once everyone left). */
	readonly players: number;
	/** Joins waiting to be sent or answered. */
	readonly pending: number;
	/** Failures handled so far (their retries are scheduled by then). */
	readonly failures: { readonly register: number; readonly joins: number };
	/** What the close left undone and why, once the server closed (`closing.ts`). */
	readonly closed?: CloseOutcome;
}

/** The joins feature: gathering each join's facts, then the join queue. @internal */
export class JoinsFeature implements Feature {
	readonly declaration = JOINS;
	readonly gathering: Gathering;
	readonly queue: JoinQueue;
	readonly atClose: ClosingPart;

	constructor(
		private readonly ctx: ServerContext,
		sessions: SessionsFeature,
		hint: StaffHintFeature,
	) {
		const { client, scheduler, config, health, records, guard } = ctx;
		const shuttingDown = () => ctx.shuttingDown;
		const profile = () => ctx.profile;
		this.gathering = new Gathering({
			config,
			scheduler,
			health,
			records,
			canChat: ctx.seams.canChat ?? defaultCanChat,
			rankOf: hint.rankOf,
			sessions: sessions.ender,
			registration: ctx.registered,
			shuttingDown,
			profile,
			stopped: () => ctx.stopped,
			ready: () => this.queue.flush(),
			guard,
		});
		this.queue = new JoinQueue({
			retries: new RetryShare(scheduler, () => client.getBudget().getPerMinute()),
			client,
			scheduler,
			random: ctx.random,
			config,
			health,
			signals: ctx.signals,
			records,
			registration: ctx.registered,
			shuttingDown,
			profile,
			forgotten: ctx.forgotten,
			answeredAfterLeaving: (record) => this.gathering.answeredAfterLeaving(record),
			guard,
			seams: ctx.seams,
		});
		this.atClose = this.closingPart(sessions.ender);
	}

	/** At the close: the joins go first, the leaves with them; then everyone present leaves, when leaves are reported. */
	private closingPart(ender: SessionEnder): ClosingPart {
		const { gathering, queue } = this;
		return {
			begin: () => gathering.stopWaiting(),
			hasQueued: () => queue.pending() > 0,
			sendQueued: () => {
				// The leaves go with the joins, after the join queue's backoff.
				if (os.clock() >= queue.notBefore) {
					queue.flush();
					ender.flush();
				}
				// The grace periods of the join check would outlast the close: one read settles every unknown join now.
				queue.checkAtClose();
			},
			leaveEveryone: () => {
				// Not when the server's end ends their sessions anyway, except on the deployed service, whose endServer
				// deletes the sessions of non-staff players still in game (their visits with them).
				if (!ender.reportsLeaves() || (ender.endsServer() && this.ctx.profile !== "deployed")) return false;
				gathering.leaveEveryone();
				return true;
			},
			unsent: () => ({ unsentJoins: queue.pending() }),
		};
	}

	/**
	 * Calls `handle` each time the service answers a player's join (`playerReported`), while that answer is the
	 * player's current one and the server runs: what consent and staff activity act on.
	 */
	onAnswered(handle: (player: Player, result: JoinResult, record: PlayerRecord) => void): void {
		const ctx = this.ctx;
		ctx.connect(
			ctx.signals.playerReported.Connect((player, result) =>
				ctx.guard("privacy", () => {
					const record = this.recordOf(player);
					if (ctx.stopped || record === undefined || record.answer !== result) return;
					handle(player, result, record);
				}),
			),
		);
	}

	/** The record of a player tracked now. */
	recordOf(player: Player): PlayerRecord | undefined {
		return this.gathering.recordOf(player);
	}

	/** Whether the service marked `player` as staff (false until their join is answered, and for banned players). */
	isStaff(player: Player): boolean {
		const answer = this.recordOf(player)?.answer;
		return answer !== undefined && answer.isStaff && !answer.banned;
	}

	/** Whether the service tracks `player`: answered, not banned, not `tracked: false`. */
	isTracked(player: Player): boolean {
		return isTrackedResult(this.recordOf(player)?.answer);
	}

	/** Whether the service answered `tracked: false` for `player` (a join not answered yet is not known). */
	isUntracked(player: Player): boolean {
		return this.recordOf(player)?.answer?.tracked === false;
	}

	/** The player's session, or undefined until their join is answered (and for banned players). */
	sessionOf(player: Player): PlayerSession | undefined {
		const answer = this.recordOf(player)?.answer;
		if (answer === undefined || answer.banned) return undefined;
		return { sessionId: answer.sessionId, runningPlayerId: answer.runningPlayerId, isStaff: answer.isStaff };
	}

	/** Tracks the players already present when StaffOps starts. */
	/** The players already here when the server began. */
	begun(): void {
		for (const player of this.ctx.players.GetPlayers()) this.gathering.track(player);
	}

	joined(player: Player): void {
		this.gathering.track(player);
	}

	left(player: Player): void {
		this.gathering.untrack(player);
	}

	/** Last after a registration, when leaves, presence and the profile's features are set up: the joins waiting go. */
	registeredLast(): void {
		this.queue.flush();
	}

	/** Marks every join the old server held to be reported again; says how many. */
	forgotten(): string {
		this.queue.cancelInFlight();
		const records = this.ctx.records;
		let again = 0;
		for (const [userId, record] of records) {
			const phase = record.phase;
			const unrecorded = phase === "ready" || phase === "sending" || phase === "checking";
			// Gone, and the old server's sessions ended with it: nothing to report for them. At shutdown a join that
			// never reached the old server is still reported, as every queued join is then (joinQueue `failed`).
			if (record.left && !(this.ctx.shuttingDown && unrecorded)) {
				records.delete(userId);
				continue;
			}
			if (
				phase === "sending" ||
				phase === "checking" ||
				(phase === "answered" && record.answer?.banned !== true)
			) {
				record.phase = "ready";
			}
			if (record.phase === "ready") again += 1;
		}
		return `reporting ${again} player(s) again`;
	}

	stop(): void {
		this.queue.stop();
	}

	diagnostics(): JoinsDiagnostics {
		return {
			players: this.ctx.records.size(),
			pending: this.queue.pending(),
			failures: { register: this.ctx.registration.failuresHandled, joins: this.queue.counts.failures },
			closed: this.ctx.closed,
		};
	}
}
