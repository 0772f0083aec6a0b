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
	lookups: number;
	errors: number;
}

/**
 * The game-wide store of remembered bans: one item per banned user, `{ reason, bannedAt }`, expiring after
 * {@link REMEMBER_SECONDS}. Every call yields and runs in `pcall`; a failure is counted and answers "not known".
 * @internal
 */
export class OutageBanStore {
	readonly counts: OutageBanCounts = { remembered: 0, forgotten: 0, lookups: 0, errors: 0 };
	private map?: MemoryStoreHashMapLike;
	private warned = false;

	constructor(private readonly memory: MemoryStoreLike = robloxMemoryStore) {}

	/** Remembers that the service reported `userId` banned for `reason`. Yields. */
	remember(userId: number, reason: string): void {
		const value = { reason: keptReason(reason), bannedAt: os.time() };
		if (this.call(() => this.hashMap().SetAsync(banKey(userId), value, REMEMBER_SECONDS)))
			this.counts.remembered += 1;
	}

	/** The service answered that `userId` is not banned: its word wins, the remembered ban goes. Yields. */
	forget(userId: number): void {
		if (this.call(() => this.hashMap().RemoveAsync(banKey(userId)))) this.counts.forgotten += 1;
	}

	/** The remembered ban's reason, or undefined when none is remembered or the store failed. Yields. */
	recall(userId: number): string | undefined {
		this.counts.lookups += 1;
		let item: unknown;
		if (!this.call(() => (item = this.hashMap().GetAsync(banKey(userId))))) return undefined;
		// A tolerant reader: any table is a ban; a reason that is not text is shown as none.
		if (!typeIs(item, "table")) return undefined;
		const reason = (item as { reason?: unknown }).reason;
		return typeIs(reason, "string") ? reason : "";
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
		// MemoryStore yields: the join's own handling goes on meanwhile.
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
