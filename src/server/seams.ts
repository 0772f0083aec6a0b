import { HttpService, RunService } from "@rbxts/services";
import type { CreateServerArgs } from "../api/resources/activity";
import type { StaffOpsApiClient } from "../api/apiClient";
import type { Scheduler } from "../transport/scheduler";
import type { TransportSeams } from "../transport/transport";
import { canUserChat } from "../roblox/chatPermission";
import type { MemoryStoreLike } from "../roblox/memoryStore";
import type { MessagingLike } from "../roblox/messaging";
import { PlayersLike, robloxPlayers } from "../roblox/players";
import type { TextFilter } from "../roblox/textFilter";
import type { ServerTeleport } from "../roblox/teleport";
import { chatLines } from "../roblox/chatSource";

/**
 * The Roblox seams of the game integration; each defaults to the real service (a feature's own, such as staff
 * activity's `emitSessionEvent`, are added from its folder). Specs pass fakes (a clock that moves
 * by hand, a client with its own budget, ...); games pass nothing.
 *
 * @example
 * ```ts
 * StaffOps.start(config, { scheduler: fakeClock });
 * ```
 * @see README#testing
 */
export interface ServerSeams {
	/** Default `Players`. */
	readonly players?: PlayersLike;
	/** Default `MessagingService`: cross-server delivery (README#many-servers); each simulated server passes its own. */
	readonly messaging?: MessagingLike;
	/** The clock of heartbeats, backoff and the client-report wait; default `os.clock` + `task.delay`. */
	readonly scheduler?: Scheduler;
	/** Uniform draws in [0, 1) for backoff jitter; default `math.random`. */
	readonly random?: () => number;
	/** Seams of the api client built from the configuration. */
	readonly transport?: TransportSeams;
	/** A ready api client to use instead of building one from the configuration. */
	readonly client?: StaffOpsApiClient;
	/** The server's facts for registration; default read from `game` (docs/service-contract.md#createserver-body). */
	readonly gameInfo?: () => CreateServerArgs;
	/** Whether a player may chat freely; may yield or throw (then safechat is reported as on). Default `TextChatService:CanUserChatAsync`. */
	readonly canChat?: (player: Player) => boolean;
	/** A player's rank in a group, for the staff hint; may yield or throw. Default: the highest rank among the roles `GroupService:GetRolesInGroupAsync` reads. */
	readonly rankOf?: (player: Player, groupId: number) => number;
	/** Registers the shutdown callback; default `game:BindToClose`. */
	readonly bindToClose?: (callback: () => void) => void;
	/** Whether this is a Studio playtest; default `RunService:IsStudio()` or an empty `JobId`. */
	readonly isStudio?: () => boolean;
	/**
	 * Filters every text from outside the game shown to a player (ban reasons, dashboard texts, command results,
	 * support-call messages), each with a deadline; default Roblox's `TextService` filter.
	 */
	readonly textFilter?: TextFilter;
	/** The game's shared memory, for bans that hold through an outage; default `MemoryStoreService`. */
	readonly memoryStore?: MemoryStoreLike;
	/** Moves a player to another server (join server); default TeleportService (`TeleportAsync`, `TeleportInitFailed`). */
	readonly teleport?: ServerTeleport;
	/** Where the remotes folder lives; default `ReplicatedStorage`. */
	readonly remotesParent?: Instance;
	/** The current registration's raw answer, for its `afkReportingSettings`; default: none (the defaults apply). */
	readonly registrationAnswer?: () => unknown;
	/** Connects to a player's chat messages (chat logging); default `chatLines` (TextChatService, or `Player.Chatted` under the legacy chat). */
	readonly chatted?: (player: Player, handler: (message: string) => void) => RBXScriptConnection;
	/**
	 * How warnings name each setting, by field (`baseUrl` -> `attribute BaseUrl`): the drop-in model passes the
	 * attributes it read, so a warning names what the user edited. Default: `config.<field>`.
	 */
	readonly settingNames?: Readonly<Record<string, string>>;
	/** Where `deliverClient` puts things; defaults: this model, `ReplicatedStorage`. */
	readonly delivery?: {
		readonly modelRoot?: Instance;
		readonly replicated?: Instance;
		/** Unused: the loader runs from `replicated`; kept so callers need not change. */
		readonly starterPlayerScripts?: Instance;
	};
}

let studioJobId: string | undefined;

/**
 * The jobId this server registers with: `game.JobId`, or in Studio, where it is empty, `studio-` and a GUID made once
 * per session (the deployed service refuses an empty jobId with a 400).
 * @internal
 */
export function registeredJobId(): string {
	if (game.JobId !== "") return game.JobId;
	if (studioJobId === undefined) studioJobId = `studio-${HttpService.GenerateGUID(false)}`;
	return studioJobId;
}

/** The server's facts, as docs/service-contract.md#createserver-body says they are sent. @internal */
export function readGameInfo(): CreateServerArgs {
	return {
		gameId: game.GameId,
		placeId: game.PlaceId,
		jobId: registeredJobId(),
		privateServerId: game.PrivateServerId,
		privateServerOwnerId: game.PrivateServerOwnerId,
		placeVersion: tostring(game.PlaceVersion),
	};
}

/** @internal */
export function defaultIsStudio(): boolean {
	return RunService.IsStudio() || game.JobId === "";
}

/** @internal */
export const defaultCanChat = canUserChat;

/** @internal */
export function defaultBindToClose(callback: () => void): void {
	game.BindToClose(callback);
}

/** @internal */
export const defaultPlayers = robloxPlayers;

/** @internal */
export const defaultChatted = chatLines;
