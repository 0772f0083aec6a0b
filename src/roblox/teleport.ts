// Moving a player to another server of this game, as StaffOps uses TeleportService (docs/roblox.md#teleporting-to-a-server).

/**
 * Moves a player to one server of a place: the seam of the "join server" feature, so specs count teleports.
 * @see README#join-server
 */
export interface ServerTeleport {
	/**
	 * Starts moving `player` to the server `jobId` of place `placeId`, with `teleportData` for the server they land in
	 * (`Player:GetJoinData().TeleportData` there); may yield, and throws when the teleport cannot start
	 * (TeleportService:TeleportAsync's errors). When that server has closed, Roblox makes a new one and sends the
	 * player there: no failure (docs/roblox.md#teleporting-to-a-server).
	 */
	toServer(player: Player, placeId: number, jobId: string, teleportData: object): void;
	/** Calls `handler` when a teleport that started fails and the player stays (TeleportService.TeleportInitFailed). */
	onFailed(handler: (player: Player) => void): { Disconnect(): void };
}

/** TeleportService: `TeleportAsync` with `TeleportOptions.ServerInstanceId`, and `TeleportInitFailed`. @internal */
export const robloxTeleport: ServerTeleport = {
	toServer(player, placeId, jobId, teleportData) {
		const options = new Instance("TeleportOptions");
		options.ServerInstanceId = jobId;
		options.SetTeleportData(teleportData as never);
		game.GetService("TeleportService").TeleportAsync(placeId, [player], options);
	},
	onFailed(handler) {
		return game.GetService("TeleportService").TeleportInitFailed.Connect((player) => {
			if (typeIs(player, "Instance") && player.IsA("Player")) handler(player);
		});
	},
};
