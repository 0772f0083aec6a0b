import type { SessionEvent } from "../presence/sessionEvents";
import { isActivityState } from "../../../shared/privacyProtocol";
import type { ActivitySettings, ActivityState } from "../../../shared/privacyProtocol";
import { RateLimiter } from "../../../shared/rateLimiter";
import type { Scheduler } from "../../../transport/scheduler";

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
	/** Connects to a player's chat messages (`to`: a whisper's recipient, when the chat system says); default `Player.Chatted`. */
	readonly chatted: (player: Player, handler: (message: string, to?: Player) => void) => RBXScriptConnection;
	/** Unix milliseconds; default {@link wallClockMs} on the scheduler. */
	readonly clockMs?: () => number;
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
	sessionId: string;
	staff: boolean;
	state: ActivityState;
	/** The `datetime` of this player's last event: the next one is later, so none collapse into another. */
	lastMs: number;
	/** The server was registered again: the old session is gone, nothing is reported until the new one. */
	suspended: boolean;
	chat?: RBXScriptConnection;
}

/** State changes a client may report: one every 2 s on average, bursts of 5 (typing, active, idle, active, ...). */
const CHANGES_PER_SECOND = 0.5;
const CHANGE_BURST = 5;
/** Roblox's chat caps a message at 200 characters (docs/roblox.md#chat-message-length); a longer one is not a chat message. */
const MAX_MESSAGE_CHARACTERS = 200;

/**
 * Unix milliseconds read on the scheduler's clock: the wall time once, then the scheduler's monotonic seconds
 * (`os.clock`, sub-millisecond) added to it, so two changes within one second get different `datetime`s (whole
 * seconds times 1000 would not) and specs that move the clock by hand move event times with it.
 * @internal
 */
export function wallClockMs(scheduler: Scheduler): () => number {
	const wallAtStart = DateTime.now().UnixTimestampMillis;
	const clockAtStart = scheduler.now();
	// Rounded, not floored: 0.3 s + 0.3 s on a float clock is 0.5999... s.
	return () => wallAtStart + math.round((scheduler.now() - clockAtStart) * 1000);
}

/**
 * Staff activity (docs/service-contract.md#privacy-and-consent): for each tracked player with a `sessionId` who is staff (or everyone, when the game
 * opts in), the client is asked to report its state (`idle`, `active`, `typing`; see `client/activity`), and each
 * checked change becomes a session event for the sync, in the deployed service's shape (`sessionEvents.ts`, with
 * `datetime` in ms). Chat messages become `message` events only when the game turns chat logging on.
 * @internal
 */
export class StaffActivity {
	readonly stats: StaffActivityStats = { emitted: 0, refused: 0, rateLimited: 0 };
	private readonly reporters = new Map<number, Reporter>();
	private readonly limiter: RateLimiter;
	private readonly clockMs: () => number;

	constructor(private readonly seams: StaffActivitySeams) {
		this.limiter = new RateLimiter(CHANGES_PER_SECOND, CHANGE_BURST, () => seams.scheduler.now());
		this.clockMs = seams.clockMs ?? wallClockMs(seams.scheduler);
	}

	/**
	 * A join was answered: starts reporting for an eligible player (once per player). A later answer with a new
	 * session (the server was registered again) moves the player's reports to it, and carries a state other than
	 * `active` over, since a new session starts active.
	 */
	answered(player: Player, tracked: boolean, isStaff: boolean, sessionId: string | undefined): void {
		if (!tracked || sessionId === undefined || sessionId === "" || !(isStaff || this.seams.everyone)) return;
		const existing = this.reporters.get(player.UserId);
		if (existing !== undefined && existing.player === player) {
			if (existing.sessionId === sessionId && !existing.suspended) return;
			const moved = existing.sessionId !== sessionId;
			existing.sessionId = sessionId;
			existing.staff = isStaff;
			existing.suspended = false;
			if (moved && existing.state !== "active") this.report(existing, existing.state);
			return;
		}
		existing?.chat?.Disconnect();
		const reporter: Reporter = { player, sessionId, staff: isStaff, state: "active", lastMs: 0, suspended: false };
		this.reporters.set(player.UserId, reporter);
		if (this.seams.chatMessages) {
			reporter.chat = this.seams.chatted(player, (message, to) =>
				this.seams.guard("chat message", () => this.chatted(reporter, message, to)),
			);
		}
		const settings = this.seams.settings();
		this.seams.guard("activity start", () => this.seams.remote.FireClient(player, settings));
	}

	/**
	 * The server was registered again: every session named so far is gone. Reports wait for each player's new join
	 * answer ({@link answered}); the client's state is still followed meanwhile.
	 */
	suspend(): void {
		for (const [, reporter] of this.reporters) reporter.suspended = true;
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
		this.report(reporter, state);
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

	private chatted(reporter: Reporter, message: unknown, to: unknown): void {
		if (this.reporters.get(reporter.player.UserId) !== reporter || !typeIs(message, "string")) return;
		// Counted in characters, as Roblox's chat limit is (a Cyrillic or CJK line is 2 to 4 bytes a character).
		const [characters] = utf8.len(message);
		if (!typeIs(characters, "number") || characters === 0 || characters > MAX_MESSAGE_CHARACTERS) return;
		const whisperedTo = typeIs(to, "Instance") && to.IsA("Player") ? to.UserId : undefined;
		this.report(reporter, "message", message, whisperedTo);
	}

	/** One event of `reporter`'s session, stamped later than their last one; nothing while suspended. */
	private report(reporter: Reporter, kind: SessionEvent["type"], message?: string, to?: number): void {
		if (reporter.suspended) return;
		const datetime = math.max(this.clockMs(), reporter.lastMs + 1);
		reporter.lastMs = datetime;
		const userId = reporter.player.UserId;
		this.stats.emitted += 1;
		const event: SessionEvent = {
			type: kind,
			userId,
			sessionId: reporter.sessionId,
			datetime,
			message,
			to,
			staff: reporter.staff,
		};
		this.seams.guard("session event", () => this.seams.emit(event));
	}
}
