import type { Seed } from "./seed.js";
import { WorkspaceState } from "./workspace-state.js";

export const DEFAULT_FORGET_AFTER_SECONDS = 180;

/** All workspaces, keyed by their API key, plus the settings a reset returns to. */
export class Store {
	private workspacesByKey = new Map<string, WorkspaceState>();
	private seed: Seed;
	private readonly startupSeed: Seed;
	/** When the seed was (re)loaded: seed call messages become visible relative to it. */
	clockStartMs = 0;
	forgetAfterMs: number;

	constructor(
		seed: Seed,
		private readonly startupForgetAfterSeconds = DEFAULT_FORGET_AFTER_SECONDS,
	) {
		this.seed = seed;
		this.startupSeed = seed;
		this.forgetAfterMs = startupForgetAfterSeconds * 1000;
		this.reset();
	}

	/**
	 * Back to the startup seed, or to the one given, with message clocks restarted and the startup forget
	 * period. A bare reset never returns to a seed loaded by an earlier reset, so tests cannot leak into
	 * each other.
	 */
	reset(seed: Seed = this.startupSeed): void {
		this.seed = seed;
		this.clockStartMs = Date.now();
		this.forgetAfterMs = this.startupForgetAfterSeconds * 1000;
		this.workspacesByKey = new Map(seed.workspaces.map((w) => [w.key, new WorkspaceState(w, this.clockStartMs)]));
	}

	workspaceFor(key: string): WorkspaceState | undefined {
		return this.workspacesByKey.get(key);
	}

	workspaces(): WorkspaceState[] {
		return [...this.workspacesByKey.values()];
	}

	/** The key of the seed's first workspace, the one the CLI prints. */
	get primaryKey(): string {
		return this.seed.workspaces[0].key;
	}
}
