import assert from "node:assert/strict";
import { test } from "node:test";
import {
	DEV_KEY,
	OTHER_GROUP,
	OTHER_KEY,
	expectStatus,
	historyBody,
	joinBody,
	orderBody,
	registerServer,
	serverBody,
} from "../test-support/fixtures.js";
import { stateOf, useService } from "../test-support/service-under-test.js";

const t = useService();

test("a key sees only its own workspace's data", async () => {
	const other = t.api.withKey(OTHER_KEY);
	const server = await registerServer(t.api);
	const order = await t.api.post("/orders", orderBody());
	await t.api.post("/staff/history", historyBody());

	expectStatus(await other.get(`/games/running/${server.internalGameId}`), 404);
	expectStatus(await other.post("/activity/playerJoin", joinBody(server.runningGameId)), 404);
	expectStatus(await other.put(`/orders/${order.json.order._id}/release`, { actorId: "3001" }), 404);
	expectStatus(await other.get("/time-off/665a00000000000000000001"), 404);
	expectStatus(await other.get("/calls/call-demo/messages"), 404);
	expectStatus(await other.get("/activity/workspace/users/1001/activity"), 404);
	assert.deepEqual((await other.get("/teams/users/1001")).json.teams, []);
	assert.equal((await other.get("/staff/history")).json.reason, "No history found");
	const timeOff = await other.get("/time-off");
	assert.deepEqual(
		timeOff.json.requests.map((r: { groupId: string }) => r.groupId),
		[OTHER_GROUP],
	);

	expectStatus(await t.api.get("/calls/call-other/messages"), 404);
	expectStatus(await t.api.get("/activity/workspace/users/3001/activity"), 404);
});

test("createServer's workspace belongs to the caller and never carries the key", async () => {
	const mine = await t.api.post("/activity/createServer", serverBody());
	const theirs = await t.api.withKey(OTHER_KEY).post("/activity/createServer", serverBody());
	assert.equal(theirs.json.workspace.groupId, OTHER_GROUP);
	assert.equal(theirs.json.workspace.groupName, "Other Studio");
	assert.ok(!theirs.text.includes("5012345"), "nothing of the other workspace");
	assert.ok(!mine.text.includes(DEV_KEY));
	assert.ok(!theirs.text.includes(OTHER_KEY));
	assert.equal(mine.json.workspace.loaderId, "****0001");
});

test("state is recorded per workspace", async () => {
	const other = t.api.withKey(OTHER_KEY);
	const server = await registerServer(other);
	await other.post("/activity/playerJoin", joinBody(server.runningGameId, { playerId: 3002 }));
	const state = await stateOf(t.control);
	const [dev, studio] = state.workspaces;
	assert.equal(dev.runningGames.length, 0);
	assert.equal(dev.joins.length, 0);
	assert.equal(studio.groupId, OTHER_GROUP);
	assert.equal(studio.runningGames.length, 1);
	assert.equal(studio.runningPlayers[0].isStaff, true);
	assert.ok(!JSON.stringify(state).includes(DEV_KEY) && !JSON.stringify(state).includes(OTHER_KEY));
});
