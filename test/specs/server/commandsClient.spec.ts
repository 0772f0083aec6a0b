import { mountStaffCommands } from "../../../src/client/commands";
import { StaffOps } from "../../../src/server";
import { JOIN_BATCH_SECONDS } from "../../../src/server/features/commands/permissions";
import { HarnessClient, harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { aliasesUnder as aliases, clientCommandsRemote as clientRemote } from "./commandsSupport";
import { cleanUp, freshStart, startDeployed } from "./support";

// Staff commands on players' own clients (issue 31, item 1): each client makes only the commands its player was
// offered, as TextChatCommands of its own (never replicated to others), and shows a result only to that player.

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUp());
	afterAll(() => serviceControl.reset());

	describe("staff commands on clients", () => {
		it("makes each player's offered commands on their own client only, and shows results to them only", () => {
			const started = startDeployed();
			waitUntil(() => serviceControl.count("registerCommands") === 1, "the registration");
			serviceControl.call("POST", "/_control/commands/permissions", {
				commandId: "readmin_kick",
				userId: "1003",
			});
			serviceControl.call("POST", "/_control/commands/permissions", {
				commandId: "readmin_warn",
				userId: "1003",
			});
			const mod = harness.clients.join(1003, "ModMarco");
			const cashier = harness.clients.join(1004, "CashierAmy");
			const shown = new Map<HarnessClient, Array<string>>([
				[mod, []],
				[cashier, []],
			]);
			const mounts = [mod, cashier].map((client) =>
				mountStaffCommands(clientRemote(client), client.game().GetService("TextChatService"), (text) =>
					shown.get(client)!.push(text),
				),
			);
			waitUntil(() => StaffOps.isStaff(mod.player()) && StaffOps.isStaff(cashier.player()), "the staff joins");
			started.clock.advance(JOIN_BATCH_SECONDS);
			waitUntil(() => mounts[0].offered().size() === 2, "the mod's offer");
			const modChat = mod.game().GetService("TextChatService");
			expect(aliases(modChat).join(",")).to.equal("/kick,/warn");
			waitSeconds(0.3);
			expect(mounts[1].offered().size()).to.equal(0);
			expect(aliases(cashier.game().GetService("TextChatService")).size()).to.equal(0);
			// Nothing was made on the server, so nothing replicates to other players.
			expect(aliases(game.GetService("TextChatService")).size()).to.equal(0);

			// What a triggered command sends: the line as typed, through the client's own remote.
			clientRemote(mod).FireServer("/kick Nobody");
			waitUntil(() => shown.get(mod)!.size() === 1, "the result on the mod's client");
			expect(shown.get(mod)![0].find("No player", 1, true)[0] !== undefined).to.equal(true);
			expect(shown.get(cashier)!.size()).to.equal(0);
			for (const mount of mounts) mount.destroy();
			expect(aliases(modChat).size()).to.equal(0);
		});
	});
};
