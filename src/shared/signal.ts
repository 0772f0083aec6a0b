/**
 * A connection to a {@link Signal}; `Disconnect()` stops further calls.
 *
 * @example
 * ```ts
 * const connection = StaffOps.staffJoined.Connect((player) => print(player.Name));
 * connection.Disconnect();
 * ```
 */
export interface SignalConnection {
	/** Whether the handler is still connected. */
	readonly Connected: boolean;
	/** Stops calling the handler. */
	Disconnect(): void;
}

/**
 * A small event that game code connects to, shaped like Roblox's RBXScriptSignal. Each handler runs in
 * its own thread (`task.spawn`), so a handler that errors or yields cannot stop the library or the other
 * handlers.
 *
 * @example
 * ```ts
 * const changed = new Signal<[player: Player, isStaff: boolean]>();
 * changed.Connect((player, isStaff) => print(player.Name, isStaff));
 * changed.Fire(player, true);
 * ```
 */
export class Signal<T extends Array<unknown>> {
	private readonly handlers = new Array<{ handler: (...args: T) => void; connection: { Connected: boolean } }>();

	/** Calls `handler` every time the signal fires, until disconnected. */
	Connect(handler: (...args: T) => void): SignalConnection {
		const handlers = this.handlers;
		const connection = {
			Connected: true,
			Disconnect() {
				connection.Connected = false;
				const index = handlers.findIndex((entry) => entry.connection === connection);
				if (index >= 0) handlers.remove(index);
			},
		};
		handlers.push({ handler, connection });
		return connection;
	}

	/** Calls `handler` the next time the signal fires, once. */
	Once(handler: (...args: T) => void): SignalConnection {
		const connection = this.Connect((...args) => {
			connection.Disconnect();
			handler(...args);
		});
		return connection;
	}

	/**
	 * Yields the current thread until the signal fires; returns the values it fired with, as separate values like
	 * `RBXScriptSignal:Wait()` (Luau: `local player, result = signal:Wait()`; TypeScript: `const [player] = ...`).
	 */
	// Multiple returns are the point here: Luau callers get the values as RBXScriptSignal:Wait gives them.
	// eslint-disable-next-line roblox-ts/no-user-defined-lua-tuple
	Wait(): LuaTuple<T> {
		const thread = coroutine.running();
		this.Once((...args) => task.spawn(thread, ...args));
		// eslint-disable-next-line roblox-ts/no-user-defined-lua-tuple
		return coroutine.yield() as unknown as LuaTuple<T>;
	}

	/** Calls every connected handler, each in its own thread. @internal */
	Fire(...args: T): void {
		for (const entry of [...this.handlers]) {
			if (entry.connection.Connected) task.spawn(entry.handler, ...args);
		}
	}

	/** Disconnects every handler. @internal */
	DisconnectAll(): void {
		for (const entry of [...this.handlers]) entry.connection.Connected = false;
		this.handlers.clear();
	}
}
