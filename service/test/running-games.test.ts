import assert from "node:assert/strict";
import { test } from "node:test";
import { PLAYER, expectStatus, joinBody, registerServer } from "../test-support/fixtures.js";
import { stateOf, useService } from "../test-support/service-under-test.js";
import { sleep } from "../src/time.js";

const t = useService();

async function setForgetAfter(seconds: number) {
	expectStatus(await t.control.post("/_control/config", { forgetAfterSeconds: seconds }), 200);
}

test("every accepted join is recorded in order with what the game sent", async () => {
	const server = await registerServer(t.api);
	await t.api.post("/activity/playerJoin", joinBody(server.runningGameId, { tzOffset: "+05:30", safechat: false }));
	await t.api.post(
		"/activity/playerJoin",
		joinBody(server.runningGameId, { playerId: 1002, username: "HeadModHana" }),
	);
	const { joins } = (await stateOf(t.control)).workspaces[0];
	assert.equal(joins.length, 2);
	const { at, ...first } = joins[0];
	assert.equal(typeof at, "number");
	assert.deepEqual(first, {
		userId: String(PLAYER),
		runningGameId: server.runningGameId,
		platform: "Desktop",
		safechat: false,
		tzOffset: "+05:30",
		username: "Player2001",
		banned: false,
	});
	assert.equal(joins[1].userId, "1002");
});

test("a second join of the same user replaces the player and ends the earlier session", async () => {
	const server = await registerServer(t.api);
	const first = await t.api.post("/activity/playerJoin", joinBody(server.runningGameId));
	const second = await t.api.post("/activity/playerJoin", joinBody(server.runningGameId, { platform: "Phone" }));
	assert.notEqual(first.json.runningPlayerId, second.json.runningPlayerId);
	const game = await t.api.get(`/games/running/${server.internalGameId}`);
	assert.deepEqual(game.json.runningGame.players, [String(PLAYER)]);
	assert.equal(game.json.players.length, 1);
	assert.equal(game.json.players[0].platform, "Phone");
	const state = await stateOf(t.control);
	assert.equal(state.workspaces[0].joins.length, 2, "both joins are recorded");
	const activity = await t.api.get(`/activity/workspace/users/${PLAYER}/activity`);
	const inGame = activity.json.sessions.map((s: { _id: string; inGame: boolean }) => [s._id, s.inGame]);
	assert.deepEqual(inGame, [
		[second.json.sessionId, true],
		[first.json.sessionId, false],
	]);
});

test("getRunningGame refreshes lastPing", async () => {
	const server = await registerServer(t.api);
	const first = await t.api.get(`/games/running/${server.internalGameId}`);
	await sleep(20);
	const second = await t.api.get(`/games/running/${server.internalGameId}`);
	assert.ok(Date.parse(second.json.runningGame.lastPing) > Date.parse(first.json.runningGame.lastPing));
});

test("a server quiet for longer than forgetAfterSeconds is forgotten", async () => {
	await setForgetAfter(0.25);
	const server = await registerServer(t.api);
	await t.api.post("/activity/playerJoin", joinBody(server.runningGameId));
	await sleep(400);
	const game = await t.api.get(`/games/running/${server.internalGameId}`);
	expectStatus(game, 404);
	assert.equal(game.json.success, false);
	assert.match(game.json.reason, /forgotten/);
	expectStatus(await t.api.post("/activity/playerJoin", joinBody(server.runningGameId)), 404);
	assert.equal((await stateOf(t.control)).workspaces[0].runningGames.length, 0);
	const activity = await t.api.get(`/activity/workspace/users/${PLAYER}/activity`);
	assert.equal(activity.json.sessions[0].inGame, false, "its sessions ended");
});

test("pings within the period keep a server known", async () => {
	await setForgetAfter(0.3);
	const server = await registerServer(t.api);
	for (let i = 0; i < 4; i += 1) {
		await sleep(150);
		expectStatus(await t.api.get(`/games/running/${server.internalGameId}`), 200);
	}
	await sleep(150);
	expectStatus(await t.api.post("/activity/playerJoin", joinBody(server.runningGameId)), 200);
});

test("a forgotten server can register again and gets new ids", async () => {
	const server = await registerServer(t.api);
	expectStatus(await t.control.post("/_control/forget", { internalGameId: server.internalGameId }), 200);
	expectStatus(await t.api.get(`/games/running/${server.internalGameId}`), 404);
	const again = await registerServer(t.api);
	assert.notEqual(again.internalGameId, server.internalGameId);
	expectStatus(await t.api.post("/activity/playerJoin", joinBody(again.runningGameId)), 200);
});

test("the forget period comes from startService and config, and reset restores it", async () => {
	assert.equal((await t.control.get("/_control/config")).json.forgetAfterSeconds, 180);
	await setForgetAfter(5);
	assert.equal((await t.control.get("/_control/config")).json.forgetAfterSeconds, 5);
	await t.control.post("/_control/reset");
	assert.equal((await t.control.get("/_control/config")).json.forgetAfterSeconds, 180);
	expectStatus(await t.control.post("/_control/config", { forgetAfterSeconds: 0 }), 400);
	expectStatus(await t.control.post("/_control/forget", { internalGameId: "nope" }), 404);
});
