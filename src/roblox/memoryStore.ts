import { MemoryStoreService } from "@rbxts/services";

/**
 * The part of a `MemoryStoreHashMap` StaffOps uses (docs/roblox.md#memorystoreservice): every call yields and may
 * throw (throttling, a full quota, an engine outage), so StaffOps calls each in `pcall`.
 * @internal
 */
export interface MemoryStoreHashMapLike {
	GetAsync(key: string): unknown;
	SetAsync(key: string, value: unknown, expiration: number): boolean;
	/**
	 * Reads the item, calls `transform` with it (undefined when absent) and stores what it answers, or nothing when it
	 * answers undefined; answers the stored value or undefined. Roblox calls `transform` again when the item changed
	 * meanwhile, so it must not have side effects (docs/roblox.md#memorystoreservice).
	 */
	UpdateAsync(key: string, transform: (old: unknown) => unknown, expiration: number): unknown;
	RemoveAsync(key: string): void;
}

/**
 * The part of `MemoryStoreService` StaffOps uses: a hash map shared by every server of the game. Specs pass a fake
 * of it; the real one is {@link robloxMemoryStore}.
 *
 * @example
 * ```ts
 * const memory: MemoryStoreLike = MemoryStoreService;
 * ```
 * @see docs/many-servers.md#bans-that-hold-through-an-outage
 */
export interface MemoryStoreLike {
	GetHashMap(name: string): MemoryStoreHashMapLike;
}

/** Roblox's own `MemoryStoreService`. @internal */
export const robloxMemoryStore: MemoryStoreLike = MemoryStoreService as unknown as MemoryStoreLike;
