import { type ProfileName, type Settings, defaultForgetAfterSeconds } from "./profiles/profile.js";
import type { RankCall } from "./profiles/deployed-ranking.js";
import type { Seed } from "./seed.js";
import { WorkspaceState } from "./workspace-state.js";

/** All workspaces, keyed by their API key, plus the settings a reset returns to. */
export class Store {
	private workspacesByKey = new Map<string, WorkspaceState>();
	private seed: Seed;
	private readonly startupSeed: Seed;
	/** When the seed was (re)loaded: seed call messages become visible relative to it. */
	clockStartMs = 0;
	forgetAfterMs = 0;
	profile: ProfileName;
	privacy = false;
	/** Every ranking request since the last reset, accepted or not (it may carry no workspace's key). */
	rankCalls: RankCall[] = [];

	/**
	 * `startupForgetAfterSeconds` undefined means "the profile's own default", so switching profile on a reset
	 * also switches the silence limit unless one was given explicitly at startup.
	 */
	constructor(
		seed: Seed,
		private readonly startupForgetAfterSeconds?: number,
		private readonly startupProfile: ProfileName = "default",
	) {
		this.seed = seed;
		this.startupSeed = seed;
		this.profile = startupProfile;
		this.reset();
	}

	/**
	 * Back to the startup seed and profile, or to the ones given, with message clocks restarted, the startup
	 * (or profile's) silence limit and privacy off. A bare reset never returns to a seed or profile chosen by
	 * an earlier reset, so tests cannot leak into each other.
	 */
	reset(seed: Seed = this.startupSeed, profile: ProfileName = this.startupProfile): void {
		this.seed = seed;
		this.profile = profile;
		this.privacy = false;
		this.rankCalls = [];
		this.clockStartMs = Date.now();
		this.forgetAfterMs = (this.startupForgetAfterSeconds ?? defaultForgetAfterSeconds(profile)) * 1000;
		this.workspacesByKey = new Map(seed.workspaces.map((w) => [w.key, new WorkspaceState(w, this.clockStartMs)]));
	}

	settings(): Settings {
		return { profile: this.profile, privacy: this.privacy, forgetAfterMs: this.forgetAfterMs };
	}

	workspaceFor(key: string): WorkspaceState | undefined {
		return this.workspacesByKey.get(key);
	}

	/** The workspace that was given this ranking key; a loader-id key is never one. */
	workspaceForRankingKey(key: string): WorkspaceState | undefined {
		return this.workspaces().find((ws) => ws.rankingKeys.has(key));
	}

	workspaces(): WorkspaceState[] {
		return [...this.workspacesByKey.values()];
	}

	/** The key of the seed's first workspace, the one the CLI prints. */
	get primaryKey(): string {
		return this.seed.workspaces[0].key;
	}
}
