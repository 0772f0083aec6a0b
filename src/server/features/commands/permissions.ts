// Who may use which staff command: read from the service in batches, kept, and read again at a bounded rate.
import type { StaffOpsApiClient } from "../../../api/apiClient";
import type { CommandPermissionsAnswer } from "../../../api/resources/commands";
import type { HealthLog } from "../../../background/log";
import type { Scheduler } from "../../../transport/scheduler";

/** Seconds from one re-read of everyone (see {@link CommandPermissions}) to the periodic one that follows it. */
export const REFRESH_SECONDS = 300;
/**
 * A use is decided on a read sent less than this many seconds ago; an older one is read again first. 150 s keeps
 * those re-reads at most 0.4 a minute however often staff run commands (a fifth of the official module's 2 a minute),
 * and it is how long a permission removed on the website may still work.
 */
export const USE_FRESH_SECONDS = 150;
/** Seconds a staff member's join waits for others to share their read (a join wave is one request). */
export const JOIN_BATCH_SECONDS = 2;
/** The service's most `playerIds` per read (the api client's bound). */
const MAX_PER_READ = 100;

/** What the permissions need from the integration. @internal */
export interface PermissionSeams {
	readonly client: StaffOpsApiClient;
	readonly scheduler: Scheduler;
	readonly health: HealthLog;
	readonly guard: (label: string, fn: () => void) => void;
	/** The current registration's running game id; reads wait until there is one. */
	readonly runningGameId: () => string | undefined;
	/** A player's allowed commands changed (offer them the new list). */
	readonly changed: (player: Player) => void;
	/** Every answered read, as the service gave it (the commands feature looks for the official module's grants). */
	readonly answered?: (permissions: CommandPermissionsAnswer["permissions"]) => void;
}

interface Entry {
	readonly player: Player;
	/** Command ids the service allows this player, from the latest read. */
	allowed: Set<string>;
	/**
	 * When the latest answered read of this player was sent (scheduler seconds; undefined until the first): the
	 * service's answer is at least that new, so a removal made before it shows.
	 */
	readAt?: number;
	/** The service marked them staff: they are read soon after their join, and with every re-read. */
	staff: boolean;
	/** The latest read of this player on its way, if any: a use of theirs waits for it rather than sending another. */
	pending?: Promise<boolean>;
}

/** Counts of permission reads, for checks and diagnostics. @internal */
export interface PermissionStats {
	/** `GET /activity/commands/players/permissions` requests sent. */
	reads: number;
	/** Reads answered. */
	answered: number;
	failures: number;
}

/**
 * The permissions of the players present (docs/service-contract.md#admin-chat-commands). The rule, which keeps them
 * at a fraction of the official module's traffic (2 requests a minute plus 1 per join):
 * - a staff member's join is read within {@link JOIN_BATCH_SECONDS} s, one request for every staff join in that
 *   time; every other join waits for the next re-read;
 * - a re-read takes everyone a use or the chat's list depends on, one request per 100 players: those who hold a
 *   permission, the staff, and those never read. A player read once without any permission who is not staff is not
 *   read again (a grant reaches them at their next join), so a server where no one present may use a command sends
 *   nothing;
 * - a use whose player's read was sent {@link USE_FRESH_SECONDS} s ago or more makes a re-read first (or waits for
 *   the one on its way). Everyone it takes then shares one read time, so no use needs another for
 *   {@link USE_FRESH_SECONDS} s: with no joins, re-reads are that far apart however many staff run commands, and a
 *   permission removed on the website stops working within that time, whatever the menu still shows;
 * - a periodic re-read comes {@link REFRESH_SECONDS} s after the latest one (a use's re-read moves it on, since it
 *   read everyone the periodic one would): the chat's list and a grant follow within that time.
 * A failed read keeps what was known for the menu, and a use it was to check is refused (never allowed on doubt).
 * @internal
 */
export class CommandPermissions {
	readonly stats: PermissionStats = { reads: 0, answered: 0, failures: 0 };
	private readonly entries = new Map<number, Entry>();
	private readonly joinBatch = new Set<number>();
	private batchScheduled = false;
	private running = false;
	/** When the latest re-read was made (scheduler seconds): the periodic one is counted from it. */
	private reReadAt = 0;
	/** Re-reads made: a periodic timer that finds a newer one than it was set for waits again instead of reading. */
	private reReads = 0;

	constructor(private readonly seams: PermissionSeams) {}

	/** Starts the periodic reads (once). */
	start(): void {
		if (this.running) return;
		this.running = true;
		this.reReadAt = this.seams.scheduler.now();
		this.scheduleRefresh();
	}

	/** Stops every read to come. */
	stop(): void {
		this.running = false;
	}

	joined(player: Player): void {
		this.entries.set(player.UserId, { player, allowed: new Set(), staff: false });
	}

	/** The service answered `player`'s join as staff: read them soon, with the other staff joining now. */
	staffJoined(player: Player): void {
		const entry = this.entryOf(player);
		if (entry === undefined) return;
		entry.staff = true;
		this.joinBatch.add(player.UserId);
		if (this.batchScheduled) return;
		this.batchScheduled = true;
		this.seams.scheduler.delay(JOIN_BATCH_SECONDS, () =>
			this.seams.guard("command permissions", () => this.flushJoins()),
		);
	}

	/** A registration was made: staff joins that waited for it are read now. */
	registered(): void {
		if (this.joinBatch.size() > 0 && !this.batchScheduled) this.flushJoins();
	}

	left(player: Player): void {
		if (this.entries.get(player.UserId)?.player === player) this.entries.delete(player.UserId);
		this.joinBatch.delete(player.UserId);
	}

	/** The command ids `player` may use, from the latest read (empty before it). */
	allowedOf(player: Player): ReadonlySet<string> {
		return this.entryOf(player)?.allowed ?? new Set<string>();
	}

	/** Whether the latest read of `player` was sent recently enough to decide a use on. */
	isFresh(player: Player): boolean {
		const readAt = this.entryOf(player)?.readAt;
		return readAt !== undefined && this.seams.scheduler.now() - readAt < USE_FRESH_SECONDS;
	}

	/**
	 * Reads `player` again for a use: waits for their read on its way, or else makes a re-read of everyone (see
	 * {@link CommandPermissions}) with them in its first request. Resolves true when their read answered.
	 */
	readNow(player: Player): Promise<boolean> {
		const entry = this.entryOf(player);
		if (entry === undefined) return Promise.resolve(false);
		// Other staff using commands at the same moment wait for the same read instead of sending one each.
		if (entry.pending !== undefined) return entry.pending;
		return this.reReadAll(entry);
	}

	/** Players whose permissions are kept (memory checks). */
	size(): number {
		return this.entries.size();
	}

	private entryOf(player: Player): Entry | undefined {
		const entry = this.entries.get(player.UserId);
		return entry !== undefined && entry.player === player ? entry : undefined;
	}

	private flushJoins(): void {
		this.batchScheduled = false;
		if (!this.running || this.seams.runningGameId() === undefined) return;
		const batch = new Array<Entry>();
		for (const userId of this.joinBatch) {
			const entry = this.entries.get(userId);
			if (entry !== undefined) batch.push(entry);
		}
		this.joinBatch.clear();
		this.readAll(batch);
	}

	private scheduleRefresh(): void {
		const reReads = this.reReads;
		const wait = this.reReadAt + REFRESH_SECONDS - this.seams.scheduler.now();
		this.seams.scheduler.delay(wait, () =>
			this.seams.guard("command permissions", () => {
				if (!this.running) return;
				// A use's re-read since this timer was set read everyone this one would: count from that one instead.
				if (this.reReads === reReads) this.reReadAll(undefined);
				this.scheduleRefresh();
			}),
		);
	}

	/**
	 * Reads everyone a use or the chat's list depends on (those holding a permission, the staff, those never read),
	 * `first` in the first request. Those whose read is on its way are taken too, so that all share this read's time
	 * (the older answer is then dropped). Resolves with `first`'s read.
	 */
	private reReadAll(first: Entry | undefined): Promise<boolean> {
		this.reReads += 1;
		this.reReadAt = this.seams.scheduler.now();
		const due = new Array<Entry>();
		if (first !== undefined) due.push(first);
		for (const [, entry] of this.entries) {
			const wanted = entry.readAt === undefined || entry.staff || entry.allowed.size() > 0;
			if (wanted && entry !== first) due.push(entry);
		}
		return this.readAll(due)[0] ?? Promise.resolve(false);
	}

	/** Reads `entries` in requests of at most 100 players each; returns each request's read, in order. */
	private readAll(entries: ReadonlyArray<Entry>): Array<Promise<boolean>> {
		const reads = new Array<Promise<boolean>>();
		for (let first = 0; first < entries.size(); first += MAX_PER_READ) {
			const chunk = new Array<Entry>();
			for (let i = first; i < math.min(first + MAX_PER_READ, entries.size()); i++) chunk.push(entries[i]);
			reads.push(this.read(chunk));
		}
		return reads;
	}

	private read(entries: ReadonlyArray<Entry>): Promise<boolean> {
		const runningGameId = this.seams.runningGameId();
		if (entries.size() === 0 || runningGameId === undefined || !this.running) return Promise.resolve(false);
		const ids = entries.map((entry) => entry.player.UserId);
		const sentAt = this.seams.scheduler.now();
		this.stats.reads += 1;
		const promise = this.seams.client.commands
			.permissions(runningGameId, ids, { priority: "normal", maxAttempts: 1 })
			.then(
				(answer) => {
					this.seams.guard("command permissions", () => {
						this.stats.answered += 1;
						this.seams.health.recovered("command permissions", "command permissions are read again");
						for (const entry of entries)
							this.update(entry, answer.permissions[tostring(entry.player.UserId)], sentAt);
						this.seams.answered?.(answer.permissions);
					});
					return true;
				},
				(err: unknown) => {
					this.seams.guard("command permissions", () => {
						this.stats.failures += 1;
						this.seams.health.problem(
							"command permissions",
							`staff command permissions could not be read (${tostring(err)}); uses wait for a read that works`,
							err,
						);
					});
					return false;
				},
			);
		// Kept until it settles (at once when the answer came at once): a use of theirs waits for it meanwhile.
		for (const entry of entries) entry.pending = promise;
		promise.finally(() => {
			for (const entry of entries) if (entry.pending === promise) entry.pending = undefined;
		});
		return promise;
	}

	private update(entry: Entry, granted: { readonly [commandId: string]: boolean } | undefined, sentAt: number): void {
		// Left, or a read sent later has answered first (two can be on their way: a join's and a re-read).
		if (this.entryOf(entry.player) !== entry || (entry.readAt !== undefined && sentAt < entry.readAt)) return;
		const allowed = new Set<string>();
		for (const [commandId, on] of pairs(granted ?? {})) if (on === true) allowed.add(commandId as string);
		entry.readAt = sentAt;
		let same = allowed.size() === entry.allowed.size();
		for (const id of allowed) if (!entry.allowed.has(id)) same = false;
		entry.allowed = allowed;
		if (!same) this.seams.changed(entry.player);
	}
}
