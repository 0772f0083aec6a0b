const parts = new Array<{ resetForTests(): void }>();

/**
 * The one way a client part starts (the report, the support chat, notifications, the consent prompt, staff activity,
 * the "Call staff" entry): once per client, whoever calls it (the drop-in model's loader, a game's own client code,
 * a starter copy and its original). Its windows keep `ResetOnSpawn` off and the loader is not reset by a respawn, so
 * a started part survives respawns. A start that found nothing to start on (no remotes, no player) may be tried
 * again; a second call while the first runs or after it answers `again` without starting anything.
 *
 * @example
 * ```ts
 * const part = new ClientPart((): [started: boolean, result: boolean] => [true, mount()], () => false);
 * export const startMyPart = () => part.start();
 * ```
 * @internal
 */
export class ClientPart<A extends Array<unknown>, R> {
	private state: "idle" | "starting" | "started" = "idle";

	/**
	 * @param begin starts the part: whether it started (false: a later call may try again) and what to answer
	 * @param again what a call answers while the part is starting or started
	 * @param reset what else a spec's reset puts back (a shared client, a flag)
	 */
	constructor(
		private readonly begin: (...args: A) => [started: boolean, result: R],
		private readonly again: () => R,
		private readonly reset?: () => void,
	) {
		parts.push(this);
	}

	/** Starts the part unless it is starting or started; see {@link ClientPart}. */
	start(...args: A): R {
		if (this.state !== "idle") return this.again();
		this.state = "starting";
		const [started, result] = this.begin(...args);
		this.state = started ? "started" : "idle";
		return result;
	}

	/** Lets specs start the part again. */
	resetForTests(): void {
		this.state = "idle";
		this.reset?.();
	}
}

/** Lets specs start every client part again. @internal */
export function resetClientPartsForTests(): void {
	for (const part of parts) part.resetForTests();
}
