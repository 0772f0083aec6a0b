import { HttpService } from "@rbxts/services";
import { StaffOpsApiClient } from "../../../src/api/apiClient";
import { harness } from "../../support/harness";
import { failure, referenceClient } from "../../support/referenceClient";
import { serviceControl } from "../../support/serviceControl";
import { must } from "../../support/waits";

// Every operation of the interface, and the three extensions, against the reference service's deployed profile:
// what the deployed service really sends (docs/service-contract.md#what-the-deployed-service-sends). Each spec asserts what game code gets and how many requests
// reached the service.

const CALL = "65a1b2c3d4e5f60718293a4b";
const HEX24 = "^%x+$";

function makeClient(maxAttempts = 3): StaffOpsApiClient {
	return referenceClient({ timeout: 5, retry: { maxAttempts, baseDelay: 0.05, maxDelay: 0.1 } });
}

/**
 * Waits for `promise` as `must` does, then checks that what game code gets does not hold the key (the deployed
 * service echoes it as `loaderId`).
 */
function mustWithoutKey<T>(promise: Promise<T>): T {
	const value = must(promise);
	if (HttpService.JSONEncode(value).find(harness.serviceKey, 1, true)[0] !== undefined) {
		error("the answer game code got holds the API key", 2);
	}
	return value;
}

function isHex24(id: unknown): boolean {
	return typeIs(id, "string") && id.size() === 24 && id.match(HEX24)[0] !== undefined;
}

const SERVER = {
	gameId: 4500000002,
	placeId: 9200000002,
	jobId: "job-deployed-spec",
	privateServerId: "",
	privateServerOwnerId: 0,
	placeVersion: "3",
};

function join(client: StaffOpsApiClient, runningGameId: string, playerId: number, tzOffset = "-05:00") {
	return client.activity.reportJoin({
		playerId,
		safechat: false,
		username: `Player${playerId}`,
		tzOffset,
		platform: "Desktop",
		gameId: runningGameId,
	});
}

export = () => {
	describe("the deployed service (reference service, deployed profile)", () => {
		let client: StaffOpsApiClient;
		beforeEach(() => {
			serviceControl.reset("deployed");
			client = makeClient();
		});
		afterAll(() => serviceControl.reset());

		it("createServer: 24-hex running game id, workspace kept with its own field names, loaderId redacted", () => {
			const answer = mustWithoutKey(client.activity.registerServer(SERVER));
			expect(isHex24(answer.runningGameId)).to.equal(true);
			expect(answer.gameId.size() > 0).to.equal(true);
			const workspace = answer.workspace!;
			expect(workspace.loaderId).to.equal("<redacted>");
			expect((workspace.owner as unknown as { id?: string }).id).to.be.ok();
			expect((answer as unknown as { serverName?: string }).serverName).to.be.ok();
			expect(serviceControl.count("createServer")).to.equal(1);
		});

		it("createServer: an empty jobId is refused with 400 and not sent again", () => {
			const err = failure(client.activity.registerServer({ ...SERVER, jobId: "" }));
			expect(err.kind).to.equal("service");
			expect(err.status).to.equal(400);
			expect(err.mayHaveActed).to.equal(false);
			expect(serviceControl.count("createServer")).to.equal(1);
		});

		it("playerJoin: no reason unless banned; staff; banned with its reason; one request, one session each", () => {
			const { runningGameId } = mustWithoutKey(client.activity.registerServer(SERVER));
			const regular = mustWithoutKey(join(client, runningGameId, 2001));
			expect(regular.banned).to.equal(false);
			expect(regular.reason).to.equal(undefined);
			expect(regular.isStaff).to.equal(false);
			expect(isHex24(regular.sessionId)).to.equal(true);
			const staff = mustWithoutKey(join(client, runningGameId, 1002));
			expect(staff.isStaff).to.equal(true);
			const banned = mustWithoutKey(join(client, runningGameId, 666));
			expect(banned.banned).to.equal(true);
			expect(banned.reason).to.equal("Exploiting");
			expect(serviceControl.count("playerJoin")).to.equal(3);
			const records = serviceControl.records();
			expect(records.sessionsByUser["2001"]).to.equal(1);
			expect(records.sessionsByUser["1002"]).to.equal(1);
			expect(records.sessionsByUser["666"]).to.equal(undefined);
		});

		it("playerJoin: privacy mode leaves out banned, sessionId and runningPlayerId, and the answer still reads", () => {
			const { runningGameId } = mustWithoutKey(client.activity.registerServer(SERVER));
			serviceControl.configure({ privacy: true });
			const answer = mustWithoutKey(join(client, runningGameId, 1003));
			expect(answer.banned).to.equal(undefined);
			expect(answer.sessionId).to.equal(undefined);
			expect(answer.runningPlayerId).to.equal(undefined);
			expect(answer.isStaff).to.equal(true);
			expect(serviceControl.count("playerJoin")).to.equal(1);
		});

		it("playerJoin: not idempotent there, so the client never repeats it, even after a 500", () => {
			const registered = mustWithoutKey(client.activity.registerServer(SERVER));
			// The internal id where the running game id belongs: the deployed service answers 500.
			const err = failure(join(client, registered.gameId, 2001));
			expect(err.status).to.equal(500);
			expect(err.mayHaveActed).to.equal(true);
			expect(serviceControl.count("playerJoin")).to.equal(1);
			// Each join it does get opens a session of its own: what the library must never cause by repeating.
			mustWithoutKey(join(client, registered.runningGameId, 2002));
			mustWithoutKey(join(client, registered.runningGameId, 2002));
			expect(serviceControl.records().sessionsByUser["2002"]).to.equal(2);
		});

		it("playerJoin: a tzOffset that is not ±HH:mm is stored empty; the client only sends ±HH:MM", () => {
			const { runningGameId } = mustWithoutKey(client.activity.registerServer(SERVER));
			mustWithoutKey(join(client, runningGameId, 2003, "+05:30"));
			expect(serviceControl.records().timezones["2003"]).to.equal("+05:30");
			const err = failure(join(client, runningGameId, 2004, "+5:30"));
			expect(err.kind).to.equal("invalid");
			expect(serviceControl.count("playerJoin")).to.equal(1);
		});

		it("getActivity: summary null reads as absent; a staff member's summary and sessions read", () => {
			const none = mustWithoutKey(client.activity.getUserActivity("2999"));
			expect(none.summary).to.equal(undefined);
			expect(none.sessions.size()).to.equal(0);
			const staff = mustWithoutKey(client.activity.getUserActivity("1001"));
			expect(staff.summary!._id.size() > 0).to.equal(true);
			expect(serviceControl.count("getActivity")).to.equal(2);
		});

		it("getRunningGame: lists the players, and does not count as presence there", () => {
			const registered = mustWithoutKey(client.activity.registerServer(SERVER));
			mustWithoutKey(join(client, registered.runningGameId, 1002));
			const before = serviceControl.records().servers[0].lastPresence;
			task.wait(0.05);
			const answer = mustWithoutKey(client.games.getRunning(registered.gameId));
			expect(answer.players!.size()).to.equal(1);
			expect(answer.players![0].userId).to.equal("1002");
			expect(serviceControl.records().servers[0].lastPresence).to.equal(before);
			expect(serviceControl.count("getRunningGame")).to.equal(1);
		});

		it("recordHistory and listHistory: numeric ids, rankTo false, no ended, typed list items", () => {
			const recorded = mustWithoutKey(
				client.history.record({
					actioningUser: "1002",
					userId: "1005",
					reason: "Deployed spec",
					type: "writeup",
					approval_required: false,
				}),
			);
			expect(recorded.history._id.size() > 0).to.equal(true);
			expect(recorded.history.rankTo).to.equal(false);
			expect(recorded.history.ended).to.equal(undefined);
			const list = mustWithoutKey(client.history.list());
			const items = list.history!;
			expect(items.size() > 1).to.equal(true);
			expect(items.every((item) => item.type !== undefined)).to.equal(true);
			expect(items.some((item) => typeIs(item.userId, "number"))).to.equal(true);
			expect(serviceControl.count("recordHistory")).to.equal(1);
			expect(serviceControl.count("listHistory")).to.equal(1);
		});

		it("createOrder and releaseOrder: a 404 without success is an http error, sent once each", () => {
			const created = failure(
				client.orders.create({
					customerId: "2001",
					cashierId: "1004",
					items: [{ item: "Latte", quantity: 1 }],
					placeId: "9200000002",
					gameId: "4500000002",
				}),
			);
			expect(created.kind).to.equal("http");
			expect(created.status).to.equal(404);
			expect(created.message).to.equal("HTTP 404: Cannot POST /orders");
			const released = failure(client.orders.release("665a00000000000000000009", { actorId: "1004" }));
			expect(released.kind).to.equal("http");
			expect(released.status).to.equal(404);
			expect(serviceControl.count("createOrder")).to.equal(1);
			expect(serviceControl.count("releaseOrder")).to.equal(1);
		});

		it("listTimeOff and getTimeOff read as on the default profile", () => {
			const list = mustWithoutKey(client.timeOff.list());
			expect(list.requests.size() > 0).to.equal(true);
			const one = mustWithoutKey(client.timeOff.get(list.requests[0]._id));
			expect(one.request._id).to.equal(list.requests[0]._id);
			expect(serviceControl.count("listTimeOff") + serviceControl.count("getTimeOff")).to.equal(2);
		});

		it("getCallMessages: a 24-hex call reads; any other id is a 500 there", () => {
			const answer = mustWithoutKey(client.calls.getMessages(CALL));
			expect(answer.status).to.equal("open");
			expect(answer.messages.size() >= 1).to.equal(true);
			const single = makeClient(1);
			const err = failure(single.calls.getMessages("call-demo"));
			expect(err.kind).to.equal("service");
			expect(err.status).to.equal(500);
			expect(serviceControl.count("getCallMessages")).to.equal(2);
		});

		it("getUserTeams reads as on the default profile", () => {
			const answer = mustWithoutKey(client.teams.forUser("1005"));
			expect(answer.teams.size() > 0).to.equal(true);
			expect(serviceControl.count("getUserTeams")).to.equal(1);
		});

		it("extensions: a leave ends the session once (a repeat is harmless), endServer removes the server", () => {
			const registered = mustWithoutKey(client.activity.registerServer(SERVER));
			mustWithoutKey(join(client, registered.runningGameId, 1002));
			mustWithoutKey(join(client, registered.runningGameId, 2001));
			const leftTime = DateTime.now().UnixTimestamp;
			const left = mustWithoutKey(
				client.extensions.reportLeave({ runningGameId: registered.runningGameId, userId: 1002, leftTime }),
			);
			expect(left.finalized).to.equal(true);
			const again = mustWithoutKey(
				client.extensions.reportLeave({ runningGameId: registered.runningGameId, userId: 1002, leftTime }),
			);
			expect(again.finalized).to.equal(false);
			let records = serviceControl.records();
			expect(records.openSessionsByUser["1002"]).to.equal(undefined);
			expect(records.openSessionsByUser["2001"]).to.equal(1);
			mustWithoutKey(client.extensions.endServer(registered.runningGameId));
			records = serviceControl.records();
			expect(records.openSessionsByUser["2001"]).to.equal(undefined);
			expect(records.servers[0].removal).to.equal("endServer");
			const gone = failure(client.games.getRunning(registered.gameId));
			expect(gone.status).to.equal(404);
			expect(serviceControl.count("playerLeave")).to.equal(2);
			expect(serviceControl.count("endServer")).to.equal(1);
		});

		it("extensions: getServer reads the workspace with loaderId redacted and keeps the server present", () => {
			const registered = mustWithoutKey(client.activity.registerServer(SERVER));
			const before = serviceControl.records().servers[0].lastPresence;
			task.wait(1.05);
			const answer = mustWithoutKey(client.extensions.getServer(registered.runningGameId));
			expect(answer.workspace!.loaderId).to.equal("<redacted>");
			expect(serviceControl.records().servers[0].lastPresence).never.to.equal(before);
			expect(serviceControl.count("getServer")).to.equal(1);
		});

		it("client.request reaches routes the interface does not list, with the same key and errors", () => {
			const registered = mustWithoutKey(client.activity.registerServer(SERVER));
			const answer = mustWithoutKey(
				client.request({
					method: "POST",
					path: "/activity/getServer",
					body: { gameId: registered.runningGameId },
					safeToRepeat: true,
				}),
			) as { success: boolean; workspace?: { loaderId?: string } };
			expect(answer.success).to.equal(true);
			expect(answer.workspace!.loaderId).to.equal("<redacted>");
			const missing = failure(client.request({ method: "GET", path: "/no/such/route" }));
			expect(missing.kind).to.equal("http");
			expect(missing.status).to.equal(404);
			expect(missing.operation).to.equal("request");
			expect(serviceControl.count("getServer")).to.equal(1);
		});

		it("getRunningGame: a player's platform StaffOps does not know is left out of their entry and counted", () => {
			const registered = mustWithoutKey(client.activity.registerServer(SERVER));
			mustWithoutKey(join(client, registered.runningGameId, 1002));
			mustWithoutKey(join(client, registered.runningGameId, 2001));
			serviceControl.fault({
				operation: "getRunningGame",
				kind: "extended",
				fields: { "players.0.platform": "Headset" },
				times: 1,
			});
			const answer = mustWithoutKey(client.games.getRunning(registered.gameId));
			// The whole answer and both entries read; the unknown platform is not read as one StaffOps knows.
			const players = answer.players!;
			expect(players.size()).to.equal(2);
			expect(players[0].userId).to.equal("1002");
			expect(players[0].platform).to.equal(undefined);
			expect(players[1].userId).to.equal("2001");
			expect(players[1].platform).to.equal("Desktop");
			expect(answer.unknownPlatforms).to.equal(1);
			// Platforms it knows again: nothing counted.
			const again = mustWithoutKey(client.games.getRunning(registered.gameId));
			expect(again.players![0].platform).to.equal("Desktop");
			expect(again.unknownPlatforms).to.equal(undefined);
			expect(serviceControl.count("getRunningGame")).to.equal(2);
		});

		it("support calls: a ticket of a callType StaffOps does not know is kept as it came; no answer is refused", () => {
			const { runningGameId } = mustWithoutKey(client.activity.registerServer(SERVER));
			mustWithoutKey(join(client, runningGameId, 2001));
			serviceControl.fault({
				operation: "supportCreate" as never,
				kind: "extended",
				fields: { "ticket.callType": "appeal" },
				times: 1,
			});
			const created = mustWithoutKey(
				client.support.create({
					runningGameId,
					callType: "support",
					callerId: 2001,
					reason: "help",
					players: [[2001, "Player2001", "Player2001"]],
				}),
			);
			expect(isHex24(created.ticket._id)).to.equal(true);
			expect(created.ticket.callType).to.equal("appeal");
			// Created once: an answer read is never sent again.
			expect(serviceControl.count("supportCreate" as never)).to.equal(1);
			serviceControl.fault({
				operation: "listCalls" as never,
				kind: "extended",
				fields: { "calls.0.callType": "appeal" },
				times: 1,
			});
			const listed = mustWithoutKey(client.support.list("open"));
			expect(listed.calls.size()).to.equal(1);
			expect(listed.calls[0]._id).to.equal(created.ticket._id);
			expect(listed.calls[0].callType).to.equal("appeal");
			expect(listed.calls[0].status).to.equal("open");
		});
	});
};
