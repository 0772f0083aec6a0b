import type { SessionEvent } from "./sessionEvents";
import { isActivityState } from "../shared/privacyProtocol";
import type { ActivitySettings, ActivityState } from "../shared/privacyProtocol";
import { RateLimiter } from "../shared/rateLimiter";
import type { Scheduler } from "../transport/scheduler";

/** What staff activity needs from the integration. @internal */
export interface StaffActivitySeams {
	readonly scheduler: Scheduler;
	/** The `Activity` remote. */
	readonly remote: RemoteEvent;
	/** Where session events go (the sync's queue). */
	readonly emit: (event: SessionEvent) => void;
	/** The workspace's AFK settings, read when a player starts reporting. */
	readonly settings: () => ActivitySettings;
	/** Report every tracked player, not only staff. */
	readonly everyone: boolean;
	/** Turn each chat message of a reported player into a `message` event. */
	readonly chatMessages: boolean;
	/** Connects to a player's chat messages; default `Player.Chatted`. */
	readonly chatted: (player: Player, handler: (message: string) => void) => RBXScriptConnection;
	/** Unix seconds; default `os.time`. */
	readonly now: () => number;
	readonly guard: (label: string, fn: () => void) => void;
}

/** Counts of `Activity` events, for checks and diagnostics. @internal */
export interface StaffActivityStats {
	emitted: number;
	/** Dropped: malformed, from a player not reporting, not a change, or over the rate. */
	refused: number;
	rateLimited: number;
}

interface Reporter {
	readonly player: Player;
	readonly sessionId: string;
	state: ActivityState;
	chat?: RBXScriptConnection;
}

/** State changes a client may report: one every 2 s on average, bursts of 5 (typing, active, idle, active, ...). */
const CHANGES_PER_SECOND = 0.5;
const CHANGE_BURST = 5;
/** Roblox's chat caps a message at 200 characters; a longer one is not a chat message. */
const MAX_MESSAGE = 200;

/**
 * Staff activity (docs/service-contract.md#privacy-and-consent): for each tracked player with a `sessionId` who is staff (or everyone, when the game
 * opts in), the client is asked to report its state (`idle`, `active`, `typing`; see `client/activity`), and each
 * checked change becomes a session event `{type, sessionId, date}` for the sync. Chat messages become `message`
 * events only when the game turns chat logging on.
 * @internal
 */
export class StaffActivity {
	readonly stats: StaffActivityStats = { emitted: 0, refused: 0, rateLimited: 0 };
	private readonly reporters = new Map<number, Reporter>();
	private readonly limiter: RateLimiter;

	constructor(private readonly seams: StaffActivitySeams) {
		this.limiter = new RateLimiter(CHANGES_PER_SECOND, CHANGE_BURST, () => seams.scheduler.now());
	}

	/** A join was answered: starts reporting for an eligible player (once per player). */
	answered(player: Player, tracked: boolean, isStaff: boolean, sessionId: string | undefined): void {
		if (!tracked || sessionId === undefined || sessionId === "" || !(isStaff || this.seams.everyone)) return;
		const existing = this.reporters.get(player.UserId);
		if (existing !== undefined && existing.player === player && existing.sessionId === sessionId) return;
		existing?.chat?.Disconnect();
		const reporter: Reporter = { player, sessionId, state: "active" };
		this.reporters.set(player.UserId, reporter);
		if (this.seams.chatMessages) {
			reporter.chat = this.seams.chatted(player, (message) =>
				this.seams.guard("chat message", () => this.chatted(reporter, message)),
			);
		}
		const settings = this.seams.settings();
		this.seams.guard("activity start", () => this.seams.remote.FireClient(player, settings));
	}

	/** One event of the `Activity` remote: the sender's own state, checked. */
	handle(player: Player, args: Array<unknown>): void {
		if (!typeIs(player, "Instance") || !player.IsA("Player")) return;
		const reporter = this.reporters.get(player.UserId);
		if (reporter === undefined || reporter.player !== player) {
			this.stats.refused += 1;
			return;
		}
		if (!this.limiter.allow(player.UserId)) {
			this.stats.rateLimited += 1;
			return;
		}
		const state = args[0];
		if (args.size() !== 1 || !isActivityState(state) || state === reporter.state) {
			this.stats.refused += 1;
			return;
		}
		reporter.state = state;
		this.emit({ type: state, sessionId: reporter.sessionId, date: this.seams.now() });
	}

	/** Whether `player` reports activity. */
	isReporting(player: Player): boolean {
		return this.reporters.get(player.UserId)?.player === player;
	}

	/** The player left: nothing more is reported for them. */
	forget(player: Player): void {
		const reporter = this.reporters.get(player.UserId);
		if (reporter !== undefined && reporter.player === player) {
			reporter.chat?.Disconnect();
			this.reporters.delete(player.UserId);
		}
		this.limiter.forget(player.UserId);
	}

	stop(): void {
		for (const [, reporter] of this.reporters) reporter.chat?.Disconnect();
		this.reporters.clear();
	}

	private chatted(reporter: Reporter, message: unknown): void {
		if (this.reporters.get(reporter.player.UserId) !== reporter) return;
		if (
			!typeIs(message, "string") ||
			message.size() === 0 ||
			((utf8.len(message)[0] as number | undefined) ?? math.huge) > MAX_MESSAGE
		)
			return;
		this.emit({ type: "message", sessionId: reporter.sessionId, date: this.seams.now(), message });
	}

	private emit(event: SessionEvent): void {
		this.stats.emitted += 1;
		this.seams.guard("session event", () => this.seams.emit(event));
	}
}
