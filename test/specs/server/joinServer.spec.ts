import { StaffOps } from "../../../src/server";
import type { ServerTeleport } from "../../../src/roblox/teleport";
import { JOIN_SERVER_FAILED } from "../../../src/server/features/joinServer";
import { ensureRemote } from "../../../src/shared/remotes";
import { harness } from "../../support/harness";
import { waitSeconds, waitUntil } from "../../support/waits";
import { received } from "../bridge/support";
import { cleanUp, DEFAULT_INFO, freshStart, startRegistered } from "./support";

// Issue 31, item 3: the dashboard's "join server" launches a staff member with `ReAdmin-<jobId>`; StaffOps moves them
// to that server, or tells them when it is gone. The teleport is a seam, so each spec counts the teleports started and
// reads what the player saw.

const OTHER_SERVER = "5f0c2a9e-1b7d-4c3e-9a61-0d2b8e4f7c10";

interface FakeTeleport extends ServerTeleport {
	readonly calls: Array<{ userId: number; placeId: number; jobId: string }>;
}

/** A teleport that starts (`ok`), cannot start (`throws`), or starts and then fails (`initFails`). */
function fakeTeleport(outcome: "ok" | "throws" | "initFails"): FakeTeleport {
	const handlers = new Array<(player: Player) => void>();
	const calls = new Array<{ userId: number; placeId: number; jobId: string }>();
	return {
		calls,
		toServer(player, placeId, jobId) {
			calls.push({ userId: player.UserId, placeId, jobId });
			if (outcome === "throws") error("HTTP 500 (Internal Server Error)");
			if (outcome === "initFails") task.delay(0.1, () => handlers.forEach((handler) => handler(player)));
		},
		onFailed(handler) {
			handlers.push(handler);
			return {
				Disconnect() {
					handlers.clear();
				},
			};
		},
	};
}

/** The notifications the player's client received. */
function notices(player: Player): Array<string> {
	return received(player, ensureRemote("Notifications")).map(([text]) => text);
}

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUp());

	describe("join server (issue 31)", () => {
		it("teleports a player launched with ReAdmin-<jobId> to that server of this place, once", () => {
			const teleport = fakeTeleport("ok");
			const started = startRegistered({ clientReportTimeoutSeconds: 0 }, { teleport });
			const player = harness.players.add(3101, "Moderator", `ReAdmin-${OTHER_SERVER}`);
			waitUntil(() => teleport.calls.size() >= 1, "the teleport");
			waitSeconds(0.3);
			expect(teleport.calls.size()).to.equal(1);
			expect(teleport.calls[0].userId).to.equal(3101);
			expect(teleport.calls[0].placeId).to.equal(DEFAULT_INFO.PlaceId);
			expect(teleport.calls[0].jobId).to.equal(OTHER_SERVER);
			expect(notices(player).size()).to.equal(0);
			expect(started.server.diagnostics().joinServer.teleports).to.equal(1);
		});

		it("tells the player when the server is gone (TeleportInitFailed), and keeps them here", () => {
			const teleport = fakeTeleport("initFails");
			const notified = new Array<string>();
			const connection = StaffOps.notified.Connect((_, text) => notified.push(text));
			startRegistered({ clientReportTimeoutSeconds: 0 }, { teleport });
			const player = harness.players.add(3102, "Moderator", `ReAdmin-${OTHER_SERVER}`);
			waitUntil(() => notices(player).size() >= 1, "the message to the player");
			connection.Disconnect();
			expect(teleport.calls.size()).to.equal(1);
			expect(notices(player)[0]).to.equal(JOIN_SERVER_FAILED);
			expect(notified[0]).to.equal(JOIN_SERVER_FAILED);
			expect(player.Parent).to.be.ok();
		});

		it("tells the player when the teleport cannot start", () => {
			const teleport = fakeTeleport("throws");
			startRegistered({ clientReportTimeoutSeconds: 0 }, { teleport });
			const player = harness.players.add(3103, "Moderator", `ReAdmin-${OTHER_SERVER}`);
			waitUntil(() => notices(player).size() >= 1, "the message to the player");
			waitSeconds(0.3);
			expect(teleport.calls.size()).to.equal(1);
			expect(notices(player).size()).to.equal(1);
			expect(notices(player)[0]).to.equal(JOIN_SERVER_FAILED);
		});

		it("does not teleport for this server's own JobId, other launch data, or a JobId that cannot be one", () => {
			const teleport = fakeTeleport("ok");
			const started = startRegistered({ clientReportTimeoutSeconds: 0 }, { teleport });
			const players = [
				harness.players.add(3104, "Here", `ReAdmin-${DEFAULT_INFO.JobId}`),
				harness.players.add(3105, "Promo", "promo-SUMMER"),
				harness.players.add(3106, "Empty", "ReAdmin-"),
				harness.players.add(3107, "Odd", "ReAdmin-../../x y"),
				harness.players.add(3108, "Plain"),
			];
			waitUntil(() => started.server.diagnostics().joinServer.ignored >= 3, "the launch data read");
			waitSeconds(0.3);
			expect(teleport.calls.size()).to.equal(0);
			expect(started.server.diagnostics().joinServer.ignored).to.equal(3);
			for (const player of players) expect(notices(player).size()).to.equal(0);
		});
	});
};
