import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
	BANNED,
	DEV_GROUP,
	PLAYER,
	expectStatus,
	historyBody,
	joinBody,
	orderBody,
	registerServer,
	serverBody,
} from "../test-support/fixtures.js";
import { answers, assertShape } from "../test-support/shapes.js";
import { stateOf, useService } from "../test-support/service-under-test.js";

const t = useService();

describe("staff history", () => {
	test("recordHistory stores an item built from the request", async () => {
		const before = Date.now();
		const answer = await t.api.post(
			"/staff/history",
			historyBody({ role: "Moderator", expiresInDays: 2, notify: true, approval_required: true }),
		);
		expectStatus(answer, 200);
		assertShape(answers.recordHistory, answer.json);
		const item = answer.json.history;
		assert.equal(item.groupId, DEV_GROUP);
		assert.equal(item.type, "promotion");
		assert.equal(item.userId, "1005");
		assert.equal(item.disciplinarianId, "1002");
		assert.equal(item.reason, "Helped a lot");
		assert.equal(item.rankFrom, "Trainee");
		assert.equal(item.rankTo, "Moderator");
		assert.equal(item.pendingApproval, true);
		assert.equal(item.notify, true);
		assert.equal(item.ended, false);
		const created = Date.parse(item.created);
		assert.ok(created >= before - 1000 && created <= Date.now() + 1000);
		assert.equal(Date.parse(item.expires) - created, 2 * 86_400_000);
	});

	test("recordHistory leaves optional fields out when not asked, and rankFrom empty for non-staff", async () => {
		const answer = await t.api.post("/staff/history", historyBody({ userId: "2001", type: "writeup" }));
		expectStatus(answer, 200);
		assertShape(answers.recordHistory, answer.json);
		assert.equal(answer.json.history.rankFrom, "");
		assert.equal("expires" in answer.json.history, false);
		assert.equal("rankTo" in answer.json.history, false);
		assert.equal("notify" in answer.json.history, false);
	});

	test("a recorded role becomes the next item's rankFrom", async () => {
		await t.api.post("/staff/history", historyBody({ role: "Moderator" }));
		const answer = await t.api.post("/staff/history", historyBody({ role: "Head Moderator" }));
		assert.equal(answer.json.history.rankFrom, "Moderator");
	});

	test("listHistory lists seeded and recorded items without type", async () => {
		const recorded = await t.api.post("/staff/history", historyBody({ type: "suspension", expiresInDays: 7 }));
		const answer = await t.api.get("/staff/history");
		expectStatus(answer, 200);
		assertShape(answers.listHistory, answer.json);
		const ids = answer.json.history.map((item: { _id: string }) => item._id);
		assert.deepEqual(ids, ["665e00000000000000000001", "665e00000000000000000002", recorded.json.history._id]);
		for (const item of answer.json.history) assert.equal("type" in item, false);
	});

	test("listHistory with no items answers success with a reason", async () => {
		const answer = await t.api.get("/staff/history", { key: "staffops-dev-key-0002" });
		expectStatus(answer, 200);
		assertShape(answers.listHistoryEmpty, answer.json);
		assert.equal(answer.json.reason, "No history found");
	});
});

describe("activity", () => {
	test("createServer registers a server and answers ids and the workspace", async () => {
		const answer = await t.api.post("/activity/createServer", serverBody());
		expectStatus(answer, 200);
		assertShape(answers.createServer, answer.json);
		assert.notEqual(answer.json.gameId, answer.json.runningGameId);
		assert.equal(answer.json.workspace.groupId, DEV_GROUP);
		assert.equal(answer.json.workspace.loaderId, "****0001");
		const again = await t.api.post("/activity/createServer", serverBody());
		assert.notEqual(again.json.gameId, answer.json.gameId, "each registration gets its own internal game id");
	});

	test("playerJoin of a staff member marks staff and opens a session", async () => {
		const server = await registerServer(t.api);
		const answer = await t.api.post(
			"/activity/playerJoin",
			joinBody(server.runningGameId, { playerId: 1003, platform: "Phone" }),
		);
		expectStatus(answer, 200);
		assertShape(answers.playerJoin, answer.json);
		assert.equal(answer.json.banned, false);
		assert.equal(answer.json.reason, "");
		assert.equal(answer.json.isStaff, true);
		assert.notEqual(answer.json.sessionId, "");
		assert.notEqual(answer.json.runningPlayerId, "");
	});

	test("playerJoin of a regular player is not staff", async () => {
		const server = await registerServer(t.api);
		const answer = await t.api.post("/activity/playerJoin", joinBody(server.runningGameId));
		expectStatus(answer, 200);
		assertShape(answers.playerJoin, answer.json);
		assert.equal(answer.json.isStaff, false);
		assert.equal(answer.json.banned, false);
	});

	test("playerJoin of a banned player answers the ban and does not add the player", async () => {
		const server = await registerServer(t.api);
		const answer = await t.api.post(
			"/activity/playerJoin",
			joinBody(server.runningGameId, { playerId: BANNED.userId }),
		);
		expectStatus(answer, 200);
		assertShape(answers.playerJoin, answer.json);
		assert.deepEqual(answer.json, {
			success: true,
			banned: true,
			reason: BANNED.reason,
			isStaff: false,
			sessionId: "",
			runningPlayerId: "",
		});
		const game = await t.api.get(`/games/running/${server.internalGameId}`);
		assert.deepEqual(game.json.runningGame.players, []);
		const state = await stateOf(t.control);
		assert.equal(state.workspaces[0].joins.length, 1);
		assert.equal(state.workspaces[0].joins[0].banned, true);
	});

	test("getActivity answers the seeded summary and sessions", async () => {
		const answer = await t.api.get("/activity/workspace/users/1001/activity");
		expectStatus(answer, 200);
		assertShape(answers.getActivity, answer.json);
		assert.equal(answer.json.summary.userId, "1001");
		assert.equal(answer.json.summary.groupId, DEV_GROUP);
		assert.equal(answer.json.sessions.length, 2);
		assert.deepEqual(
			answer.json.summary.sessions,
			["665d00000000000000000001", "665d00000000000000000002"],
			"the summary lists its sessions",
		);
		assert.equal(answer.json.sessions[0]._id, "665d00000000000000000002", "newest first");
	});

	test("sessions opened by joins appear in getActivity, also for a first-time player", async () => {
		const server = await registerServer(t.api, { gameId: 77, placeId: 88 });
		const join = await t.api.post("/activity/playerJoin", joinBody(server.runningGameId, { platform: "Console" }));
		const answer = await t.api.get(`/activity/workspace/users/${PLAYER}/activity`);
		expectStatus(answer, 200);
		assertShape(answers.getActivity, answer.json);
		assert.deepEqual(answer.json.summary.sessions, [join.json.sessionId]);
		const [session] = answer.json.sessions;
		assert.equal(session._id, join.json.sessionId);
		assert.equal(session.groupId, Number(DEV_GROUP));
		assert.equal(session.userId, PLAYER);
		assert.equal(session.gameId, 77);
		assert.equal(session.placeId, 88);
		assert.equal(session.internalGameId, server.internalGameId);
		assert.equal(session.platform, "Console");
		assert.equal(session.staff, false);
		assert.equal(session.inGame, true);
	});
});

describe("running games", () => {
	test("getRunningGame answers the server and its players", async () => {
		const server = await registerServer(t.api, {
			jobId: "job-A",
			privateServerId: "ps-1",
			privateServerOwnerId: 55,
		});
		const staff = await t.api.post("/activity/playerJoin", joinBody(server.runningGameId, { playerId: 1001 }));
		await t.api.post("/activity/playerJoin", joinBody(server.runningGameId, { platform: "unknown" }));
		const answer = await t.api.get(`/games/running/${server.internalGameId}`);
		expectStatus(answer, 200);
		assertShape(answers.getRunningGame, answer.json);
		const game = answer.json.runningGame;
		assert.equal(game._id, server.runningGameId);
		assert.equal(game.internalGameId, server.internalGameId);
		assert.equal(game.groupId, DEV_GROUP);
		assert.equal(game.jobId, "job-A");
		assert.equal(game.privateServerId, "ps-1");
		assert.equal(game.privateServerOwnerId, 55);
		assert.equal(game.placeVersion, "42");
		assert.deepEqual(game.players, ["1001", String(PLAYER)]);
		assert.equal(answer.json.players.length, 2);
		const [first, second] = answer.json.players;
		assert.equal(first._id, staff.json.runningPlayerId);
		assert.equal(first.runningGameId, server.runningGameId);
		assert.equal(first.internalGameId, server.internalGameId);
		assert.equal(first.isStaff, true);
		assert.equal(second.isStaff, false);
		assert.equal(second.platform, "unknown");
	});
});

describe("orders", () => {
	test("createOrder stores the order and answers it without status", async () => {
		const answer = await t.api.post("/orders", orderBody());
		expectStatus(answer, 200);
		assertShape(answers.createOrder, answer.json);
		const order = answer.json.order;
		assert.equal(order.groupId, DEV_GROUP);
		assert.deepEqual(order.items, orderBody().items);
		assert.deepEqual(order.involvedUsers, ["2001", "1004"]);
		assert.equal(order.log.length, 1);
	});

	test("releaseOrder sets status, logs the release and involves the actor", async () => {
		const created = await t.api.post("/orders", orderBody());
		const answer = await t.api.put(`/orders/${created.json.order._id}/release`, { actorId: "1002" });
		expectStatus(answer, 200);
		assertShape(answers.releaseOrder, answer.json);
		const order = answer.json.order;
		assert.equal(order.status, "released");
		assert.deepEqual(order.log.at(-1).event, "released");
		assert.deepEqual(order.log.at(-1).userId, "1002");
		assert.deepEqual(order.involvedUsers, ["2001", "1004", "1002"]);
		const state = await stateOf(t.control);
		assert.equal(state.workspaces[0].orders[0].status, "released");
	});
});

describe("time off", () => {
	test("listTimeOff answers every request with its approval chain", async () => {
		const answer = await t.api.get("/time-off");
		expectStatus(answer, 200);
		assertShape(answers.listTimeOff, answer.json);
		assert.equal(answer.json.requests.length, 3);
		const pending = answer.json.requests[0];
		assert.equal(pending.status, "pending");
		assert.equal(pending.groupId, DEV_GROUP);
		assert.equal(pending.approvalChain.length, 2);
		assert.deepEqual(pending.currentApproverIds, ["1001"]);
	});

	test("getTimeOff answers one request", async () => {
		const answer = await t.api.get("/time-off/665a00000000000000000002");
		expectStatus(answer, 200);
		assertShape(answers.getTimeOff, answer.json);
		assert.equal(answer.json.request.userId, "1004");
		assert.equal(answer.json.request.status, "approved");
	});
});

describe("calls and teams", () => {
	test("getCallMessages answers status and the messages that arrived", async () => {
		const answer = await t.api.get("/calls/call-demo/messages");
		expectStatus(answer, 200);
		assertShape(answers.getCallMessages, answer.json);
		assert.equal(answer.json.status, "open");
		assert.deepEqual(
			answer.json.messages.map((m: { id: string }) => m.id),
			["call-demo-1"],
			"only the message due at 0 s has arrived",
		);
		assert.equal(answer.json.messages[0].origin, "agent");
		assert.equal(answer.json.messages[0].sentFrom, "chatapp");
	});

	test("a closed call answers status closed", async () => {
		const answer = await t.api.get("/calls/call-closed/messages");
		expectStatus(answer, 200);
		assertShape(answers.getCallMessages, answer.json);
		assert.equal(answer.json.status, "closed");
		assert.equal(answer.json.messages.length, 2);
	});

	test("getUserTeams answers every membership of the user", async () => {
		const answer = await t.api.get("/teams/users/1005");
		expectStatus(answer, 200);
		assertShape(answers.getUserTeams, answer.json);
		assert.deepEqual(
			answer.json.teams.map((m: { teamId: string; roleName: string }) => [m.teamId, m.roleName]),
			[
				["team-moderation", "Trainee"],
				["team-cafe", "Cashier"],
			],
		);
	});

	test("getUserTeams of a user in no team answers an empty list", async () => {
		const answer = await t.api.get(`/teams/users/${PLAYER}`);
		expectStatus(answer, 200);
		assert.deepEqual(answer.json, { success: true, teams: [] });
	});
});
