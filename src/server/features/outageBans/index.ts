// Bans that hold through an outage: a ban the service reported is remembered for an hour in the game's MemoryStore,
// so a banned player who rejoins any server while the service is unreachable is still kicked.
import { logInfo, logWarn, playerLabel } from "../../../background/log";
import { MemoryStoreHashMapLike, MemoryStoreLike, robloxMemoryStore } from "../../../roblox/memoryStore";
import { cutToBytes } from "../../../shared/cutToBytes";
import { kickBanned } from "../joins/announce";
import type { JoinResult } from "../../records";
import type { StaffOpsStatus } from "../../status";
import type { ServerContext } from "../../context";
import type { Feature, FeatureDeclaration } from "../../feature";
import type { JoinsFeature } from "../joins";

/**
 * The outage bans' setting in `StaffOpsConfig`.
 */
export interface OutageBansConfig {
	/**
	 * Remember each ban the service reports for an hour in the game's MemoryStore, and kick a remembered player who
	 * joins while the service is unreachable (attribute `OutageBans`). Default true; needs `kickBanned`.
	 */
	readonly outageBans?: boolean;
}

// Its settings join `StaffOpsConfig` (and their resolved types `StaffOpsSettings`): the core names no feature.
declare module "../../config" {
	interface StaffOpsBaseConfig extends OutageBansConfig {}
}

/** Bans that hold through an outage. In the package's declarations for the config type; not an API. */
export const OUTAGE_BANS: FeatureDeclaration<OutageBansConfig, "outageBans"> = {
	name: "outageBans",
	settings: [{ field: "outageBans", attribute: "OutageBans", default: true }],
	remotes: [],
	clientParts: [],
};

/** The hash map every server of the game shares for remembered bans. @internal */
export const OUTAGE_BANS_MAP = "StaffOps.outageBans.v1";
/**
 * Seconds a remembered ban lives (MemoryStore expires it): a ban lifted on the service while it was unreachable can
 * keep a player out for at most this long, and only while the service stays unreachable.
 * @internal
 */
export const REMEMBER_SECONDS = 3600;
/** The longest ban reason kept, in bytes (control characters become spaces): an item stays under 512 bytes. @internal */
export const MAX_REASON_BYTES = 200;

/** The key of a user's remembered ban. @internal */
export function banKey(userId: number): string {
	return `u${userId}`;
}

/** A reason cut to {@link MAX_REASON_BYTES} on a character boundary, without control characters. */
function keptReason(reason: string): string {
	const [text] = reason.gsub("%c", " ");
	return cutToBytes(text, MAX_REASON_BYTES);
}

/** What the remembered-ban store counts: requests made and failed (a MemoryStore error never reaches the game). */
export interface OutageBanCounts {
	remembered: number;
	forgotten: number;
	/** Writes that found a newer answer already remembered, and left it (an unban never loses to an older ban). */
	stale: number;
	lookups: number;
	errors: number;
}

/** A remembered ban as stored: the reason, when it was stored (Unix s) and the answer's time (Unix ms). */
interface BanItem {
	reason: string;
	bannedAt: number;
	at: number;
}

/**
 * The answer time of a stored item, in Unix ms: a lifted ban is stored as that number alone, a ban as a table with
 * `at` (or only `bannedAt`, in seconds, from a version before times were kept). Anything else counts as oldest.
 */
function answeredAt(item: unknown): number {
	if (typeIs(item, "number")) return item;
	if (!typeIs(item, "table")) return -math.huge;
	const { at, bannedAt } = item as { at?: unknown; bannedAt?: unknown };
	if (typeIs(at, "number")) return at;
	return typeIs(bannedAt, "number") ? bannedAt * 1000 : -math.huge;
}

/**
 * The game-wide store of remembered bans, one item per user, ordered by the time of the service's answer: a ban
 * (`{ reason, bannedAt, at }`) or a lifted ban (the answer's time alone, a number: older versions' readers take any
 * non-table as "not banned"). Each write is an `UpdateAsync` that replaces only an older answer, so an unban wins over
 * an older ban however the writes interleave across servers; both expire after {@link REMEMBER_SECONDS}. Every call
 * yields and runs in `pcall`; a failure is counted and answers "not known".
 * @internal
 */
export class OutageBanStore {
	readonly counts: OutageBanCounts = { remembered: 0, forgotten: 0, stale: 0, lookups: 0, errors: 0 };
	private map?: MemoryStoreHashMapLike;
	private warned = false;

	constructor(private readonly memory: MemoryStoreLike = robloxMemoryStore) {}

	/** The service reported `userId` banned for `reason` in an answer at `at` (Unix ms, default now). Yields. */
	remember(userId: number, reason: string, at = DateTime.now().UnixTimestampMillis): void {
		const value: BanItem = { reason: keptReason(reason), bannedAt: os.time(), at };
		// An equal time is left too: at the same moment, the unban wins.
		this.write(userId, (old) => (answeredAt(old) >= at ? undefined : value), "remembered");
	}

	/** The service answered at `at` (Unix ms, default now) that `userId` is not banned; wins over older bans. Yields. */
	forget(userId: number, at = DateTime.now().UnixTimestampMillis): void {
		this.write(userId, (old) => (answeredAt(old) > at ? undefined : at), "forgotten");
	}

	/** The remembered ban's reason, or undefined when none is remembered or the store failed. Yields. */
	recall(userId: number): string | undefined {
		this.counts.lookups += 1;
		let item: unknown;
		if (!this.call(() => (item = this.hashMap().GetAsync(banKey(userId))))) return undefined;
		// A tolerant reader: any table is a ban (a reason that is not text is shown as none); a lifted ban is a number.
		if (!typeIs(item, "table")) return undefined;
		const reason = (item as { reason?: unknown }).reason;
		return typeIs(reason, "string") ? reason : "";
	}

	/** One ordered write: `transform` answers the new item, or undefined to leave a newer one. */
	private write(userId: number, transform: (old: unknown) => unknown, count: "remembered" | "forgotten"): void {
		let written: unknown;
		const ok = this.call(() => {
			written = this.hashMap().UpdateAsync(banKey(userId), transform, REMEMBER_SECONDS);
		});
		if (!ok) return;
		if (written === undefined) this.counts.stale += 1;
		else this.counts[count] += 1;
	}

	private hashMap(): MemoryStoreHashMapLike {
		if (this.map === undefined) this.map = this.memory.GetHashMap(OUTAGE_BANS_MAP);
		return this.map;
	}

	/** Runs one MemoryStore call; true when it worked. One warning per server, then only counts. */
	private call(fn: () => void): boolean {
		const [ok, problem] = pcall(fn);
		if (ok) return true;
		this.counts.errors += 1;
		if (!this.warned) {
			this.warned = true;
			logWarn(
				`MemoryStore failed for remembered bans (${tostring(problem)}); bans still come from the service. ` +
					"Later failures are counted in diagnostics only",
			);
		}
		return false;
	}
}

/** What specs and monitoring read of the outage bans. @internal */
export interface OutageBansDiagnostics extends OutageBanCounts {
	/** Players kicked on a remembered ban while the service was unreachable. */
	readonly kicked: number;
}

/** Whether the service is unreachable now: no answer, a timeout, or a busy or failing service. */
function unreachable(status: StaffOpsStatus): boolean {
	return status.state === "degraded" && status.reason === "unreachable";
}

/**
 * Bans that hold through an outage. Each join answer updates the game's memory (banned: remembered; not banned:
 * forgotten). A player whose join is not answered while the service is unreachable is looked up once per visit, and
 * kicked if a ban is remembered and the service has still not answered for them: the service's answer always wins.
 * @internal
 */
export class OutageBansFeature implements Feature {
	readonly declaration = OUTAGE_BANS;
	readonly store: OutageBanStore;
	private kicked = 0;
	/** Players looked up in this visit (each at most once). */
	private readonly looked = new Set<Player>();

	constructor(
		private readonly ctx: ServerContext,
		private readonly joins: JoinsFeature,
	) {
		this.store = new OutageBanStore(ctx.seams.memoryStore ?? robloxMemoryStore);
	}

	private enabled(): boolean {
		return this.ctx.config.outageBans !== false && this.ctx.config.kickBanned;
	}

	start(): void {
		if (!this.enabled()) return;
		const ctx = this.ctx;
		this.joins.onAnswered((player, result) => this.answered(player.UserId, result));
		ctx.connect(
			ctx.signals.statusChanged.Connect((status) =>
				ctx.guard("outage bans", () => {
					if (ctx.stopped || !unreachable(status)) return;
					for (const player of ctx.players.GetPlayers()) this.lookUp(player);
				}),
			),
		);
	}

	joined(player: Player): void {
		if (this.enabled() && unreachable(this.ctx.status)) this.lookUp(player);
	}

	left(player: Player): void {
		this.looked.delete(player);
	}

	stop(): void {
		this.looked.clear();
	}

	/** Whether the service has not answered `player`'s join (no answer, not refused): only then memory may act. */
	private unanswered(player: Player): boolean {
		const record = this.joins.recordOf(player);
		return record !== undefined && record.phase !== "answered" && record.phase !== "refused";
	}

	private answered(userId: number, result: JoinResult): void {
		// MemoryStore yields: the join's own handling goes on meanwhile. The store takes the answer's time before its
		// first yield (task.spawn runs at once), so a write that lands late still carries when the service said it.
		task.spawn(() =>
			this.ctx.guard("outage bans", () => {
				if (result.banned) this.store.remember(userId, result.reason);
				else this.store.forget(userId);
			}),
		);
	}

	private lookUp(player: Player): void {
		if (this.looked.has(player) || !this.unanswered(player)) return;
		this.looked.add(player);
		task.spawn(() =>
			this.ctx.guard("outage bans", () => {
				const reason = this.store.recall(player.UserId);
				if (reason === undefined || this.ctx.stopped || player.Parent === undefined) return;
				// The service may have answered while the read was out: then its word stands.
				if (!this.unanswered(player)) return;
				this.kicked += 1;
				logInfo(`${playerLabel(player)} has a remembered ban and the service is unreachable`);
				kickBanned(this.ctx, player, reason, "banned (remembered while the service is unreachable)");
			}),
		);
	}

	diagnostics(): OutageBansDiagnostics {
		return { ...this.store.counts, kicked: this.kicked };
	}
}
