/**
 * The test harness, as specs see it: the fakes' controls that the Lune runner (test/runner/harness.luau)
 * puts in `_G.StaffOpsTest`. Functions marked `this: void` are called with `.`, the others with `:`.
 */

/** A fake client of one player: what it sends through remotes and what the server sent it. */
export interface FakeClient {
	/** Fires `remote` from this player's client (OnServerEvent gets the player, then the serialised values). */
	fire(remote: RemoteEvent, ...args: Array<unknown>): void;
	/** Every FireClient/FireAllClients this client received on `remote`, oldest first (`n` = argument count). */
	received(remote: RemoteEvent): Array<{ n: number } & Array<unknown>>;
	/** Connects to `remote`'s OnClientEvent on this client. */
	onEvent(remote: RemoteEvent, handler: (...args: Array<unknown>) => void): RBXScriptConnection;
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
	readonly http: {
		/** Seconds before RequestAsync throws `HttpError: Timedout` (30 by default). */
		setTimeout: (this: void, seconds: number) => void;
		/** When false, RequestAsync throws `Http requests are not enabled`. */
		setEnabled: (this: void, enabled: boolean) => void;
		/** A per-minute cap past which RequestAsync throws `Number of requests exceeded limit` (none by default). */
		setRequestsPerMinuteCap: (this: void, cap: number | undefined) => void;
		/** How many requests RequestAsync has sent since the run began. */
		requestsSent: (this: void) => number;
		/** Defines a secret that `HttpService:GetSecret(name)` returns. */
		defineSecret: (this: void, name: string, value: string) => void;
	};
	readonly players: {
		/** Adds a player to the server; PlayerAdded fires (deferred). */
		add: (this: void, userId: number, name?: string) => Player;
		/** The player leaves: PlayerRemoving fires, then the player is unparented. */
		remove: (this: void, player: Player) => void;
		/** The message the player was kicked with, or undefined. */
		kickMessage: (this: void, player: Player) => string | undefined;
		/** The player's fake client, for remote traffic. */
		client: (this: void, player: Player) => FakeClient;
	};
	readonly server: {
		/** Sets DataModel facts: JobId, PlaceId, GameId, PlaceVersion, PrivateServerId, PrivateServerOwnerId. */
		setInfo: (this: void, info: Partial<Record<string, unknown>>) => void;
		/** Whether RunService:IsStudio() answers true. */
		setStudio: (this: void, isStudio: boolean) => void;
		/** Shuts the server down: runs BindToClose callbacks in parallel (30 s at most); returns [seconds, allFinished]. */
		close: (this: void) => LuaTuple<[number, boolean]>;
	};
	readonly text: {
		/** Words the TextService filter hashes out. */
		block: (this: void, words: Array<string>) => void;
		/** The next `count` FilterStringAsync calls throw. */
		failNextFilters: (this: void, count: number) => void;
		/** How many FilterStringAsync calls were made. */
		filterCalls: (this: void) => number;
		/** What TextChatService:CanUserChatAsync answers for a user (true by default). */
		setCanChat: (this: void, userId: number, allowed: boolean) => void;
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
}

declare global {
	interface _G {
		StaffOpsTest: Harness;
	}
}

/** The harness of this test run. */
export const harness = _G.StaffOpsTest;
