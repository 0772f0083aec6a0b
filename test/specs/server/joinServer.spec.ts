import { StaffOps } from "../../../src/server";
import { robloxTeleport, ServerTeleport } from "../../../src/roblox/teleport";
import { JOIN_SERVER_CLOSED, JOIN_SERVER_FAILED } from "../../../src/server/features/joinServer";
import { ensureRemote } from "../../../src/shared/remotes";
import { harness, HarnessTeleport } from "../../support/harness";
import { waitSeconds, waitUntil } from "../../support/waits";
import { received } from "../bridge/support";
import { cleanUp, DEFAULT_INFO, freshStart, Started, startRegistered } from "./support";

// Issue 31, item 3, and issue 43, items 1 and 2: the dashboard's "join server" launches a staff member with
// `ReAdmin-<jobId>`; StaffOps moves them to that server through the harness's TeleportService, which does what
// Roblox documents (docs/roblox.md#teleporting-to-a-server): a server that has closed is no failure (Roblox makes a
// new public server and sends the player there), a full one fails with TeleportInitFailed. Each spec counts the
// teleports made, where the player landed, and what they read.

const OTHER_SERVER = "5f0c2a9e-1b7d-4c3e-9a61-0d2b8e4f7c10";
const CONFIG = { clientReportTimeoutSeconds: 0 };

/** The notifications the player's client received. */
function notices(player: Player): Array<string> {
	return received(player, ensureRemote("Notifications")).map(([text]) => text);
}

/** The one teleport made so far, once it is. */
function theTeleport(): HarnessTeleport {
	waitUntil(() => harness.teleport.teleports().size() >= 1, "the teleport");
	return harness.teleport.teleports()[0];
}

/** StaffOps stops here and starts again as the server the teleport landed in; the player arrives there. */
function arriveIn(landed: HarnessTeleport): [Started, Player] {
	StaffOps.stop();
	harness.server.setInfo({ ...DEFAULT_INFO, JobId: landed.jobId });
	const started = startRegistered(CONFIG);
	return [started, harness.teleport.arrive(landed)];
}

/** A teleport seam that cannot start (TeleportAsync throws). */
function throwingTeleport(): ServerTeleport & { calls: number } {
	const seam = {
		calls: 0,
		toServer() {
			seam.calls += 1;
			error("HTTP 500 (Internal Server Error)");
		},
		onFailed() {
			return { Disconnect() {} };
		},
	};
	return seam;
}

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUp());

	describe("join server (issue 31, issue 43)", () => {
		it("teleports a player launched with ReAdmin-<jobId> to that server, once, naming it in the teleport data", () => {
			harness.teleport.setServer(OTHER_SERVER, "open");
			const started = startRegistered(CONFIG);
			const player = harness.players.add(3101, "Moderator", `ReAdmin-${OTHER_SERVER}`);
			const made = theTeleport();
			waitSeconds(0.3);
			expect(harness.teleport.teleports().size()).to.equal(1);
			expect(made.userId).to.equal(3101);
			expect(made.placeId).to.equal(DEFAULT_INFO.PlaceId);
			expect(made.asked).to.equal(OTHER_SERVER);
			expect(made.jobId).to.equal(OTHER_SERVER);
			expect(made.created).to.equal(false);
			expect((made.teleportData as { StaffOpsJoinServer?: string }).StaffOpsJoinServer).to.equal(OTHER_SERVER);
			expect(player.Parent).never.to.be.ok();
			expect(notices(player).size()).to.equal(0);
			expect(started.server.diagnostics().joinServer.teleports).to.equal(1);
		});

		it("a server that has closed: Roblox sends them to a new one, which tells them and never moves them again", () => {
			startRegistered(CONFIG);
			const player = harness.players.add(3102, "Moderator", `ReAdmin-${OTHER_SERVER}`);
			const landed = theTeleport();
			expect(landed.created).to.equal(true);
			expect(landed.jobId).never.to.equal(OTHER_SERVER);
			expect(player.Parent).never.to.be.ok();
			expect(notices(player).size()).to.equal(0);
			// The launch data travels with them; the new server must not act on it.
			expect(landed.launchData).to.equal(`ReAdmin-${OTHER_SERVER}`);

			const [started, arrived] = arriveIn(landed);
			waitUntil(() => notices(arrived).size() >= 1, "the message in the new server");
			waitSeconds(0.3);
			started.clock.advance(11);
			waitSeconds(0.3);
			expect(notices(arrived).size()).to.equal(1);
			expect(notices(arrived)[0]).to.equal(JOIN_SERVER_CLOSED);
			expect(harness.teleport.teleports().size()).to.equal(1);
			expect(arrived.Parent).to.be.ok();
			const diagnostics = started.server.diagnostics().joinServer;
			expect(diagnostics.teleports).to.equal(0);
			expect(diagnostics.arrived).to.equal(1);
			expect(diagnostics.landedElsewhere).to.equal(1);
		});

		it("arriving in the server they chose: no message, and no second teleport", () => {
			harness.teleport.setServer(OTHER_SERVER, "open");
			startRegistered(CONFIG);
			harness.players.add(3103, "Moderator", `ReAdmin-${OTHER_SERVER}`);
			const landed = theTeleport();
			const [started, arrived] = arriveIn(landed);
			waitUntil(() => started.server.diagnostics().joinServer.arrived >= 1, "the arrival read");
			waitSeconds(0.3);
			expect(notices(arrived).size()).to.equal(0);
			expect(harness.teleport.teleports().size()).to.equal(1);
			expect(started.server.diagnostics().joinServer.landedElsewhere).to.equal(0);
			expect(started.server.diagnostics().joinServer.ignored).to.equal(0);
		});

		it("a full server: the teleport fails (TeleportInitFailed), the player stays and is told", () => {
			harness.teleport.setServer(OTHER_SERVER, "full");
			const notified = new Array<string>();
			const connection = StaffOps.notified.Connect((_, text) => notified.push(text));
			const started = startRegistered(CONFIG);
			const player = harness.players.add(3104, "Moderator", `ReAdmin-${OTHER_SERVER}`);
			waitUntil(() => notices(player).size() >= 1, "the message to the player");
			waitSeconds(0.3);
			connection.Disconnect();
			expect(harness.teleport.failures()).to.equal(1);
			expect(harness.teleport.teleports().size()).to.equal(0);
			expect(notices(player).size()).to.equal(1);
			expect(notices(player)[0]).to.equal(JOIN_SERVER_FAILED);
			expect(notified.size()).to.equal(1);
			expect(notified[0]).to.equal(JOIN_SERVER_FAILED);
			expect(player.Parent).to.be.ok();
			expect(started.server.diagnostics().joinServer.failed).to.equal(1);
		});

		it("tells the player when the teleport cannot start", () => {
			const teleport = throwingTeleport();
			startRegistered(CONFIG, { teleport });
			const player = harness.players.add(3105, "Moderator", `ReAdmin-${OTHER_SERVER}`);
			waitUntil(() => notices(player).size() >= 1, "the message to the player");
			waitSeconds(0.3);
			expect(teleport.calls).to.equal(1);
			expect(notices(player).size()).to.equal(1);
			expect(notices(player)[0]).to.equal(JOIN_SERVER_FAILED);
		});

		it("does not teleport for this server's own JobId, other launch data, or a JobId that cannot be one", () => {
			harness.teleport.setServer(OTHER_SERVER, "open");
			const started = startRegistered(CONFIG);
			const players = [
				harness.players.add(3106, "Here", `ReAdmin-${DEFAULT_INFO.JobId}`),
				harness.players.add(3107, "Promo", "promo-SUMMER"),
				harness.players.add(3108, "Empty", "ReAdmin-"),
				harness.players.add(3109, "Odd", "ReAdmin-../../x y"),
				harness.players.add(3110, "Plain"),
			];
			waitUntil(() => started.server.diagnostics().joinServer.ignored >= 3, "the launch data read");
			waitSeconds(0.3);
			expect(harness.teleport.teleports().size()).to.equal(0);
			expect(started.server.diagnostics().joinServer.ignored).to.equal(3);
			for (const player of players) expect(notices(player).size()).to.equal(0);
		});

		it("waits for launch data that arrives late (read again each second while it is empty)", () => {
			harness.teleport.setServer(OTHER_SERVER, "open");
			const started = startRegistered(CONFIG);
			harness.players.add(3111, "Moderator", `ReAdmin-${OTHER_SERVER}`, 0.5);
			waitSeconds(0.7);
			expect(harness.teleport.teleports().size()).to.equal(0);
			started.clock.advance(1);
			const made = theTeleport();
			expect(made.userId).to.equal(3111);
			expect(made.jobId).to.equal(OTHER_SERVER);
			expect(started.server.diagnostics().joinServer.teleports).to.equal(1);
		});

		it("says nothing to a player whose failed teleport StaffOps did not start", () => {
			// docs/game-integration.md (join server): only a teleport of StaffOps' own that fails is told. Once StaffOps
			// has moved someone it hears every TeleportInitFailed; the game's own teleport to a full server is not its.
			const FULL_SERVER = "9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d";
			harness.teleport.setServer(OTHER_SERVER, "open");
			harness.teleport.setServer(FULL_SERVER, "full");
			const started = startRegistered(CONFIG);
			harness.players.add(3113, "Moderator", `ReAdmin-${OTHER_SERVER}`);
			theTeleport();
			const player = harness.players.add(3114, "Traveller");
			task.spawn(() => pcall(() => robloxTeleport.toServer(player, DEFAULT_INFO.PlaceId, FULL_SERVER, {})));
			waitUntil(() => harness.teleport.failures() >= 1, "the game's own teleport to fail");
			waitSeconds(0.3);
			expect(harness.teleport.failures()).to.equal(1);
			expect(player.Parent).to.be.ok();
			expect(notices(player).size()).to.equal(0);
			expect(started.server.diagnostics().joinServer.failed).to.equal(0);
		});

		it("does not teleport in a Studio playtest, whatever the launch data", () => {
			// docs/roblox.md#teleporting-to-a-server: teleports do not work in Studio; launch data is ignored there.
			harness.teleport.setServer(OTHER_SERVER, "open");
			const started = startRegistered(CONFIG, { isStudio: () => true });
			const player = harness.players.add(3115, "Moderator", `ReAdmin-${OTHER_SERVER}`);
			waitUntil(() => started.server.diagnostics().joinServer.ignored >= 1, "the launch data read", 5);
			waitSeconds(0.3);
			expect(harness.teleport.teleports().size()).to.equal(0);
			expect(started.server.diagnostics().joinServer.teleports).to.equal(0);
			expect(player.Parent).to.be.ok();
			expect(notices(player).size()).to.equal(0);
		});

		it("stops waiting for launch data after 10 s", () => {
			harness.teleport.setServer(OTHER_SERVER, "open");
			const started = startRegistered(CONFIG);
			const player = harness.players.add(3112, "Moderator", `ReAdmin-${OTHER_SERVER}`, 1);
			waitSeconds(0.1);
			for (let second = 0; second < 11; second++) started.clock.advance(1);
			waitSeconds(1.2);
			started.clock.advance(5);
			waitSeconds(0.3);
			expect(harness.teleport.teleports().size()).to.equal(0);
			expect(started.server.diagnostics().joinServer.teleports).to.equal(0);
			expect(player.Parent).to.be.ok();
		});
	});
};
