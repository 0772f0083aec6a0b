// The join server feature: a player the dashboard's "join server" launched into a random server of the place is moved
// to the server they chose.
import { logInfo, playerLabel } from "../../background/log";
import { NOTIFICATIONS_REMOTE } from "../../shared/notifyProtocol";
import { robloxTeleport } from "../../roblox/teleport";
import { defaultIsStudio, readGameInfo } from "../seams";
import type { ServerContext } from "./context";
import type { Feature, FeatureDeclaration } from "./feature";

/**
 * Join server: no setting, remote or client part of its own (its one message rides the notifications' remote).
 * In the package's declarations for the config type; not an API.
 */
export const JOIN_SERVER: FeatureDeclaration = {
	name: "joinServer",
	settings: [],
	remotes: [],
	clientParts: [],
};

/** The launch data the dashboard's "join server" gives: this prefix, then the chosen server's JobId. */
const LAUNCH_PREFIX = "ReAdmin-";
/** Longest JobId taken: Roblox's are GUIDs (36 characters); launch data is at most 200 bytes anyway. */
const MAX_JOB_ID = 64;

/** What the player reads when they could not be moved. @internal */
export const JOIN_SERVER_FAILED =
	"We could not take you to the server you chose: it has closed or is full. You are in another server of this game.";

/**
 * The JobId named by launch data `ReAdmin-<jobId>` (docs/service-contract.md#join-server), or undefined for other
 * launch data or a JobId that cannot be one (empty, too long, characters a GUID has not).
 * @internal
 */
export function chosenJobId(launchData: unknown): string | undefined {
	if (!typeIs(launchData, "string") || launchData.sub(1, LAUNCH_PREFIX.size()) !== LAUNCH_PREFIX) return undefined;
	const jobId = launchData.sub(LAUNCH_PREFIX.size() + 1);
	if (jobId.size() === 0 || jobId.size() > MAX_JOB_ID || string.match(jobId, "^[%w%-]+$")[0] === undefined) {
		return undefined;
	}
	return jobId;
}

/** What specs and monitoring read of join server. @internal */
export interface JoinServerDiagnostics {
	/** Teleports started. */
	readonly teleports: number;
	/** Teleports that failed; the player was told each time. */
	readonly failed: number;
	/** `ReAdmin-` launch data not acted on: this server's own JobId, a malformed one, or a Studio playtest. */
	readonly ignored: number;
}

/**
 * Join server: a player whose join data's `LaunchData` is `ReAdmin-<jobId>` (the dashboard's "join server") is
 * teleported to that server of this place, whoever they are, as the official module does: launch data is the
 * player's own to write, but the teleport gains a forger nothing Roblox's own join links do not
 * (docs/roblox.md#launch-data-is-the-players-own). When the teleport fails (the server closed or is full) the player
 * stays and is told.
 * @internal
 */
export class JoinServerFeature implements Feature {
	readonly declaration = JOIN_SERVER;
	private readonly counts = { teleports: 0, failed: 0, ignored: 0 };
	/** Players whose teleport started and has not failed: a later TeleportInitFailed is theirs. */
	private readonly moving = new Set<Player>();
	private failures?: { Disconnect(): void };

	constructor(private readonly ctx: ServerContext) {}

	joined(player: Player): void {
		const [ok, joinData] = pcall(() => player.GetJoinData());
		const launchData = ok && typeIs(joinData, "table") ? joinData.LaunchData : undefined;
		if (!typeIs(launchData, "string") || launchData.sub(1, LAUNCH_PREFIX.size()) !== LAUNCH_PREFIX) return;
		const jobId = chosenJobId(launchData);
		const here = (this.ctx.seams.gameInfo ?? readGameInfo)();
		// Already there, a JobId no server has, or Studio, where teleports do not work (docs/roblox.md#teleporting-to-a-server).
		if (jobId === undefined || jobId === here.jobId || (this.ctx.seams.isStudio ?? defaultIsStudio)()) {
			this.counts.ignored += 1;
			return;
		}
		this.teleport(player, here.placeId, jobId);
	}

	left(player: Player): void {
		this.moving.delete(player);
	}

	stop(): void {
		this.failures?.Disconnect();
		this.failures = undefined;
		this.moving.clear();
	}

	diagnostics(): JoinServerDiagnostics {
		return { ...this.counts };
	}

	private teleport(player: Player, placeId: number, jobId: string): void {
		const teleporter = this.ctx.seams.teleport ?? robloxTeleport;
		if (this.failures === undefined) {
			// Connected on the first teleport only: a server nobody is moved from never touches TeleportService.
			const [ok, connection] = pcall(() => teleporter.onFailed((failed) => this.fail(failed)));
			if (ok) this.failures = connection;
		}
		this.counts.teleports += 1;
		this.moving.add(player);
		logInfo(`moving ${playerLabel(player)} to the server the dashboard's "join server" chose`);
		task.spawn(() => {
			const [ok] = pcall(() => teleporter.toServer(player, placeId, jobId));
			if (!ok) this.fail(player);
		});
	}

	/** A teleport of ours failed: the player stays here, and is told (the built-in notification, and `notified`). */
	private fail(player: Player): void {
		if (!this.moving.delete(player)) return;
		this.counts.failed += 1;
		logInfo(`could not move ${playerLabel(player)} to the chosen server (closed or full); they stay here`);
		if (player.Parent === undefined) return;
		const remote = this.ctx.config.builtInNotifications ? this.ctx.remotes?.[NOTIFICATIONS_REMOTE] : undefined;
		if (remote !== undefined) pcall(() => remote.FireClient(player, JOIN_SERVER_FAILED));
		this.ctx.signals.notified.Fire(player, JOIN_SERVER_FAILED);
	}
}
