import { Players } from "@rbxts/services";
import { harness } from "../../support/harness";

// The Players fake must keep Roblox's order of events: PlayerAdded after the player is in the list,
// PlayerRemoving while the player is still parented, then unparented.
export = () => {
	afterEach(() => harness.reset());

	describe("Players (fake)", () => {
		it("adds a player under Players and fires PlayerAdded, inline or deferred as the signal behaviour says", () => {
			const seen = new Array<Player>();
			const connection = Players.PlayerAdded.Connect((player) => seen.push(player));
			const player = harness.players.add(4242, "Builder");
			expect(seen.size()).to.equal(harness.signalBehavior === "Immediate" ? 1 : 0);
			task.wait();
			connection.Disconnect();
			expect(seen.size()).to.equal(1);
			expect(seen[0].UserId).to.equal(4242);
			expect(seen[0].Name).to.equal("Builder");
			expect(player.Parent).to.equal(Players);
			expect(Players.GetPlayers().size()).to.equal(1);
			expect(Players.GetPlayerByUserId(4242)).to.equal(player);
		});

		it("fires PlayerRemoving while the player is still parented, then unparents it", () => {
			const player = harness.players.add(7);
			let parentWhenRemoving: Instance | undefined;
			const connection = Players.PlayerRemoving.Connect((leaving) => {
				parentWhenRemoving = leaving.Parent;
			});
			harness.players.remove(player);
			task.wait();
			connection.Disconnect();
			expect(Players.GetPlayers().size()).to.equal(0);
			expect(player.Parent).to.equal(undefined);
			expect(parentWhenRemoving === undefined || parentWhenRemoving === Players).to.equal(true);
		});

		it("Kick records the message and removes the player", () => {
			const player = harness.players.add(666);
			player.Kick("Banned: exploiting");
			expect(harness.players.kickMessage(player)).to.equal("Banned: exploiting");
			expect(Players.GetPlayers().size()).to.equal(0);
		});

		it("a disconnected handler is not called", () => {
			let calls = 0;
			const connection = Players.PlayerAdded.Connect(() => calls++);
			connection.Disconnect();
			harness.players.add(1);
			task.wait();
			expect(calls).to.equal(0);
		});
	});

	describe("BindToClose (fake)", () => {
		it("runs every callback in parallel and waits for them", () => {
			const order = new Array<string>();
			game.BindToClose(() => {
				task.wait(0.2);
				order.push("slow");
			});
			game.BindToClose(() => order.push("fast"));
			const [seconds, finished] = harness.server.close();
			expect(finished).to.equal(true);
			expect(order.join(",")).to.equal("fast,slow");
			expect(seconds < 0.5).to.equal(true);
		});

		// Roblox removes the players still present when a server shuts down; it does not document whether their
		// PlayerRemoving comes before or after the BindToClose callbacks, so the fake runs either order.
		for (const order of ["callbacks-first", "players-first"] as const) {
			it(`removes every player still present at shutdown (${order})`, () => {
				const events = new Array<string>();
				const players = game.GetService("Players");
				const connection = players.PlayerRemoving.Connect((player) => events.push(`left ${player.UserId}`));
				harness.players.add(41);
				harness.players.add(42);
				task.wait();
				game.BindToClose(() => events.push(`close with ${players.GetPlayers().size()} present`));
				const [, finished] = harness.server.close(order);
				task.wait();
				connection.Disconnect();
				expect(finished).to.equal(true);
				expect(players.GetPlayers().size()).to.equal(0);
				const expected =
					order === "players-first"
						? "left 41,left 42,close with 0 present"
						: "close with 2 present,left 41,left 42";
				expect(events.join(",")).to.equal(expected);
			});
		}
	});

	describe("DataModel facts (fake)", () => {
		it("answers the server facts a spec sets", () => {
			harness.server.setInfo({ JobId: "", PrivateServerId: "ps-1", PrivateServerOwnerId: 99 });
			expect(game.JobId).to.equal("");
			expect(game.PrivateServerId).to.equal("ps-1");
			expect(game.PrivateServerOwnerId).to.equal(99);
			expect(typeIs(game.PlaceId, "number")).to.equal(true);
			harness.server.setInfo({
				JobId: "00000000-0000-4000-8000-000000000001",
				PrivateServerId: "",
				PrivateServerOwnerId: 0,
			});
		});
	});
};
