import { isClientReportPayload } from "../../../shared/reportPayload";
import { RateLimiter } from "../../../shared/rateLimiter";
import type { Scheduler } from "../../../transport/scheduler";
import type { Gathering } from "../joins/gathering";
import type { PlayersLike } from "../../../roblox/players";

/**
 * Counts of `ClientReport` events, for checks and diagnostics.
 * @internal
 */
export interface ClientReportStats {
	received: number;
	accepted: number;
	/** Malformed: wrong types, extra keys, values outside the allowed sets. */
	rejected: number;
	/** Dropped by the per-player rate limit. */
	rateLimited: number;
	/** Well-formed but not needed: a second report, or from a player who is not in the server. */
	ignored: number;
}

const REPORTS_PER_SECOND = 0.5;
const REPORT_BURST = 3;

/**
 * The `ClientReport` remote's server side: a client's platform and timezone, untrusted. Each event is checked
 * cheaply in this order: a player in the server (a late event after PlayerRemoving creates nothing), the per-player
 * rate limit, the payload's shape.
 * @internal
 */
export class ClientReports {
	readonly stats: ClientReportStats = { received: 0, accepted: 0, rejected: 0, rateLimited: 0, ignored: 0 };
	private readonly limiter: RateLimiter;

	constructor(
		private readonly players: PlayersLike,
		private readonly gathering: Gathering,
		scheduler: Scheduler,
	) {
		this.limiter = new RateLimiter(REPORTS_PER_SECOND, REPORT_BURST, () => scheduler.now());
	}

	/** Handles one event a client fired. */
	handle(player: Player, args: Array<unknown>): void {
		const stats = this.stats;
		stats.received += 1;
		if (!typeIs(player, "Instance") || !player.IsA("Player") || player.Parent === undefined) {
			stats.ignored += 1;
			return;
		}
		let record = this.gathering.recordOf(player);
		// An event may be handled before PlayerAdded reached us, or after PlayerRemoving did: only a player still in
		// the server may be tracked from a report.
		if (record === undefined && !this.players.GetPlayers().includes(player)) {
			stats.ignored += 1;
			return;
		}
		if (!this.limiter.allow(player.UserId)) {
			stats.rateLimited += 1;
			return;
		}
		const payload = args[0];
		if (args.size() !== 1 || !isClientReportPayload(payload)) {
			stats.rejected += 1;
			return;
		}
		record = record ?? this.gathering.track(player);
		if (record === undefined || !this.gathering.acceptReport(record, { ...payload })) {
			stats.ignored += 1;
			return;
		}
		stats.accepted += 1;
	}

	/** The player left: their rate-limit bucket goes. */
	forget(userId: number): void {
		this.limiter.forget(userId);
	}

	/** Rate-limit buckets held (memory checks). */
	limiterKeys(): number {
		return this.limiter.size();
	}
}
