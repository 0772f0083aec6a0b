// The join server feature: a player the dashboard's "join server" launched into a random server of the place is moved
// to the server they chose.
import { logInfo, playerLabel } from "../../../background/log";
import { NOTIFICATIONS_REMOTE } from "../../../shared/notifyProtocol";
import { robloxTeleport } from "../../../roblox/teleport";
import { defaultIsStudio, readGameInfo } from "../../seams";
import type { ServerContext } from "../../context";
import type { Feature, FeatureDeclaration } from "../../feature";

/**
 * Join server: no setting, remote or client part of its own (its one message rides the notifications' remote).
 * In the package's declarations for the config type; not an API.
 */
export const JOIN_SERVER: FeatureDeclaration<{}, "joinServer"> = {
	name: "joinServer",
	settings: [],
	remotes: [],
	clientParts: [],
};

/** The launch data the dashboard's "join server" gives: this prefix, then the chosen server's JobId. */
const LAUNCH_PREFIX = "ReAdmin-";
/** Longest JobId taken: Roblox's are GUIDs (36 characters); launch data is at most 200 bytes anyway. */
const MAX_JOB_ID = 64;

/** What the player reads when they could not be moved (the server is full, or the teleport could not start). @internal */
export const JOIN_SERVER_FAILED =
	"We could not take you to the server you chose: it is full. You are in another server of this game.";

/** What the player reads when the server they chose had closed and Roblox sent them to a new one. @internal */
export const JOIN_SERVER_CLOSED =
	"The server you chose had closed, so Roblox sent you to a new server of this game instead.";

/** The key of StaffOps' own teleport data: the JobId the staff member asked for. */
const TELEPORT_KEY = "StaffOpsJoinServer";
/** How long launch data is waited for while it reads `""`, and how often it is read again (Roblox's own sample). */
const LAUNCH_DATA_WAIT_SECONDS = 10;
const LAUNCH_DATA_POLL_SECONDS = 1;

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

/** The join data fields join server reads, or undefined when GetJoinData failed. */
function readJoinData(
	player: Player,
): { LaunchData?: unknown; TeleportData?: unknown; SourcePlaceId?: unknown } | undefined {
	const [ok, joinData] = pcall(() => player.GetJoinData());
	return ok && typeIs(joinData, "table") ? (joinData as never) : undefined;
}

/** What specs and monitoring read of join server. @internal */
export interface JoinServerDiagnostics {
	/** Teleports started. */
	readonly teleports: number;
	/** Teleports that failed; the player was told each time. */
	readonly failed: number;
	/** `ReAdmin-` launch data not acted on: this server's own JobId, a malformed one, or a Studio playtest. */
	readonly ignored: number;
	/** Players who arrived by a teleport of ours: in the server they chose, or in a new one (`landedElsewhere`). */
	readonly arrived: number;
	/** Players who arrived by a teleport of ours in another server than the one they chose (it had closed). */
	readonly landedElsewhere: number;
}

/**
 * Join server: a player whose join data's `LaunchData` is `ReAdmin-<jobId>` (the dashboard's "join server") is
 * teleported to that server of this place, whoever they are, as the official module does: launch data is the
 * player's own to write, but the teleport gains a forger nothing Roblox's own join links do not
 * (docs/roblox.md#launch-data-is-the-players-own). Launch data can arrive late, so it is read again each second for
 * up to 10 s while it is `""`, as Roblox's own sample does. When the chosen server has closed Roblox sends the player
 * to a new server instead of failing (docs/roblox.md#teleporting-to-a-server): the teleport carries the JobId asked
 * for, and the server they land in tells them when it is not that one. A player who arrived by teleport is never
 * moved again by their launch data. When the teleport fails (the server is full) the player stays and is told.
 * @internal
 */
export class JoinServerFeature implements Feature {
	readonly declaration = JOIN_SERVER;
	private readonly counts = { teleports: 0, failed: 0, ignored: 0, arrived: 0, landedElsewhere: 0 };
	/** Players whose teleport started and has not failed: a later TeleportInitFailed is theirs. */
	private readonly moving = new Set<Player>();
	private failures?: { Disconnect(): void };

	constructor(private readonly ctx: ServerContext) {}

	joined(player: Player): void {
		const joinData = readJoinData(player);
		if (joinData === undefined) return;
		// A player who came by teleport (ours, or any server's) has already been moved: their launch data, which
		// may travel with them, is not acted on again.
		if (joinData.TeleportData !== undefined || joinData.SourcePlaceId !== undefined) {
			this.arrivedByTeleport(player, joinData.TeleportData);
			return;
		}
		this.readLaunchData(player, joinData.LaunchData, 0);
	}

	/** Acts on launch data once it is there: read again each second while it is `""`, for at most 10 s. */
	private readLaunchData(player: Player, launchData: unknown, waited: number): void {
		if (launchData === "" && waited < LAUNCH_DATA_WAIT_SECONDS) {
			this.ctx.scheduler.delay(LAUNCH_DATA_POLL_SECONDS, () => {
				if (this.ctx.stopped || player.Parent === undefined) return;
				this.ctx.guard("join server", () =>
					this.readLaunchData(player, readJoinData(player)?.LaunchData, waited + LAUNCH_DATA_POLL_SECONDS),
				);
			});
			return;
		}
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

	/**
	 * A player who arrived by teleport: when it was ours and this is not the server they chose, that one had closed and
	 * Roblox made this one for them; they are told. Teleport data passes through the player's device, so a forger
	 * only earns themselves this message.
	 */
	private arrivedByTeleport(player: Player, teleportData: unknown): void {
		const named = typeIs(teleportData, "table")
			? (teleportData as Record<string, unknown>)[TELEPORT_KEY]
			: undefined;
		const asked = typeIs(named, "string") ? chosenJobId(`${LAUNCH_PREFIX}${named}`) : undefined;
		if (asked === undefined) return;
		this.counts.arrived += 1;
		if (asked === (this.ctx.seams.gameInfo ?? readGameInfo)().jobId) return;
		this.counts.landedElsewhere += 1;
		logInfo(`${playerLabel(player)} chose a server that had closed; Roblox sent them to this new one`);
		this.tell(player, JOIN_SERVER_CLOSED);
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
			const [ok] = pcall(() => teleporter.toServer(player, placeId, jobId, { [TELEPORT_KEY]: jobId }));
			if (!ok) this.fail(player);
		});
	}

	/** A teleport of ours failed: the player stays here, and is told (the built-in notification, and `notified`). */
	private fail(player: Player): void {
		if (!this.moving.delete(player)) return;
		this.counts.failed += 1;
		logInfo(`could not move ${playerLabel(player)} to the chosen server (full); they stay here`);
		this.tell(player, JOIN_SERVER_FAILED);
	}

	/** Tells the player (the built-in notification, and `notified`). */
	private tell(player: Player, text: string): void {
		if (player.Parent === undefined) return;
		const remote = this.ctx.config.builtInNotifications ? this.ctx.remotes?.[NOTIFICATIONS_REMOTE] : undefined;
		if (remote !== undefined) pcall(() => remote.FireClient(player, text));
		this.ctx.signals.notified.Fire(player, text);
	}
}
