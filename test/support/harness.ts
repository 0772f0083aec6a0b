/**
 * The test harness, as specs see it: the fakes' controls that the Lune runner (lune/roblox/harness.luau)
 * puts in `_G.StaffOpsTest`. Functions marked `this: void` are called with `.`, the others with `:`.
 */

import type { MessagingLike } from "../../src/roblox/messaging";
import type { PlayersLike } from "../../src/roblox/players";

/** A fake client of one player: what it sends through remotes and what the server sent it. */
export interface FakeClient {
	/** Fires `remote` from this player's client (OnServerEvent gets the player, then the serialised values). */
	fire(remote: RemoteEvent, ...args: Array<unknown>): void;
	/** Every FireClient/FireAllClients this client received on `remote`, oldest first (`n` = argument count). */
	received(remote: RemoteEvent): Array<{ n: number } & Array<unknown>>;
	/** Connects to `remote`'s OnClientEvent on this client. */
	onEvent(remote: RemoteEvent, handler: (...args: Array<unknown>) => void): RBXScriptConnection;
}

/**
 * A client's device, as `readDeviceFacts` finds it. `preferredInput` and `displaySize` name items of
 * `Enum.PreferredInput` and `Enum.DisplaySize`; leave them out to model an engine without those members.
 */
export interface ClientDevice {
	touchEnabled?: boolean;
	keyboardEnabled?: boolean;
	mouseEnabled?: boolean;
	gamepadEnabled?: boolean;
	preferredInput?: "KeyboardAndMouse" | "Gamepad" | "Touch" | "MicroGamepad";
	displaySize?: "Small" | "Medium" | "Large";
	/** What the deprecated `GuiService:IsTenFootInterface()` answers. */
	tenFootInterface?: boolean;
	viewport?: { x: number; y: number };
	/** Minutes the client's clock is ahead of UTC (its timezone): `os.date("*t")` there reads it. */
	tzOffsetMinutes?: number;
	/**
	 * Seconds (real time) until the client has loaded: its scripts outside ReplicatedFirst start only then. Left
	 * out or 0: at once; `math.huge`: not until `finishLoading()`.
	 */
	loadSeconds?: number;
}

/** A phone (touch input, a small 390 × 844 display) whose clock is `tzOffsetMinutes` ahead of UTC. */
export function phoneAt(tzOffsetMinutes: number): ClientDevice {
	return {
		touchEnabled: true,
		preferredInput: "Touch",
		displaySize: "Small",
		viewport: { x: 390, y: 844 },
		tzOffsetMinutes,
	};
}

/**
 * A real client of the two-sided harness (lune/roblox/clients.luau): its own DataModel, globals and module cache,
 * with replicated copies of ReplicatedStorage, ReplicatedFirst, StarterGui and StarterPlayer, its own Player
 * (`Players.LocalPlayer`) with PlayerScripts, PlayerGui and Backpack, and a character. Its scripts run where Roblox
 * runs them. Functions are called with `.`.
 */
export interface HarnessClient {
	readonly userId: number;
	/** The client's DataModel: what `game` is for its scripts. */
	game: (this: void) => DataModel;
	/** The server's Player of this client. */
	player: (this: void) => Player;
	/** The client's own Player (`Players.LocalPlayer` in its scripts). */
	localPlayer: (this: void) => Player;
	/** Replicates now (instead of at the next frame) and starts or stops scripts accordingly. */
	sync: (this: void) => void;
	/** The character dies and respawns: PlayerGui is emptied (but for ResetOnSpawn-false ScreenGuis) and refilled. */
	respawn: (this: void) => void;
	/** How many characters this client has had. */
	spawns: (this: void) => number;
	/** Whether the client has loaded (its scripts outside ReplicatedFirst run only then). */
	loaded: (this: void) => boolean;
	/** Ends the client's load now: the scripts that waited for it start. */
	finishLoading: (this: void) => void;
	/** Requires a ModuleScript of the client's DataModel in the client's environment. */
	require: (this: void, module: ModuleScript) => unknown;
	/** Runs Luau source in the client's environment (as a script there would) and returns what it returns. */
	run: (this: void, source: string) => unknown;
	/** Full names of the scripts that started on this client, oldest first; a restarted script appears again. */
	started: (this: void) => Array<string>;
	/** What the client's scripts printed (`print`), warned (`warn`) or failed with (`error`), oldest first. */
	output: (this: void) => Array<{ kind: "print" | "warn" | "error"; text: string }>;
	/** The player leaves: the server Player is removed and the client's scripts stop. */
	leave: (this: void) => void;
	/** The player presses a key (default `W`): `UserInputService.InputBegan` fires with a keyboard InputObject. */
	press: (this: void, keyCode?: string) => void;
	/** The character walks (its Humanoid's `MoveDirection` points forward) or stands still. */
	walk: (this: void, moving: boolean) => void;
	/** The window loses (`false`: alt-tab) or regains (`true`) focus: `WindowFocusReleased` or `WindowFocused` fires. */
	focusWindow: (this: void, focused: boolean) => void;
}

/** Another server of the game in one simulation (`harness.universe.addServer`). */
export interface SimulatedServer {
	readonly id: string;
	/** Its players: pass as the `players` seam. */
	readonly players: PlayersLike;
	/** Its MessagingService: pass as the `messaging` seam. */
	readonly messaging: MessagingLike;
	/** A player joins this server: PlayerAdded fires on its `players`. */
	add: (this: void, userId: number, name?: string) => Player;
	/** The player leaves this server: PlayerRemoving fires, then the player is unparented. */
	remove: (this: void, player: Player) => void;
	/** Takes the server out of the universe; its players leave. */
	close: (this: void) => void;
}

/** One teleport the harness's TeleportService made. */
export interface HarnessTeleport {
	readonly userId: number;
	readonly name: string;
	readonly placeId: number;
	/** The `ServerInstanceId` asked for. */
	readonly asked: string;
	/** The JobId of the server the player landed in. */
	readonly jobId: string;
	/** Whether Roblox made that server for them (the one asked for had closed). */
	readonly created: boolean;
	/** What `TeleportOptions:SetTeleportData` gave. */
	readonly teleportData: unknown;
	/** The launch data the player joined with (it travels on). */
	readonly launchData?: string;
}

export interface Harness {
	/** Base URL of the reference Staff Operations Service the run started (loopback). */
	readonly serviceUrl: string;
	/** API key of the reference service's default workspace. */
	readonly serviceKey: string;
	/**
	 * Base URL of a small loopback server (scripts/probe-server.mjs), for specs of the fakes themselves:
	 * `/status/<code>`, `/slow/<ms>`, `/echo` (answers the method, headers and body it got).
	 */
	readonly probeUrl: string;
	/** How this run's signals run handlers (`STAFFOPS_SIGNAL_BEHAVIOR`): inline (`Immediate`) or deferred. */
	readonly signalBehavior: "Immediate" | "Deferred";
	/**
	 * STAFFOPS_RUNNER_SELFTEST ("" when unset): set only by scripts/test.mjs's check of the runner's time limits,
	 * for test/specs/harness/runnerSelfTest.spec.ts.
	 */
	readonly runnerSelfTest: string;
	readonly http: {
		/** Seconds before RequestAsync throws `HttpError: Timedout` (30 by default). */
		setTimeout: (this: void, seconds: number) => void;
		/**
		 * The words of the two refusals Roblox documents no text for (a Secret's wrong domain, the request limit):
		 * `harness` (the texts StaffOps reads, the default) or `other` (texts it cannot recognise).
		 */
		setErrorWording: (this: void, wording: "harness" | "other") => void;
		/** When false, RequestAsync throws `Http requests are not enabled`. */
		setEnabled: (this: void, enabled: boolean) => void;
		/** A per-minute cap past which RequestAsync throws `Number of requests exceeded limit` (none by default). */
		setRequestsPerMinuteCap: (this: void, cap: number | undefined) => void;
		/** How many requests RequestAsync has sent since the run began. */
		requestsSent: (this: void) => number;
		/**
		 * Defines a secret that `HttpService:GetSecret(name)` returns, for `domain` as set in the Secrets store:
		 * `*` (any host, the default), `*.example.com` (hosts under it) or a host.
		 */
		defineSecret: (this: void, name: string, value: string, domain?: string) => void;
		/** The `Timeout` field of the last RequestAsync call, or undefined when it had none. */
		lastTimeout: (this: void) => number | undefined;
	};
	readonly players: {
		/**
		 * Adds a player to the server; PlayerAdded fires (deferred). `launchData`: their `GetJoinData().LaunchData`,
		 * which reads `""` for the first `launchDataDelay` seconds (it arrives late).
		 */
		add: (this: void, userId: number, name?: string, launchData?: string, launchDataDelay?: number) => Player;
		/** The player leaves: PlayerRemoving fires, then the player is unparented. */
		remove: (this: void, player: Player) => void;
		/** The message the player was kicked with, or undefined. */
		kickMessage: (this: void, player: Player) => string | undefined;
		/** The player's fake client, for remote traffic. */
		client: (this: void, player: Player) => FakeClient;
		/** Gives a user one role of `rank` in a group (not a member when not set). */
		setRank: (this: void, userId: number, groupId: number, rank: number) => void;
		/**
		 * Gives a user several public roles in a group (by rank), and `notPublic` ones that GetRolesInGroupAsync leaves
		 * out (the user is a member all the same). The roles come shuffled, as Roblox promises no order.
		 */
		setRoles: (
			this: void,
			userId: number,
			groupId: number,
			ranks: Array<number>,
			notPublic?: Array<number>,
		) => void;
		/** Every role of a group, as GroupService:GetGroupInfoAsync lists them (a group without any is refused). */
		setGroupRoles: (this: void, groupId: number, roles: Array<{ Name: string; Rank: number }>) => void;
		/** GetGroupInfoAsync calls since the last reset. */
		groupInfoCalls: (this: void) => number;
		/** `as-set`: GetRolesInGroupAsync lists the roles in the order `setRoles` gave them (default `shuffled`). */
		setRoleOrder: (this: void, order: "shuffled" | "as-set") => void;
		/** false: GroupService has no GetRolesInGroupAsync (indexing it throws), as on an engine without it. */
		setRolesApi: (this: void, present: boolean) => void;
		/** The next `count` GetRolesInGroupAsync, GetRankInGroup or GetGroupInfoAsync reads throw, as Roblox's web call can fail. */
		failNextRankReads: (this: void, count: number) => void;
		/** Seconds of real time a rank read yields (0.02 by default). */
		setRankDelay: (this: void, seconds: number) => void;
		/** GetRolesInGroupAsync and GetRankInGroup calls since the last reset, cached ones included. */
		rankCalls: (this: void) => number;
	};
	readonly server: {
		/** Sets DataModel facts: JobId, PlaceId, GameId, PlaceVersion, PrivateServerId, PrivateServerOwnerId. */
		setInfo: (this: void, info: Partial<Record<string, unknown>>) => void;
		/** Whether RunService:IsStudio() answers true. */
		setStudio: (this: void, isStudio: boolean) => void;
		/**
		 * Shuts the server down: runs BindToClose callbacks in parallel (30 s at most) and removes every player still
		 * present, as Roblox does; Roblox does not document which comes first, so `order` picks one (default
		 * `callbacks-first`). Returns [seconds, allFinished].
		 */
		close: (this: void, order?: "callbacks-first" | "players-first") => LuaTuple<[number, boolean]>;
	};
	readonly text: {
		/** Words the TextService filter hashes out. */
		block: (this: void, words: Array<string>) => void;
		/** The next `count` FilterStringAsync calls throw. */
		failNextFilters: (this: void, count: number) => void;
		/** While on, FilterStringAsync calls never answer (a filter that is down); off lets them answer. */
		hangFilters: (this: void, on: boolean) => void;
		/** How many FilterStringAsync calls were made. */
		filterCalls: (this: void) => number;
		/** What TextChatService:CanUserChatAsync answers for a user (true by default). */
		setCanChat: (this: void, userId: number, allowed: boolean) => void;
	};
	/**
	 * TeleportService (lune/roblox/fakes/teleport.luau): `TeleportAsync` to a server by `ServerInstanceId` lands in a
	 * new public server when that one has closed, and fails (`TeleportInitFailed`) only when it is full.
	 */
	readonly teleport: {
		/** Whether a server of this place can be joined: `open`, `full`, or undefined (closed, the default). */
		setServer: (this: void, jobId: string, status: "open" | "full" | undefined) => void;
		/** Every teleport made (the player left this server), oldest first. */
		teleports: (this: void) => Array<HarnessTeleport>;
		/** Teleports that failed (TeleportInitFailed fired). */
		failures: (this: void) => number;
		/** The teleported player arrives in this `game`, which stands for the server they landed in. */
		arrive: (this: void, teleport: HarnessTeleport) => Player;
	};
	/**
	 * The universe this server belongs to (lune/roblox/fakes/universe.luau): MessagingService and MemoryStoreService,
	 * shared by every server of the game, with Roblox's documented limits.
	 */
	readonly universe: {
		/** Skips the universe's clock ahead by `seconds` (MemoryStore expiry, the per-minute windows). */
		advance: (this: void, seconds: number) => void;
		/** `count` other servers in the universe, without players: they count in the per-universe limits only. */
		setOtherServers: (this: void, count: number) => void;
		/** The next `count` published messages reach no one (delivery is best effort). */
		dropNextMessages: (this: void, count: number) => void;
		/** The next `count` published messages are delivered twice. */
		duplicateNextMessages: (this: void, count: number) => void;
		/**
		 * Seconds between a publish and its delivery to each server. `undefined` (the default after every reset) is
		 * Roblox's documented "typically within 1-2 seconds": 1 to 2 s per receiving server, from a seeded generator.
		 */
		setMessageDelay: (this: void, seconds?: number) => void;
		/**
		 * Which reading of the received-message limits is enforced (Roblox does not say whether a publish counts once
		 * or once per receiving server): `"both"` (the default after every reset: refused when either is over),
		 * `"once"` or `"perServer"`.
		 */
		setReceiveReading: (this: void, reading: "both" | "once" | "perServer") => void;
		/**
		 * Messages accepted, deliveries made (one per subscription reached), messages dropped, and subscriptions that
		 * ended because the script that made them was stopped, destroyed or disabled.
		 */
		messageCounts: (this: void) => { published: number; delivered: number; dropped: number; ownerEnded: number };
		/**
		 * This `game`'s server's subscriptions: held now, the most it may hold now (20 + 8 × players), subscribe
		 * requests in the last minute (refused ones included), and requests refused (by any server) since the reset.
		 */
		subscriptions: (this: void) => { held: number; limit: number; requests: number; refused: number };
		/**
		 * MemoryStore bytes in use, the game's quota (64 kB + 1.2 kB per user at the peak), the calls made, the request
		 * units charged (an UpdateAsync: 2 for each run of its transform) and the runs of UpdateAsync transforms.
		 */
		memoryUsage: (this: void) => {
			usedBytes: number;
			quotaBytes: number;
			requests: number;
			units: number;
			updateRuns: number;
		};
		/** Seconds between an UpdateAsync's read and its write (0 by default): a write landing between runs it again. */
		setMemoryUpdateDelay: (this: void, seconds: number) => void;
		/**
		 * Another server of the game in this simulation (`reset` closes it): give a StaffOps server its `players` and
		 * `messaging` as seams. It counts in the universe's limits like this `game`'s server.
		 */
		addServer: (this: void, id: string) => SimulatedServer;
	};
	/** Roblox's chat (lune/roblox/fakes/chat.luau): TextChatService or the legacy chat, the default chat bar. */
	readonly chat: {
		/** The place's chat system, as set in Studio (default `TextChatService`). */
		setVersion: (this: void, version: "TextChatService" | "LegacyChatService") => void;
		/**
		 * A player sends `text` from the default chat bar to `channel` (default RBXGeneral): under TextChatService the
		 * server calls the channel's ShouldDeliverCallback once per receiver; `Player.Chatted` fires under either
		 * version. Answers how many clients it was delivered to. A line whose first word is the alias of a
		 * TextChatCommand on the sender's client (or the server) fires that command's `Triggered` on the client
		 * instead, and reaches neither the channel nor `Chatted` (it answers 0).
		 */
		send: (this: void, player: Player, text: string, channel?: string) => number;
		/** Whether `Player.Chatted` fires under TextChatService too (default true; Roblox's reference does not say). */
		setChattedUnderTextChat: (this: void, fires: boolean) => void;
		/** The default chat bar of the player's client gains (true) or loses (false) focus (`IsFocused`). */
		focusChatBar: (this: void, player: Player, focused: boolean) => void;
		/** Messages sent, deliveries made, and ShouldDeliverCallback calls that yielded, since the last reset. */
		counts: (this: void) => {
			sent: number;
			deliveries: number;
			yieldingCallbacks: number;
			/** Lines that triggered a TextChatCommand instead of reaching the channel. */
			commandsTriggered: number;
		};
	};
	/** Real clients: the two-sided harness (lune/roblox/README.md). */
	readonly clients: {
		/** A player joins with a client: PlayerAdded fires on the server, then the client replicates and spawns. */
		join: (this: void, userId: number, name?: string, device?: ClientDevice) => HarnessClient;
		/** Gives a server Player added with `players.add` a client. */
		attach: (this: void, player: Player, device?: ClientDevice) => HarnessClient;
		/** The client of a server Player, if it has one. */
		of: (this: void, player: Player) => HarnessClient | undefined;
		/** Stops every client (`reset` does it too). */
		reset: (this: void) => void;
	};
	readonly gui: {
		/** Fires a TextButton's or ImageButton's `Activated` (deferred, without arguments), as a click or tap would. */
		activate: (this: void, button: GuiButton) => void;
	};
	/** Everything the code under test printed or warned, oldest first. */
	output: (this: void) => Array<{ kind: "print" | "warn"; text: string }>;
	clearOutput: (this: void) => void;
	/** Loads a model file and parents its instances under `parent`; returns the first one. */
	loadModel: (this: void, path: string, parent: Instance) => Instance;
	/**
	 * Runs a Script's source in its own thread, as Roblox starts a Script (Lune never does by itself);
	 * returns `[false, error]` when the body failed before it first yielded.
	 */
	runScript: (this: void, script: Script) => LuaTuple<[boolean, string | undefined]>;
	/** Puts every fake back to its first state. */
	reset: (this: void) => void;
	/**
	 * Records that the running spec waits for `what` until the returned function is called, so a spec that the
	 * runner stops at its file's time limit fails naming what it waited for (test/support/waits.ts uses it).
	 */
	waitingFor: (this: void, what: string) => () => void;
}

declare global {
	interface _G {
		StaffOpsTest: Harness;
	}
}

/** The harness of this test run. */
export const harness = _G.StaffOpsTest;
