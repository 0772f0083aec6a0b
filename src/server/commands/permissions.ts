// Who may use which staff command: read from the service in batches, kept, and read again at a bounded rate.
import type { StaffOpsApiClient } from "../../api/apiClient";
import type { HealthLog } from "../../background/log";
import type { Scheduler } from "../../transport/scheduler";

/** Seconds between the periodic reads of the players who may hold a permission (see {@link CommandPermissions}). */
export const REFRESH_SECONDS = 300;
/** A use is checked against a read at most this old; an older one is read again first. */
export const USE_FRESH_SECONDS = 60;
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
}

interface Entry {
	readonly player: Player;
	/** Command ids the service allows this player, from the latest read. */
	allowed: Set<string>;
	/** When the latest read answered (scheduler seconds); undefined until the first. */
	readAt?: number;
	/** The service marked them staff: they are read soon after their join, and at each refresh. */
	staff: boolean;
	/** A read of this player is on its way: the periodic read leaves them out (never two at once). */
	reading: boolean;
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
 *   time; every other join waits for the next periodic read;
 * - every {@link REFRESH_SECONDS} s one request (per 100 players) reads the players who hold a permission, the staff,
 *   and those never read; a player read once without any permission who is not staff is not read again (a grant
 *   reaches them at their next join), so a server where no one present may use a command sends nothing;
 * - before a use, a read older than {@link USE_FRESH_SECONDS} s is made again for that player (with every other
 *   permitted player as stale, in the same request): a permission removed on the website stops working within that
 *   time, whatever the menu still shows.
 * A failed read keeps what was known for the menu, and a use it was to check is refused (never allowed on doubt).
 * @internal
 */
export class CommandPermissions {
	readonly stats: PermissionStats = { reads: 0, answered: 0, failures: 0 };
	private readonly entries = new Map<number, Entry>();
	private readonly joinBatch = new Set<number>();
	private batchScheduled = false;
	private running = false;

	constructor(private readonly seams: PermissionSeams) {}

	/** Starts the periodic reads (once). */
	start(): void {
		if (this.running) return;
		this.running = true;
		this.scheduleRefresh();
	}

	/** Stops every read to come. */
	stop(): void {
		this.running = false;
	}

	joined(player: Player): void {
		this.entries.set(player.UserId, { player, allowed: new Set(), staff: false, reading: false });
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

	/** Whether the latest read of `player` is recent enough to decide a use on. */
	isFresh(player: Player): boolean {
		const readAt = this.entryOf(player)?.readAt;
		return readAt !== undefined && this.seams.scheduler.now() - readAt <= USE_FRESH_SECONDS;
	}

	/**
	 * Reads `player` again now, with every other permitted player whose read is as stale (one request: however many
	 * staff run commands, these reads stay within one a minute). Resolves true when the read answered.
	 */
	readNow(player: Player): Promise<boolean> {
		const entry = this.entryOf(player);
		if (entry === undefined) return Promise.resolve(false);
		const stale = [entry];
		for (const [, other] of this.entries) {
			if (
				other !== entry &&
				other.allowed.size() > 0 &&
				!this.isFresh(other.player) &&
				stale.size() < MAX_PER_READ
			)
				stale.push(other);
		}
		return this.read(stale);
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
		this.seams.scheduler.delay(REFRESH_SECONDS, () =>
			this.seams.guard("command permissions", () => {
				if (!this.running) return;
				const due = new Array<Entry>();
				for (const [, entry] of this.entries) {
					const wanted = entry.readAt === undefined || entry.staff || entry.allowed.size() > 0;
					if (wanted && !entry.reading) due.push(entry);
				}
				if (this.seams.runningGameId() !== undefined) this.readAll(due);
				this.scheduleRefresh();
			}),
		);
	}

	/** Reads `entries` in requests of at most 100 players each. */
	private readAll(entries: ReadonlyArray<Entry>): void {
		for (let first = 0; first < entries.size(); first += MAX_PER_READ) {
			const chunk = new Array<Entry>();
			for (let i = first; i < math.min(first + MAX_PER_READ, entries.size()); i++) chunk.push(entries[i]);
			this.read(chunk);
		}
	}

	private read(entries: ReadonlyArray<Entry>): Promise<boolean> {
		const runningGameId = this.seams.runningGameId();
		if (entries.size() === 0 || runningGameId === undefined || !this.running) return Promise.resolve(false);
		const ids = entries.map((entry) => entry.player.UserId);
		for (const entry of entries) entry.reading = true;
		this.stats.reads += 1;
		return this.seams.client.commands.permissions(runningGameId, ids, { priority: "normal", maxAttempts: 1 }).then(
			(answer) => {
				for (const entry of entries) entry.reading = false;
				this.seams.guard("command permissions", () => {
					this.stats.answered += 1;
					this.seams.health.recovered("command permissions", "command permissions are read again");
					for (const entry of entries) this.update(entry, answer.permissions[tostring(entry.player.UserId)]);
				});
				return true;
			},
			(err: unknown) => {
				for (const entry of entries) entry.reading = false;
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
	}

	private update(entry: Entry, granted: { readonly [commandId: string]: boolean } | undefined): void {
		if (this.entryOf(entry.player) !== entry) return;
		const allowed = new Set<string>();
		for (const [commandId, on] of pairs(granted ?? {})) if (on === true) allowed.add(commandId as string);
		entry.readAt = this.seams.scheduler.now();
		let same = allowed.size() === entry.allowed.size();
		for (const id of allowed) if (!entry.allowed.has(id)) same = false;
		entry.allowed = allowed;
		if (!same) this.seams.changed(entry.player);
	}
}
