import { HttpService } from "@rbxts/services";
import { StaffOpsApiClient } from "../../../src/api/apiClient";
import { failure, referenceClient } from "../../support/referenceClient";
import { serviceControl } from "../../support/serviceControl";
import { must } from "../../support/waits";

// client.commands against the reference service's deployed profile (docs/service-contract.md#admin-chat-commands):
// what game code gets, what reached the service (the request log's bodies and counts) and what it stored.

const STAFF = 1003;
const PLAYER = 2001;

const SERVER = {
	gameId: 4500000031,
	placeId: 9200000031,
	jobId: "job-commands-spec",
	privateServerId: "",
	privateServerOwnerId: 0,
	placeVersion: "1",
};

interface StoredCommand {
	id: string;
	paramaters?: unknown;
	allowed: Array<string>;
}

function storedCommands(): Array<StoredCommand> {
	return (serviceControl.call("GET", "/_control/commands") as { commands: Array<StoredCommand> }).commands;
}

function join(client: StaffOpsApiClient, runningGameId: string, playerId: number) {
	return must(
		client.activity.reportJoin({
			playerId,
			safechat: false,
			username: `Player${playerId}`,
			tzOffset: "-05:00",
			platform: "Desktop",
			gameId: runningGameId,
		}),
	);
}

export = () => {
	describe("client.commands (reference service, deployed profile)", () => {
		let client: StaffOpsApiClient;
		let runningGameId: string;
		beforeEach(() => {
			serviceControl.reset("deployed");
			client = referenceClient({ timeout: 5, retry: { maxAttempts: 3, baseDelay: 0.05, maxDelay: 0.1 } });
			runningGameId = must(client.activity.registerServer(SERVER)).runningGameId;
		});
		afterAll(() => serviceControl.reset());

		it("registerCommands sends parameters under the service's spelling, paramaters, once", () => {
			must(
				client.commands.registerCommands(runningGameId, [{ id: "kick", name: "kick", parameters: ["player"] }]),
			);
			expect(serviceControl.count("registerCommands")).to.equal(1);
			const logged = serviceControl.requests().requests.filter((r) => r.operation === "registerCommands")[0];
			const sent = HttpService.JSONEncode(logged.body);
			expect(sent.find('"paramaters"', 1, true)[0] !== undefined).to.equal(true);
			expect(sent.find('"parameters"', 1, true)[0]).to.equal(undefined);
			const stored = storedCommands();
			expect(stored.size()).to.equal(1);
			expect((stored[0].paramaters as Array<string>)[0]).to.equal("player");
		});

		it("registerCommands refuses a command without a name and sends nothing", () => {
			const err = failure(
				client.commands.registerCommands(runningGameId, [{ id: "kick", name: "", parameters: [] }]),
			);
			expect(err.kind).to.equal("invalid");
			expect(serviceControl.count("registerCommands")).to.equal(0);
		});

		it("permissions: an admin's grant reads true, everything else false, in one request for the players", () => {
			must(client.commands.registerCommands(runningGameId, [{ id: "kick", name: "kick", parameters: [] }]));
			serviceControl.call("POST", "/_control/commands/permissions", { commandId: "kick", userId: `${STAFF}` });
			const answer = must(client.commands.permissions(runningGameId, [STAFF, PLAYER]));
			expect(answer.permissions[`${STAFF}`].kick).to.equal(true);
			expect(answer.permissions[`${PLAYER}`].kick).to.equal(false);
			expect(serviceControl.count("commandPermissions")).to.equal(1);
		});

		it("permissions: no players, or a bad UserId, is refused before sending (the service would answer 500)", () => {
			expect(failure(client.commands.permissions(runningGameId, [])).kind).to.equal("invalid");
			expect(failure(client.commands.permissions(runningGameId, [0])).kind).to.equal("invalid");
			expect(serviceControl.count("commandPermissions")).to.equal(0);
		});

		it("ban: the answer's ban id; the next join is banned with the reason; lifted by id, the join after is not", () => {
			const { ban } = must(client.commands.ban({ userId: PLAYER, reason: "Spam", bannedByUserId: STAFF }));
			expect(ban._id.size()).to.equal(24);
			const banned = join(client, runningGameId, PLAYER);
			expect(banned.banned).to.equal(true);
			expect(banned.reason).to.equal("Spam");
			must(client.commands.unban(ban._id));
			expect(join(client, runningGameId, PLAYER).banned).to.equal(false);
			expect(serviceControl.count("createBan")).to.equal(1);
			expect(serviceControl.count("deleteBan")).to.equal(1);
		});

		it("ban: a user removed under GDPR is a soft refusal with the reason, sent once", () => {
			serviceControl.call("POST", "/_control/gdpr-removals", { userId: `${PLAYER}` });
			const err = failure(client.commands.ban({ userId: PLAYER, reason: "Spam", bannedByUserId: STAFF }));
			expect(err.kind).to.equal("service");
			expect(err.reason !== undefined).to.equal(true);
			expect(serviceControl.count("createBan")).to.equal(1);
		});

		it("ban: an unknown field or a bad number of days is refused before sending", () => {
			const args = { userId: PLAYER, reason: "Spam", bannedByUserId: STAFF };
			expect(failure(client.commands.ban({ ...args, expiresInDays: -1 })).kind).to.equal("invalid");
			const extra = { ...args, loaderId: "x" } as unknown as Parameters<typeof client.commands.ban>[0];
			expect(failure(client.commands.ban(extra)).kind).to.equal("invalid");
			expect(serviceControl.count("createBan")).to.equal(0);
		});

		it("ban: a 500 is not sent again (a second request would record a second ban)", () => {
			serviceControl.fault({ operation: "createBan", status: 500, times: 1 });
			const err = failure(client.commands.ban({ userId: PLAYER, reason: "Spam", bannedByUserId: STAFF }));
			expect(err.status).to.equal(500);
			expect(serviceControl.count("createBan")).to.equal(1);
		});

		it("verifyLink: a good code links once; the same code again is refused with the reason to show", () => {
			serviceControl.call("POST", "/_control/verify-codes", { code: "LINK42", linkedTo: "mod@site" });
			expect(must(client.commands.verifyLink(runningGameId, "LINK42", STAFF)).linkedTo).to.equal("mod@site");
			const again = failure(client.commands.verifyLink(runningGameId, "LINK42", PLAYER));
			expect(again.kind).to.equal("service");
			expect(again.reason !== undefined).to.equal(true);
			expect(serviceControl.count("verifyLink")).to.equal(2);
		});
	});
};
