import { backgroundWait, reactionTo } from "../api/failurePolicy";
import type { RunningGameAnswer, RunningPlayer } from "../api/resources/games";
import type { Scheduler } from "../transport/scheduler";

/** One user a running game's answer lists, with their running-player entry when the list has one. @internal */
export interface Listed {
	readonly listed: true;
	readonly entry?: RunningPlayer;
}

/**
 * The users a running game's answer lists, by user id: those of `players` (the first entry of a user wins) and
 * those of `runningGame.players`, a user in both with their entry. Undefined when the answer lists nobody at all:
 * a missing list says nothing about who is there.
 * @internal
 */
export function listedUsers(answer: RunningGameAnswer): ReadonlyMap<string, Listed> | undefined {
	const players = answer.players;
	const ids = answer.runningGame?.players;
	if (players === undefined && ids === undefined) return undefined;
	const listed = new Map<string, Listed>();
	for (const entry of players ?? []) {
		const userId = entry.userId;
		if (userId !== undefined && !listed.has(userId)) listed.set(userId, { listed: true, entry });
	}
	for (const id of ids ?? []) if (!listed.has(id)) listed.set(id, { listed: true });
	return listed;
}

/** What the lookup needs from the integration. @internal */
export interface JoinLookupSeams {
	readonly scheduler: Scheduler;
	readonly random: () => number;
	/** Reads the running game; undefined when the server is not registered now. */
	readonly read: () => Promise<RunningGameAnswer> | undefined;
	/** The users whose join outcome is unknown now. */
	readonly pending: () => ReadonlyArray<number>;
	/** Settles one user's join from the list. */
	readonly settle: (userId: number, listing: { listed: true; entry?: RunningPlayer } | { listed: false }) => void;
	/** The service no longer knows the server (404). */
	readonly forgotten: () => void;
	/** The read failed for another reason (logged once by the caller). */
	readonly failed: (err: unknown) => void;
}

/**
 * Joins whose outcome is unknown (a timeout or a dropped connection after sending, a 500/502/504) are not sent
 * again blindly: on the deployed service every join opens a new session. One read of the running game's player
 * list answers for every such join at once: a listed player's join went through; an absent one is sent again. The
 * read waits a little first, so a join the service is still working on has time to land.
 * @internal
 */
export class JoinLookup {
	private scheduled = false;
	private inFlight = false;
	private failures = 0;
	private lastError: unknown;
	private stopped = false;

	constructor(private readonly host: JoinLookupSeams) {}

	/** Asks for a read soon (one for every join waiting). */
	request(): void {
		if (this.stopped || this.scheduled || this.inFlight) return;
		this.scheduled = true;
		this.host.scheduler.delay(backgroundWait(this.failures + 1, this.host.random, this.lastError), () => {
			this.scheduled = false;
			this.run();
		});
	}

	/** Stops: no more reads. */
	stop(): void {
		this.stopped = true;
	}

	private run(): void {
		if (this.stopped || this.host.pending().size() === 0) return;
		const read = this.host.read();
		if (read === undefined) return;
		this.inFlight = true;
		read.then(
			(answer) => {
				this.inFlight = false;
				if (this.stopped) return;
				const listed = listedUsers(answer);
				let unknown = 0;
				for (const userId of this.host.pending()) {
					if (listed === undefined) unknown += 1;
					else this.host.settle(userId, listed.get(tostring(userId)) ?? { listed: false });
				}
				if (unknown > 0) {
					this.failures += 1;
					this.request();
				} else {
					this.failures = 0;
					this.lastError = undefined;
				}
			},
			(err: unknown) => {
				this.inFlight = false;
				if (this.stopped) return;
				if (reactionTo("getRunningGame", err) === "forgotten") {
					this.host.forgotten();
					return;
				}
				this.failures += 1;
				this.lastError = err;
				this.host.failed(err);
				this.request();
			},
		);
	}
}
