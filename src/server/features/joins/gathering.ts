import type { ClientReportPayload } from "../../../shared/reportPayload";
import { HealthLog, logInfo } from "../../../background/log";
import type { Scheduler } from "../../../transport/scheduler";
import type { StaffOpsSettings } from "../../config";
import type { Registered } from "../../records";
import type { PlayerRecord } from "../../records";
import type { SessionEnder } from "../sessions/sessions";
import type { DecidedProfile } from "../../profile";
import type { RankReader } from "../../../roblox/groupRank";

/** Longest wait for `CanUserChatAsync` before safechat is reported as on. */
const SAFECHAT_WAIT_SECONDS = 15;
/** How long a join waits for the staff hint's rank before it goes out as an ordinary join. */
const RANK_WAIT_SECONDS = 3;

/** What gathering needs from the integration. @internal */
export interface GatheringSeams {
	readonly config: StaffOpsSettings;
	readonly scheduler: Scheduler;
	readonly health: HealthLog;
	readonly records: Map<number, PlayerRecord>;
	readonly canChat: (player: Player) => boolean;
	readonly rankOf: RankReader;
	readonly sessions: SessionEnder;
	readonly registration: () => Registered | undefined;
	readonly shuttingDown: () => boolean;
	readonly profile: () => DecidedProfile | undefined;
	readonly stopped: () => boolean;
	/** A join became ready: send what can be sent. */
	readonly ready: () => void;
	readonly guard: (label: string, fn: () => void) => void;
}

/**
 * Tracks players from join to leave and gathers what their join carries: the client's report (or its timeout),
 * safechat read on the server, and, with a staff hint, the group rank. A leave ends what the player started: a join
 * not sent yet is dropped, a join in flight settles first, an answered join's leave is reported (sessions option).
 * @internal
 */
export class Gathering {
	private readonly notedTestIds = new Set<number>();
	private order = 0;

	constructor(private readonly host: GatheringSeams) {}

	/** The record of `player`, when it is this very player's. */
	recordOf(player: Player): PlayerRecord | undefined {
		if (!typeIs(player, "Instance") || !player.IsA("Player")) return undefined;
		const record = this.host.records.get(player.UserId);
		return record !== undefined && record.player === player ? record : undefined;
	}

	track(player: Player): PlayerRecord | undefined {
		if (this.host.stopped() || this.host.shuttingDown()) return undefined;
		const userId = player.UserId;
		const existing = this.host.records.get(userId);
		if (existing !== undefined && existing.player === player) return existing;
		if (userId <= 0) {
			// Studio's local test players (Player1 = -1, ...) are no Roblox users; the service cannot know them.
			if (!this.notedTestIds.has(userId)) {
				this.notedTestIds.add(userId);
				logInfo(`${player.Name} has a Studio test UserId (${userId}); not reporting this player`);
			}
			return undefined;
		}
		this.order += 1;
		const hint = this.host.config.staffHint;
		const record: PlayerRecord = {
			player,
			userId,
			username: player.Name,
			order: this.order,
			phase: "gathering",
			// A timeout of 0 means "do not wait": settled before anything below can advance the record.
			reportTimedOut: this.host.config.clientReportTimeoutSeconds <= 0,
			answeredSeq: 0,
			announced: false,
			left: false,
			likelyStaff: false,
			rankKnown: hint === undefined,
			joinedAtMs: DateTime.now().UnixTimestampMillis,
		};
		this.host.records.set(userId, record);
		task.spawn(() => this.host.guard("safechat", () => this.readSafechat(record)));
		// CanUserChatAsync is a web call that may hang; the join does not wait for it forever.
		this.after(SAFECHAT_WAIT_SECONDS, record, "safechat timeout", () => {
			if (record.safechat !== undefined) return;
			this.host.health.problem("safechat", "reading chat permissions timed out; reporting safechat = true");
			record.safechat = true;
		});
		if (!record.reportTimedOut) {
			this.after(this.host.config.clientReportTimeoutSeconds, record, "client report timeout", () => {
				record.reportTimedOut = true;
			});
		}
		if (hint !== undefined) {
			task.spawn(() => this.host.guard("staff hint", () => this.readRank(record, hint.groupId, hint.minRank)));
			this.after(RANK_WAIT_SECONDS, record, "staff hint timeout", () => {
				if (record.rankKnown) return;
				this.host.health.problem(
					"staff hint",
					`reading a group rank took over ${RANK_WAIT_SECONDS} s; such joins go out in join order`,
				);
				record.rankKnown = true;
			});
		}
		this.advance(record);
		return record;
	}

	/** The player left. */
	untrack(player: Player): void {
		const userId = player.UserId;
		const record = this.host.records.get(userId);
		if (record === undefined || record.player !== player) return;
		const phase = record.phase;
		const leftAtMs = DateTime.now().UnixTimestampMillis;
		if (phase === "sending" || phase === "checking") {
			// The service may have the join: let it settle, then report the leave (or nothing, if it never landed).
			record.left = true;
			record.leftAtMs = leftAtMs;
			if (this.host.shuttingDown() || this.host.sessions.reportsLeaves()) return;
		} else if (this.host.shuttingDown() && (phase === "ready" || phase === "gathering")) {
			// The server is closing: Roblox removes everyone still present. Their joins, queued or still gathering
			// (shutdown stops every wait), go out within the deadline.
			record.left = true;
			record.leftAtMs = leftAtMs;
			return;
		} else if (phase === "answered") {
			this.leave(record, leftAtMs);
		}
		this.host.records.delete(userId);
		record.request?.cancel();
		record.request = undefined;
	}

	/**
	 * At shutdown with leaves on: every player still present leaves now (Roblox may remove them only after
	 * `BindToClose` has run), so each session ends with its own leave (before the server's end, if any).
	 */
	leaveEveryone(): void {
		for (const [, record] of this.host.records) {
			if (record.left) continue;
			this.untrack(record.player);
		}
	}

	/**
	 * Reports the leave of an answered join (at `leftAtMs`, Unix ms), unless the server ends at shutdown anyway. The
	 * leave never ends the session before its join's `datetime`, where the deployed service starts it: a visit that
	 * ends within its join's millisecond (a kick at join, a shutdown that removes a player whose join was still to go
	 * out) ends at its start, never before it (docs/service-contract.md#a-leave-ends-to-the-millisecond).
	 */
	leave(record: PlayerRecord, leftAtMs: number): void {
		// Banned (on the deployed service a banned joiner's session ends at his leave like anyone's), or the service
		// tracks nothing for this player (`tracked: false`): no session of theirs to end.
		const bannedWithoutSession = record.answer?.banned === true && this.host.profile() !== "deployed";
		if (bannedWithoutSession || record.answer?.tracked === false || record.answeredUnder === undefined) return;
		// Ending the server ends the sessions still open, except on the deployed service, whose endServer deletes the
		// sessions of non-staff players still in game: there each gets its own leave first.
		if (this.host.shuttingDown() && this.host.sessions.endsServer() && this.host.profile() !== "deployed") return;
		this.host.sessions.leave(record.userId, record.answeredUnder, math.max(leftAtMs, record.joinedAtMs));
	}

	/** A join the player left during settled as answered: report the leave, forget the player. */
	answeredAfterLeaving(record: PlayerRecord): void {
		this.leave(record, record.leftAtMs ?? DateTime.now().UnixTimestampMillis);
		if (this.host.records.get(record.userId) === record) this.host.records.delete(record.userId);
	}

	/** A checked client report for a tracked player. Returns false when it was not needed. */
	acceptReport(record: PlayerRecord, report: ClientReportPayload): boolean {
		// A report that arrives after the wait is still used if the join has not gone out yet.
		if (record.report !== undefined || (record.phase !== "gathering" && record.phase !== "ready")) return false;
		record.report = report;
		this.advance(record);
		return true;
	}

	/** Shutdown: nobody waits for a client report, a chat permission or a rank any more. */
	stopWaiting(): void {
		for (const [, record] of this.host.records) {
			if (record.phase !== "gathering") continue;
			record.reportTimedOut = true;
			record.rankKnown = true;
			if (record.safechat === undefined) record.safechat = true;
			this.advance(record);
		}
	}

	private after(seconds: number, record: PlayerRecord, label: string, fn: () => void): void {
		this.host.scheduler.delay(seconds, () =>
			this.host.guard(label, () => {
				if (this.host.records.get(record.userId) !== record || record.phase !== "gathering") return;
				fn();
				this.advance(record);
			}),
		);
	}

	private readSafechat(record: PlayerRecord): void {
		const [ok, canChat] = pcall(this.host.canChat, record.player);
		let safechat = true;
		if (ok && typeIs(canChat, "boolean")) {
			safechat = !canChat;
		} else {
			const why = ok ? "no boolean answer" : tostring(canChat);
			this.host.health.problem("safechat", `could not read chat permissions (${why}); reporting safechat = true`);
		}
		if (this.host.records.get(record.userId) !== record || record.safechat !== undefined) return;
		record.safechat = safechat;
		this.advance(record);
	}

	/** Reads the rank once per stay: a player who rejoins is read again (their roles may have changed meanwhile). */
	private readRank(record: PlayerRecord, groupId: number, minRank: number): void {
		let rank: number | undefined;
		const [ok, value] = pcall(this.host.rankOf, record.player, groupId);
		if (ok && typeIs(value, "number")) {
			rank = value;
			this.host.health.recovered("staff hint", "group ranks are read again");
		} else {
			const why = ok ? "no number answered" : tostring(value);
			this.host.health.problem(
				"staff hint",
				`could not read a group rank (${why}); such joins go out in join order`,
			);
		}
		if (this.host.records.get(record.userId) !== record || record.rankKnown) return;
		record.likelyStaff = rank !== undefined && rank >= minRank;
		record.rankKnown = true;
		this.advance(record);
	}

	private advance(record: PlayerRecord): void {
		if (record.phase !== "gathering" || record.safechat === undefined || !record.rankKnown) return;
		if (record.report === undefined && !record.reportTimedOut) return;
		record.phase = "ready";
		this.host.ready();
	}
}
