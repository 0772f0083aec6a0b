/**
 * The deployed profile: what the deployed service really sends (docs/service-contract.md#what-the-deployed-service-sends, "What the deployed service really
 * sends"), each behaviour checked by status, body shape and the state change seen through the control API.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { sleep } from "../src/time.js";
import {
	BANNED,
	DEPLOYED_CALL_ID,
	DEV_KEY,
	PLAYER,
	expectFailure,
	expectStatus,
	joinBody,
	orderBody,
	registerServer,
	serverBody,
	unixSecondsAfter,
} from "../test-support/fixtures.js";
import { DOCUMENT_ID, deployedAnswers } from "../test-support/deployed-shapes.js";
import type { Answer } from "../test-support/http-client.js";
import { answers, assertShape, workspace as interfaceWorkspace } from "../test-support/shapes.js";
import { recordsOf, setConfig, stateOf, useService } from "../test-support/service-under-test.js";

const t = useService({ profile: "deployed" });

const STAFF = 1003;

async function join(runningGameId: string, overrides: Record<string, unknown> = {}): Promise<Answer> {
	return t.api.post("/activity/playerJoin", joinBody(runningGameId, overrides));
}

async function devRecords() {
	return (await recordsOf(t.control)).workspaces[0];
}

async function serverRecord(runningGameId: string) {
	const records = await devRecords();
	return records.servers.find((server: { runningGameId: string }) => server.runningGameId === runningGameId);
}

function leaveBody(runningGameId: string, playerId: number, leftTime?: number) {
	return { gameId: runningGameId, playerId: String(playerId), events: [], final: true, leftTime };
}

describe("profile switch and control", () => {
	test("config reports the deployed profile, its 20-minute silence limit and privacy off", async () => {
		const config = await t.control.get("/_control/config");
		expectStatus(config, 200);
		assert.deepEqual(config.json, { success: true, profile: "deployed", forgetAfterSeconds: 1200, privacy: false });
		const set = await setConfig(t.control, { forgetAfterSeconds: 2, privacy: true });
		assert.deepEqual(set, { success: true, profile: "deployed", forgetAfterSeconds: 2, privacy: true });
	});

	test("reset switches profile; a bare reset returns to the startup profile, limit and privacy", async () => {
		await setConfig(t.control, { privacy: true });
		expectStatus(await t.control.post("/_control/reset", { profile: "default" }), 200);
		assert.deepEqual((await t.control.get("/_control/config")).json, {
			success: true,
			profile: "default",
			forgetAfterSeconds: 180,
			privacy: false,
		});
		expectStatus(await t.api.post("/orders", orderBody()), 200);
		const privacy = await t.control.post("/_control/config", { privacy: true });
		expectFailure(privacy, 400);
		assert.match(privacy.json.reason, /deployed profile/);
		expectStatus(await t.control.post("/_control/reset"), 200);
		assert.equal((await t.control.get("/_control/config")).json.profile, "deployed");
		assert.equal((await t.control.get("/_control/config")).json.forgetAfterSeconds, 1200);
		expectStatus(await t.api.post("/orders", orderBody()), 404);
	});

	test("reset refuses an unknown profile and keeps the current one", async () => {
		const answer = await t.control.post("/_control/reset", { profile: "staging" });
		expectFailure(answer, 400);
		assert.match(answer.json.reason, /profile/);
		assert.equal((await t.control.get("/_control/config")).json.profile, "deployed");
	});
});

describe("ids", () => {
	test("runningGameId and every _id are 24-hex; the internal game id is not", async () => {
		const created = await t.api.post("/activity/createServer", serverBody());
		expectStatus(created, 200);
		assert.match(created.json.runningGameId, DOCUMENT_ID);
		assert.doesNotMatch(created.json.gameId, DOCUMENT_ID);
		const joined = await join(created.json.runningGameId);
		assert.match(joined.json.sessionId, DOCUMENT_ID);
		assert.match(joined.json.runningPlayerId, DOCUMENT_ID);
		const game = await t.api.get(`/games/running/${created.json.gameId}`);
		assert.match(game.json.runningGame._id, DOCUMENT_ID);
		assert.match(game.json.players[0]._id, DOCUMENT_ID);
	});

	test("a 24-hex call id is served; any other call id is a 500, an unknown 24-hex one a 404", async () => {
		const call = await t.api.get(`/calls/${DEPLOYED_CALL_ID}/messages`);
		expectStatus(call, 200);
		assertShape(answers.getCallMessages, call.json);
		assert.equal(call.json.status, "open");
		assert.deepEqual(
			call.json.messages.map((m: { message: string }) => m.message),
			["Hi! Thanks for calling StaffOps support."],
		);
		const named = await t.api.get("/calls/call-demo/messages");
		expectFailure(named, 500);
		assert.equal(named.json.reason, "Internal server error");
		expectFailure(await t.api.get("/calls/ffffffffffffffffffffffff/messages"), 404);
		expectStatus(await t.api.get(`/calls/${DEPLOYED_CALL_ID}/messages`), 200); // the service survived
	});
});

describe("createServer", () => {
	test("an empty jobId (Studio) is refused with 400 and registers nothing", async () => {
		const answer = await t.api.post("/activity/createServer", serverBody({ jobId: "" }));
		expectFailure(answer, 400);
		assert.match(answer.json.reason, /jobId/);
		assert.deepEqual((await devRecords()).servers, []);
		assert.deepEqual((await stateOf(t.control)).workspaces[0].runningGames, []);
	});

	test("the answer echoes the full key as loaderId, renames owner and managedBy, adds top-level fields", async () => {
		const answer = await t.api.post("/activity/createServer", serverBody({ jobId: "a1b2c3d4-0000" }));
		expectStatus(answer, 200);
		assertShape(deployedAnswers.createServer, answer.json);
		const { workspace } = answer.json;
		assert.equal(workspace.loaderId, DEV_KEY, "the deployed service echoes the key; the library must mask it");
		assert.deepEqual(workspace.owner, { id: "410000000000001001", platform: "1001" });
		assert.deepEqual(workspace.premium.managedBy, { platform: "1001", customer: "cus_dev_0001" });
		assert.notDeepEqual(interfaceWorkspace(workspace, "workspace"), [], "not the interface's workspace shape");
		assert.equal(answer.json.serverName, "StaffOps Dev Cafe #a1b2c3d4");
		assert.ok(Math.abs(Date.parse(answer.json.created) - Date.now()) < 5000);
		const record = await serverRecord(answer.json.runningGameId);
		assert.equal(record.internalGameId, answer.json.gameId);
		assert.equal(record.deleted, false);
	});
});

describe("playerJoin", () => {
	test("gameId missing: 401; not 24-hex (the internal id): 500; unknown 24-hex: 404; nothing recorded", async () => {
		const server = await registerServer(t.api);
		const body = joinBody(server.runningGameId) as Record<string, unknown>;
		delete body.gameId;
		expectFailure(await t.api.post("/activity/playerJoin", body), 401);
		const internal = await join(server.internalGameId);
		expectFailure(internal, 500);
		assert.equal(internal.json.reason, "Internal server error");
		const unknown = await join("0123456789abcdef01234567");
		expectFailure(unknown, 404);
		assert.deepEqual((await devRecords()).joinsByUser, {});
		assert.equal((await serverRecord(server.runningGameId)).players.length, 0);
	});

	test("the answer has tracked, needsConsent and expiration, banned:false and no reason", async () => {
		const server = await registerServer(t.api);
		const answer = await join(server.runningGameId, { playerId: STAFF });
		expectStatus(answer, 200);
		assertShape(deployedAnswers.playerJoin, answer.json);
		assert.deepEqual(Object.keys(answer.json).sort(), [
			"banned",
			"expiration",
			"isStaff",
			"needsConsent",
			"runningPlayerId",
			"sessionId",
			"success",
			"tracked",
		]);
		assert.equal(answer.json.banned, false);
		assert.equal(answer.json.isStaff, true);
		assert.equal(answer.json.tracked, true);
		assert.equal(answer.json.needsConsent, false);
		const expiresIn = Date.parse(answer.json.expiration) - Date.now();
		assert.ok(expiresIn > 1_190_000 && expiresIn <= 1_200_000, "expiration: when silence would delete it");
	});

	test("a banned player gets banned:true with the reason and is not added", async () => {
		const server = await registerServer(t.api);
		const answer = await join(server.runningGameId, { playerId: BANNED.userId });
		expectStatus(answer, 200);
		assertShape(deployedAnswers.playerJoin, answer.json);
		assert.equal(answer.json.banned, true);
		assert.equal(answer.json.reason, BANNED.reason);
		const records = await devRecords();
		assert.deepEqual(records.joinsByUser, { [String(BANNED.userId)]: 1 });
		assert.deepEqual(records.sessionsByUser, {});
		assert.deepEqual((await serverRecord(server.runningGameId)).players, []);
	});

	test("privacy mode leaves out banned (when false), sessionId and runningPlayerId", async () => {
		await setConfig(t.control, { privacy: true });
		const server = await registerServer(t.api);
		const answer = await join(server.runningGameId);
		expectStatus(answer, 200);
		assertShape(deployedAnswers.playerJoin, answer.json);
		for (const field of ["banned", "reason", "sessionId", "runningPlayerId"]) {
			assert.equal(field in answer.json, false, field);
		}
		const banned = await join(server.runningGameId, { playerId: BANNED.userId });
		assert.equal(banned.json.banned, true);
		assert.equal(banned.json.reason, BANNED.reason);
		assert.equal("sessionId" in banned.json, false);
		assert.deepEqual((await devRecords()).sessionsByUser, { [String(PLAYER)]: 1 }, "the session still opened");
		expectStatus(await t.control.post("/_control/reset"), 200);
		assert.equal((await t.control.get("/_control/config")).json.privacy, false, "reset clears it");
	});

	test("not idempotent: every join of the same user opens a new running player and session", async () => {
		const server = await registerServer(t.api);
		const first = await join(server.runningGameId);
		const second = await join(server.runningGameId);
		expectStatus(second, 200);
		assert.notEqual(first.json.sessionId, second.json.sessionId);
		assert.notEqual(first.json.runningPlayerId, second.json.runningPlayerId);
		const game = await t.api.get(`/games/running/${server.internalGameId}`);
		assert.deepEqual(game.json.runningGame.players, [String(PLAYER), String(PLAYER)]);
		assert.equal(game.json.players.length, 2);
		const records = await devRecords();
		assert.deepEqual(records.joinsByUser, { [String(PLAYER)]: 2 });
		assert.deepEqual(records.sessionsByUser, { [String(PLAYER)]: 2 });
		assert.deepEqual(records.openSessionsByUser, { [String(PLAYER)]: 2 }, "both stay in game");
		const activity = await t.api.get(`/activity/workspace/users/${PLAYER}/activity`);
		assert.deepEqual(
			activity.json.sessions.map((s: { inGame: boolean }) => s.inGame),
			[true, true],
		);
	});

	test("it checks nothing but gameId; a tzOffset not exactly ±HH:mm is stored empty", async () => {
		const server = await registerServer(t.api);
		const loose = await t.api.post("/activity/playerJoin", {
			gameId: server.runningGameId,
			playerId: 2002,
			tzOffset: "-5",
			platform: "Fridge",
			extra: true,
		});
		expectStatus(loose, 200);
		expectStatus(await join(server.runningGameId, { tzOffset: "+05:30" }), 200);
		expectStatus(await join(server.runningGameId, { playerId: 2003, tzOffset: "Z" }), 200);
		const records = await devRecords();
		assert.deepEqual(records.timezones, { "2001": "+05:30", "2002": "", "2003": "" });
		const joins = (await stateOf(t.control)).workspaces[0].joins;
		assert.equal(joins[0].tzOffset, "-5", "the join record keeps what was sent");
	});
});

describe("presence and deletion", () => {
	test("getRunningGame does not refresh presence; playerJoin does", async () => {
		const server = await registerServer(t.api);
		const before = (await serverRecord(server.runningGameId)).lastPresence;
		await sleep(20);
		const game = await t.api.get(`/games/running/${server.internalGameId}`);
		expectStatus(game, 200);
		assert.equal(game.json.runningGame.lastPing, before);
		assert.equal((await serverRecord(server.runningGameId)).lastPresence, before);
		await join(server.runningGameId);
		assert.ok(Date.parse((await serverRecord(server.runningGameId)).lastPresence) > Date.parse(before));
	});

	test("a silent server is deleted with its players and non-staff sessions; staff sessions end", async () => {
		await setConfig(t.control, { forgetAfterSeconds: 0.2 });
		const server = await registerServer(t.api);
		const staff = await join(server.runningGameId, { playerId: STAFF });
		const player = await join(server.runningGameId);
		const lastPresence = (await serverRecord(server.runningGameId)).lastPresence;
		for (let i = 0; i < 3; i += 1) {
			await sleep(100);
			await t.api.get(`/games/running/${server.internalGameId}`); // not a presence
		}
		const record = await serverRecord(server.runningGameId);
		assert.equal(record.deleted, true);
		assert.equal(record.removal, "silence");
		assert.equal(Date.parse(record.removedAt), Date.parse(lastPresence) + 200, "deleted when the limit ran out");
		const records = await devRecords();
		const sessions = Object.fromEntries(
			records.sessions.map((s: { _id: string }) => [s._id, s] as [string, Record<string, unknown>]),
		);
		assert.equal(sessions[player.json.sessionId].deleted, true);
		assert.equal(sessions[staff.json.sessionId].deleted, false);
		assert.equal(sessions[staff.json.sessionId].inGame, false);
		assert.equal(sessions[staff.json.sessionId].ended, record.removedAt);
		assert.deepEqual(records.openSessionsByUser, {});

		expectFailure(await t.api.get(`/games/running/${server.internalGameId}`), 404);
		expectFailure(await join(server.runningGameId), 404);
		assert.deepEqual((await stateOf(t.control)).workspaces[0].runningPlayers, []);
		const playerActivity = await t.api.get(`/activity/workspace/users/${PLAYER}/activity`);
		assert.deepEqual(playerActivity.json.sessions, [], "the player's session is gone");
		assert.deepEqual(playerActivity.json.summary.sessions, []);
		const staffActivity = await t.api.get(`/activity/workspace/users/${STAFF}/activity`);
		const staffSession = staffActivity.json.sessions.find((s: { _id: string }) => s._id === staff.json.sessionId);
		assert.equal(staffSession.inGame, false);
	});

	test("/_control/forget deletes a server at once, as silence would", async () => {
		const server = await registerServer(t.api);
		const player = await join(server.runningGameId);
		expectStatus(await t.control.post("/_control/forget", { internalGameId: server.internalGameId }), 200);
		const record = await serverRecord(server.runningGameId);
		assert.deepEqual([record.deleted, record.removal], [true, "forget"]);
		const [session] = (await devRecords()).sessions;
		assert.deepEqual([session._id, session.deleted], [player.json.sessionId, true]);
	});

	test("deletion happens on time without any state request, seen through records alone", async () => {
		await setConfig(t.control, { forgetAfterSeconds: 0.1 });
		const server = await registerServer(t.api);
		await sleep(200);
		assert.equal((await serverRecord(server.runningGameId)).deleted, true);
	});

	test("operations naming the running game (getServer here) keep it alive", async () => {
		await setConfig(t.control, { forgetAfterSeconds: 0.3 });
		const server = await registerServer(t.api);
		for (let i = 0; i < 4; i += 1) {
			await sleep(100);
			expectStatus(await t.api.post("/activity/getServer", { gameId: server.runningGameId }), 200);
		}
		assert.equal((await serverRecord(server.runningGameId)).deleted, false);
		expectStatus(await join(server.runningGameId), 200);
	});
});

describe("extension routes", () => {
	test("playerLeave/v2 ends the player's session at leftTime and is idempotent", async () => {
		const server = await registerServer(t.api);
		const joined = await join(server.runningGameId, { playerId: STAFF });
		const started = (await devRecords()).sessions[0].started;
		const leftTime = unixSecondsAfter(started, 125);
		const answer = await t.api.post("/activity/playerLeave/v2", leaveBody(server.runningGameId, STAFF, leftTime));
		expectStatus(answer, 200);
		assertShape(deployedAnswers.playerLeave, answer.json);
		assert.deepEqual(answer.json, { success: true, finalized: true });
		const [session] = (await devRecords()).sessions;
		assert.equal(session._id, joined.json.sessionId);
		assert.equal(session.inGame, false);
		assert.equal(session.ended, new Date(leftTime * 1000).toISOString());
		assert.equal(session.minutes, 2, "whole minutes from started to leftTime");
		assert.deepEqual((await serverRecord(server.runningGameId)).players, []);
		const activity = await t.api.get(`/activity/workspace/users/${STAFF}/activity`);
		assert.equal(activity.json.sessions[0].minutes.total, 2);

		const again = await t.api.post("/activity/playerLeave/v2", leaveBody(server.runningGameId, STAFF, leftTime));
		expectStatus(again, 200);
		assert.deepEqual(again.json, { success: true, finalized: false });
	});

	test("playerLeave/v2 ends the session at datetime (ms) when sent, else at leftTime's whole second", async () => {
		const server = await registerServer(t.api);
		// Two visits that end 400 ms after their join's datetime, within the join's second.
		const startMs = Math.floor(Date.now() / 1000) * 1000 + 300;
		await join(server.runningGameId, { playerId: STAFF, datetime: startMs });
		await join(server.runningGameId, { playerId: PLAYER, datetime: startMs });
		const leftTime = Math.floor(startMs / 1000);
		const withMs = { ...leaveBody(server.runningGameId, STAFF, leftTime), datetime: startMs + 400 };
		expectStatus(await t.api.post("/activity/playerLeave/v2", withMs), 200);
		expectStatus(
			await t.api.post("/activity/playerLeave/v2", leaveBody(server.runningGameId, PLAYER, leftTime)),
			200,
		);
		const records = await devRecords();
		const byUser = (userId: number) =>
			records.sessions.find((session: { userId: string }) => session.userId === String(userId));
		assert.equal(byUser(STAFF).ended, new Date(startMs + 400).toISOString(), "ended at datetime, to the ms");
		assert.equal(byUser(STAFF).minutes, 0);
		// Without datetime the end is cut to the second, 300 ms before the start: negative minutes, as deployed.
		assert.equal(byUser(PLAYER).ended, new Date(leftTime * 1000).toISOString());
		assert.equal(byUser(PLAYER).minutes, -0.01);
		assert.equal(records.negativeMinuteSessions, 1);
		const activity = await t.api.get(`/activity/workspace/users/${PLAYER}/activity`);
		assert.equal(activity.json.sessions[0].minutes.total, -0.01);
	});

	test("getRunningGame lists each player's userSessionId; events are stored only under that session id", async () => {
		const server = await registerServer(t.api);
		const first = await join(server.runningGameId, { playerId: STAFF });
		const second = await join(server.runningGameId, { playerId: STAFF });
		const game = await t.api.get(`/games/running/${server.internalGameId}`);
		expectStatus(game, 200);
		assertShape(deployedAnswers.getRunningGame, game.json);
		// The deployed service adds a record per join: each names the session its join opened.
		assert.deepEqual(
			game.json.players.map((player: { userSessionId: string }) => player.userSessionId),
			[first.json.sessionId, second.json.sessionId],
		);
		const event = (sessionId: unknown) => ({
			type: "idle",
			date: 1_700_000_000,
			datetime: 1_700_000_000_000,
			user: String(STAFF),
			userKey: String(STAFF),
			sessionIds: { userGameSession: sessionId },
		});
		const events = [event(game.json.players[0].userSessionId), event(undefined), event(game.json.players[0]._id)];
		expectStatus(await t.api.post("/activity/sendData", { gameId: server.runningGameId, events }), 200);
		const stored = (await t.control.get("/_control/session-events")).json.events;
		assert.deepEqual(
			stored.map((e: { sessionId: string }) => e.sessionId),
			[first.json.sessionId],
		);
	});

	test("playerLeave/v2 ends the player's first open session in the workspace: a repeat ends the next one", async () => {
		const first = await registerServer(t.api);
		const second = await registerServer(t.api);
		await join(first.runningGameId);
		await join(first.runningGameId, { playerId: STAFF });
		// The player moved on: a session on the second server too.
		await join(second.runningGameId);
		const leave = () =>
			t.api.post(
				"/activity/playerLeave/v2",
				leaveBody(first.runningGameId, PLAYER, Math.floor(Date.now() / 1000)),
			);
		assert.equal((await leave()).json.finalized, true);
		assert.deepEqual((await devRecords()).openSessionsByUser, { [String(PLAYER)]: 1, [String(STAFF)]: 1 });
		assert.deepEqual((await serverRecord(first.runningGameId)).players, [String(STAFF)]);
		// A repeated (or late) leave ends the session on the server the player moved to.
		assert.equal((await leave()).json.finalized, true);
		assert.deepEqual((await devRecords()).openSessionsByUser, { [String(STAFF)]: 1 });
		assert.deepEqual((await serverRecord(second.runningGameId)).players, []);
		assert.equal((await leave()).json.finalized, false);
	});

	test("a final chunk without leftTime is a 400 with error (not reason); a non-final chunk ends nothing", async () => {
		const server = await registerServer(t.api);
		await join(server.runningGameId);
		const answer = await t.api.post("/activity/playerLeave/v2", leaveBody(server.runningGameId, PLAYER));
		expectStatus(answer, 400);
		assertShape(deployedAnswers.errorFailure, answer.json);
		const chunk = await t.api.post("/activity/playerLeave/v2", {
			gameId: server.runningGameId,
			playerId: String(PLAYER),
			events: [],
			final: false,
		});
		assert.deepEqual(chunk.json, { success: true, finalized: false });
		assert.deepEqual((await devRecords()).openSessionsByUser, { [String(PLAYER)]: 1 });
	});

	test("endServer deletes the non-staff sessions still in game, ends the staff ones and removes the server", async () => {
		const server = await registerServer(t.api);
		await join(server.runningGameId, { playerId: STAFF });
		await join(server.runningGameId);
		const answer = await t.api.delete("/activity/endServer", { body: { gameId: server.runningGameId } });
		expectStatus(answer, 200);
		assertShape(deployedAnswers.endServer, answer.json);
		const records = await devRecords();
		assert.deepEqual(records.openSessionsByUser, {});
		assert.ok(records.sessions.every((s: { inGame: boolean }) => !s.inGame));
		const deletedByUser = Object.fromEntries(
			records.sessions.map((s: { userId: string; deleted: boolean }) => [s.userId, s.deleted]),
		);
		assert.deepEqual(deletedByUser, { [String(STAFF)]: false, [String(PLAYER)]: true });
		const record = await serverRecord(server.runningGameId);
		assert.equal(record.deleted, true);
		assert.equal(record.removal, "endServer");
		expectFailure(await t.api.get(`/games/running/${server.internalGameId}`), 404);
		expectFailure(await t.api.delete("/activity/endServer", { body: { gameId: server.runningGameId } }), 404);
	});

	test("getServer answers the same workspace as createServer", async () => {
		const created = await t.api.post("/activity/createServer", serverBody());
		const answer = await t.api.post("/activity/getServer", { gameId: created.json.runningGameId });
		expectStatus(answer, 200);
		assertShape(deployedAnswers.getServer, answer.json);
		assert.deepEqual(answer.json.workspace, created.json.workspace);
	});

	test("an unknown or deleted running game is a 404; a missing gameId a 401; a malformed one a 500", async () => {
		const unknown = "0123456789abcdef01234567";
		expectFailure(await t.api.post("/activity/playerLeave/v2", leaveBody(unknown, PLAYER, 1)), 404);
		expectFailure(await t.api.delete("/activity/endServer", { body: { gameId: unknown } }), 404);
		expectFailure(await t.api.post("/activity/getServer", { gameId: unknown }), 404);
		expectFailure(await t.api.post("/activity/getServer", {}), 401);
		expectFailure(await t.api.post("/activity/getServer", { gameId: "call-demo" }), 500);
		expectFailure(await t.api.post("/activity/getServer", { gameId: unknown }, { key: null }), 401);
	});

	test("they are logged under playerLeave, endServer and getServer, and fault rules can target them", async () => {
		const server = await registerServer(t.api);
		expectStatus(await t.control.delete("/_control/requests"), 200);
		await t.api.post("/activity/getServer", { gameId: server.runningGameId });
		await t.api.post("/activity/playerLeave/v2", leaveBody(server.runningGameId, PLAYER, 1));
		await t.api.delete("/activity/endServer", { body: { gameId: server.runningGameId } });
		const log = await t.control.get("/_control/requests");
		assert.deepEqual(log.json.counts, { getServer: 1, playerLeave: 1, endServer: 1 });
		expectStatus(await t.control.post("/_control/faults", { operation: "getServer", status: 503, times: 1 }), 200);
		expectFailure(await t.api.post("/activity/getServer", { gameId: server.runningGameId }), 503);
	});

	test("the default profile answers them as unknown routes, before the key check", async () => {
		expectStatus(await t.control.post("/_control/reset", { profile: "default" }), 200);
		for (const [method, path] of [
			["POST", "/activity/playerLeave/v2"],
			["DELETE", "/activity/endServer"],
			["POST", "/activity/getServer"],
		]) {
			const answer = await t.api.request(method, path, { body: { gameId: "x" }, key: null });
			expectFailure(answer, 404);
			assert.equal(answer.json.reason, `No operation at ${method} ${path}`);
		}
		const log = await t.control.get("/_control/requests");
		assert.deepEqual(log.json.counts, { playerLeave: 1, endServer: 1, getServer: 1 });
	});
});

describe("history, activity, orders and unknown routes", () => {
	test("the seeded history shows numeric ids, rankTo false, a missing ended, and type in the list", async () => {
		const answer = await t.api.get("/staff/history");
		expectStatus(answer, 200);
		assertShape(deployedAnswers.listHistory, answer.json);
		const [legacy, writeup] = answer.json.history;
		assert.equal(legacy.type, "promotion");
		assert.equal(legacy.userId, 1003);
		assert.equal(legacy.disciplinarianId, 1002);
		assert.equal(writeup.type, "writeup");
		assert.equal(writeup.rankTo, false);
		assert.equal("ended" in writeup, false);
		assert.equal(writeup.userId, "1005", "newer items keep string ids");
	});

	test("activity of a user without a summary: summary null and no sessions", async () => {
		const answer = await t.api.get(`/activity/workspace/users/${PLAYER}/activity`);
		expectStatus(answer, 200);
		assertShape(deployedAnswers.getActivityNone, answer.json);
		assert.deepEqual(answer.json, { success: true, summary: null, sessions: [] });
		assertShape(answers.getActivity, (await t.api.get("/activity/workspace/users/1001/activity")).json);
	});

	test("the order routes answer NestJS's 404 without success, and create nothing", async () => {
		const create = await t.api.post("/orders", orderBody());
		expectStatus(create, 404);
		assertShape(deployedAnswers.nestNotFound, create.json);
		assert.deepEqual(create.json, { message: "Cannot POST /orders", error: "Not Found", statusCode: 404 });
		const release = await t.api.put("/orders/665f00000000000000000001/release", { actorId: "1004" });
		assert.deepEqual(release.json, {
			message: "Cannot PUT /orders/665f00000000000000000001/release",
			error: "Not Found",
			statusCode: 404,
		});
		assert.deepEqual((await stateOf(t.control)).workspaces[0].orders, []);
		const log = await t.control.get("/_control/requests");
		assert.deepEqual(log.json.counts, { createOrder: 1, releaseOrder: 1 });
	});

	test("unknown routes answer NestJS's 404 too", async () => {
		const answer = await t.api.get("/nothing/here?x=1");
		expectStatus(answer, 404);
		assert.deepEqual(answer.json, { message: "Cannot GET /nothing/here", error: "Not Found", statusCode: 404 });
	});

	test("teams and time off answer as in the default profile", async () => {
		const teams = await t.api.get("/teams/users/1005");
		assertShape(answers.getUserTeams, teams.json);
		assert.equal(teams.json.teams.length, 2);
		assertShape(answers.listTimeOff, (await t.api.get("/time-off")).json);
		assertShape(answers.getTimeOff, (await t.api.get("/time-off/665a00000000000000000001")).json);
	});
});
