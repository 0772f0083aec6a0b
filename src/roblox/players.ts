import { Players } from "@rbxts/services";

/**
 * The part of `Players` StaffOps uses: who is in the server, who comes and goes, and a player by UserId. Game code
 * passes a fake of it in specs; the real one is {@link robloxPlayers}.
 *
 * @example
 * ```ts
 * const players: PlayersLike = Players;
 * ```
 * @see README#testing
 */
export interface PlayersLike {
	readonly PlayerAdded: RBXScriptSignal<(player: Player) => void>;
	readonly PlayerRemoving: RBXScriptSignal<(player: Player) => void>;
	GetPlayers(): Array<Player>;
	GetPlayerByUserId(userId: number): Player | undefined;
}

/** Roblox's own `Players`. @internal */
export const robloxPlayers: PlayersLike = Players;
