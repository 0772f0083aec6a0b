import { Players, TeleportService } from "@rbxts/services";
import { harness } from "../../support/harness";
import { waitUntil } from "../../support/waits";

// The TeleportService fake against Roblox's reference (docs/roblox.md#teleporting-to-a-server): by ServerInstanceId,
// a server that has closed is no failure (a new public server is made and the player sent there); a full one fails
// with TeleportInitFailed and the player stays; teleport data and launch data reach the server they land in.

const CLOSED = "0d2b8e4f-7c10-4c3e-9a61-5f0c2a9e1b7d";
const FULL = "9a615f0c-2a9e-4b7d-8c3e-0d2b8e4f7c10";

function teleportTo(player: Player, jobId: string, data?: object): void {
	const options = new Instance("TeleportOptions");
	options.ServerInstanceId = jobId;
	if (data !== undefined) options.SetTeleportData(data as never);
	TeleportService.TeleportAsync(1818, [player], options);
}

export = () => {
	afterEach(() => harness.reset());

	describe("TeleportService (fake)", () => {
		it("sends a player asking for a closed server to a new one, with the teleport and launch data", () => {
			const player = harness.players.add(4301, "Mover", "ReAdmin-x");
			teleportTo(player, CLOSED, { asked: CLOSED });
			const made = harness.teleport.teleports();
			expect(made.size()).to.equal(1);
			expect(made[0].created).to.equal(true);
			expect(made[0].jobId).never.to.equal(CLOSED);
			expect(player.Parent).never.to.be.ok();
			expect(harness.teleport.failures()).to.equal(0);
			const arrived = harness.teleport.arrive(made[0]);
			const joinData = arrived.GetJoinData() as { TeleportData?: { asked?: string }; SourcePlaceId?: number };
			expect(joinData.TeleportData?.asked).to.equal(CLOSED);
			expect(joinData.SourcePlaceId).to.equal(game.PlaceId);
			expect(arrived.GetJoinData().LaunchData).to.equal("ReAdmin-x");
		});

		it("fails a teleport to a full server with TeleportInitFailed (GameFull); the player stays", () => {
			harness.teleport.setServer(FULL, "full");
			const failed = new Array<[Player, Enum.TeleportResult]>();
			const connection = TeleportService.TeleportInitFailed.Connect((player, result) =>
				failed.push([player, result]),
			);
			const player = harness.players.add(4302, "Stayer");
			teleportTo(player, FULL);
			waitUntil(() => failed.size() >= 1, "TeleportInitFailed");
			connection.Disconnect();
			expect(failed[0][0]).to.equal(player);
			expect(failed[0][1]).to.equal(Enum.TeleportResult.GameFull);
			expect(harness.teleport.teleports().size()).to.equal(0);
			expect(player.Parent).to.equal(Players);
		});

		it("answers launch data as an empty string until it arrives", () => {
			const player = harness.players.add(4303, "Late", "ReAdmin-y", 0.3);
			expect(player.GetJoinData().LaunchData).to.equal("");
			waitUntil(() => player.GetJoinData().LaunchData === "ReAdmin-y", "the late launch data");
			expect(harness.players.add(4304, "None").GetJoinData().LaunchData).to.equal(undefined);
		});
	});
};
