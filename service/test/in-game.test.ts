/**
 * The deployed profile's sync, `POST /activity/sendData` (docs/service-contract.md#the-sync-route),
 * and the join fields the deployed service reads: each fact checked over real HTTP and through the control API.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { BANNED, PLAYER, expectFailure, expectStatus, joinBody, registerServer } from "../test-support/fixtures.js";
import { recordsOf, stateOf, useService } from "../test-support/service-under-test.js";

const t = useService({ profile: "deployed" });

const STAFF = 1003;

async function joinAs(runningGameId: string, playerId: number, overrides: Record<string, unknown> = {}) {
	const answer = await t.api.post("/activity/playerJoin", joinBody(runningGameId, { playerId, ...overrides }));
	expectStatus(answer, 200);
	return answer.json;
}

function sync(runningGameId: string, body: Record<string, unknown> = { events: [] }) {
	return t.api.post("/activity/sendData", { gameId: runningGameId, ...body });
}

async function queue(runningGameId: string, action: Record<string, unknown>) {
	expectStatus(await t.control.post("/_control/actions", { runningGameId, ...action }), 200);
}

async function devRecords() {
	return (await recordsOf(t.control)).workspaces[0];
}

async function presenceOf(runningGameId: string): Promise<number> {
	const server = (await devRecords()).servers.find(
		(s: { runningGameId: string }) => s.runningGameId === runningGameId,
	);
	return Date.parse(server.lastPresence);
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("sendData: a [running] route", () => {
	test("the running game id may come from ?gameId=; missing: 401, not 24-hex: 500, unknown: 404", async () => {
		const server = await registerServer(t.api);
		expectStatus(await t.api.post(`/activity/sendData?gameId=${server.runningGameId}`, { events: [] }), 200);
		expectFailure(await t.api.post("/activity/sendData", { events: [] }), 401);
		expectFailure(await sync(server.internalGameId), 500);
		expectFailure(await sync("0123456789abcdef01234567"), 404);
	});

	test("without events it breaks (500, not 400), and presence was refreshed all the same", async () => {
		const server = await registerServer(t.api);
		const before = await presenceOf(server.runningGameId);
		await tick();
		const answer = await sync(server.runningGameId, {});
		expectFailure(answer, 500);
		assert.ok((await presenceOf(server.runningGameId)) > before, "presence moved before the handler refused");
	});

	test("an empty sync answers success with no actions and no chats", async () => {
		const server = await registerServer(t.api);
		const answer = await sync(server.runningGameId);
		expectStatus(answer, 200);
		assert.deepEqual(answer.json, { success: true, queuedActions: [], ongoingChats: [] });
	});
});

/** A session event in the deployed service's shape (docs/service-contract.md#session-events). */
function sessionEvent(type: string, sessionId: string, datetime: number, user = String(STAFF)) {
	return {
		type,
		date: Math.floor(datetime / 1000),
		datetime,
		user,
		userKey: user,
		sessionIds: { userGameSession: sessionId },
	};
}

async function storedEvents() {
	return (await t.control.get("/_control/session-events")).json;
}

describe("sendData: session events", () => {
	test("are stored per session and deduplicated by session + type + datetime", async () => {
		const server = await registerServer(t.api);
		const { sessionId } = await joinAs(server.runningGameId, STAFF);
		const idle = sessionEvent("idle", sessionId, 1_700_000_000_000);
		const events = [idle, sessionEvent("active", sessionId, 1_700_000_000_000), { ...idle }];
		expectStatus(await sync(server.runningGameId, { events }), 200);
		expectStatus(
			await sync(server.runningGameId, { events: [idle, sessionEvent("idle", sessionId, 1_700_000_060_000)] }),
			200,
		);
		const stored = (await storedEvents()).events;
		assert.deepEqual(
			stored.map((e: { type: string; datetime: number; userId: string; sessionId: string }) => [
				e.type,
				e.datetime,
				e.userId,
				e.sessionId,
			]),
			[
				["idle", 1_700_000_000_000, String(STAFF), sessionId],
				["active", 1_700_000_000_000, String(STAFF), sessionId],
				["idle", 1_700_000_060_000, String(STAFF), sessionId],
			],
		);
	});

	test("datetime keeps changes within one second apart; without it, date (whole seconds) collapses them", async () => {
		const server = await registerServer(t.api);
		const { sessionId } = await joinAs(server.runningGameId, STAFF);
		// An alt-tab flick: idle, active, idle inside one second.
		const flick = [0, 300, 600].map((ms, i) =>
			sessionEvent(i === 1 ? "active" : "idle", sessionId, 1_700_000_000_100 + ms),
		);
		expectStatus(await sync(server.runningGameId, { events: flick }), 200);
		const secondsOnly = flick.map((event) => {
			const { datetime, ...rest } = event;
			return { ...rest, date: Math.floor(datetime / 1000) + 10 };
		});
		expectStatus(await sync(server.runningGameId, { events: secondsOnly }), 200);
		const json = await storedEvents();
		assert.deepEqual(
			json.events.map((e: { type: string }) => e.type),
			["idle", "active", "idle", "idle", "active"],
		);
		// Each stored event sets the session's active flag: the last one stored was `active`.
		assert.deepEqual(json.active, { [sessionId]: true });
	});

	test("an event without a truthy user or userGameSession is skipped silently (200, nothing stored)", async () => {
		const server = await registerServer(t.api);
		const { sessionId } = await joinAs(server.runningGameId, STAFF);
		const good = sessionEvent("typing", sessionId, 1_700_000_000_000);
		const events = [
			// The shape StaffOps sent before: {date, sessionId, type}.
			{ type: "idle", sessionId, date: 1_700_000_001 },
			{ ...good, user: "" },
			{ ...good, user: undefined },
			{ ...good, sessionIds: {} },
			{ ...good, sessionIds: { userGameSession: "" } },
			{ ...good, sessionIds: undefined },
		];
		const answer = await sync(server.runningGameId, { events });
		expectStatus(answer, 200);
		assert.deepEqual(answer.json, { success: true, queuedActions: [], ongoingChats: [] });
		assert.deepEqual((await storedEvents()).events, []);
	});

	test("an event for no session of the workspace is dropped", async () => {
		const server = await registerServer(t.api);
		const events = [sessionEvent("typing", "0123456789abcdef01234567", 1_000)];
		expectStatus(await sync(server.runningGameId, { events }), 200);
		assert.deepEqual((await storedEvents()).events, []);
	});

	test("an idle event clears the session's active flag; a message event keeps message, encoded and to", async () => {
		const server = await registerServer(t.api);
		const { sessionId } = await joinAs(server.runningGameId, STAFF);
		const message = {
			...sessionEvent("message", sessionId, 1_700_000_000_000),
			message: Buffer.from("привет").toString("base64"),
			encoded: true,
			to: "2002",
		};
		const idle = sessionEvent("idle", sessionId, 1_700_000_000_500);
		expectStatus(await sync(server.runningGameId, { events: [message, idle] }), 200);
		const json = await storedEvents();
		assert.equal(json.events.length, 2);
		assert.equal(Buffer.from(json.events[0].message, "base64").toString("utf8"), "привет");
		assert.equal(json.events[0].encoded, true);
		assert.equal(json.events[0].to, "2002");
		assert.deepEqual(json.active, { [sessionId]: false });
	});
});

describe("sendData: the players roster", () => {
	test("absent: nobody is removed", async () => {
		const server = await registerServer(t.api);
		await joinAs(server.runningGameId, PLAYER);
		await sync(server.runningGameId);
		assert.deepEqual((await devRecords()).openSessionsByUser, { [String(PLAYER)]: 1 });
	});

	test("every running player missing from it is removed at once: non-staff deleted, staff ended", async () => {
		const server = await registerServer(t.api);
		await joinAs(server.runningGameId, STAFF);
		await joinAs(server.runningGameId, PLAYER);
		await joinAs(server.runningGameId, 2002);
		expectStatus(await sync(server.runningGameId, { events: [], players: { "2002": "Player2002" } }), 200);
		const records = await devRecords();
		assert.deepEqual(records.openSessionsByUser, { "2002": 1 });
		const byUser = Object.fromEntries(
			records.sessions.map((s: { userId: string; deleted: boolean; inGame: boolean }) => [
				s.userId,
				[s.inGame, s.deleted],
			]),
		);
		assert.deepEqual(byUser, {
			[String(STAFF)]: [false, false],
			[String(PLAYER)]: [false, true],
			"2002": [true, false],
		});
		const state = await stateOf(t.control);
		assert.deepEqual(
			state.workspaces[0].runningPlayers.map((p: { userId: string }) => p.userId),
			["2002"],
		);
	});

	for (const [label, players] of [
		["[]", []],
		["an id array", [PLAYER, STAFF]],
		["other keys (names)", { Player2001: PLAYER }],
	] as const) {
		test(`${label} removes everyone`, async () => {
			const server = await registerServer(t.api);
			await joinAs(server.runningGameId, STAFF);
			await joinAs(server.runningGameId, PLAYER);
			expectStatus(await sync(server.runningGameId, { events: [], players }), 200);
			assert.deepEqual((await devRecords()).openSessionsByUser, {});
		});
	}
});

describe("sendData: queued actions", () => {
	test("kick, notify and shutdown for this server are handed over once, as queued", async () => {
		const server = await registerServer(t.api);
		const other = await registerServer(t.api);
		await queue(server.runningGameId, { type: "kick", userId: PLAYER, message: "Bye" });
		await queue(server.runningGameId, { type: "notify", userId: PLAYER, message: "Hello" });
		await queue(other.runningGameId, { type: "notify", userId: 2002, message: "Elsewhere" });
		await queue(server.runningGameId, { type: "shutdown", message: "Update" });
		const first = await sync(server.runningGameId);
		assert.deepEqual(first.json.queuedActions, [
			{ type: "kick", userId: PLAYER, message: "Bye" },
			{ type: "notify", userId: PLAYER, message: "Hello" },
			{ type: "shutdown", message: "Update" },
		]);
		assert.deepEqual((await sync(server.runningGameId)).json.queuedActions, [], "deleted as handed over");
		assert.equal((await sync(other.runningGameId)).json.queuedActions.length, 1);
	});

	test("a ban is a kick with ban:true and the player's next join is banned", async () => {
		const server = await registerServer(t.api);
		await queue(server.runningGameId, { type: "kick", userId: PLAYER, message: "Cheating", ban: true });
		assert.deepEqual((await sync(server.runningGameId)).json.queuedActions, [
			{ type: "kick", userId: PLAYER, message: "Cheating", ban: true },
		]);
		const rejoin = await joinAs(server.runningGameId, PLAYER);
		assert.equal(rejoin.banned, true);
		assert.equal(rejoin.reason, "Cheating");
	});

	test("a hostile action is handed over exactly as queued", async () => {
		const server = await registerServer(t.api);
		const hostile = { type: "explode", userId: "not-a-number", message: "x".repeat(100_000) };
		await queue(server.runningGameId, hostile);
		assert.deepEqual((await sync(server.runningGameId)).json.queuedActions, [hostile]);
	});

	test("an answer lost after acting (drop-after) loses the actions it carried", async () => {
		const server = await registerServer(t.api);
		await queue(server.runningGameId, { type: "kick", userId: PLAYER, message: "Bye" });
		await t.control.post("/_control/faults", { operation: "sendData", kind: "drop-after", times: 1 });
		await assert.rejects(sync(server.runningGameId));
		assert.deepEqual((await sync(server.runningGameId)).json.queuedActions, [], "lost with the answer");
		const actions = (await t.control.get("/_control/actions")).json;
		assert.deepEqual(actions.queued, []);
		assert.deepEqual(
			actions.delivered.map((d: { action: object; fault: string | null }) => [d.action, d.fault]),
			[[{ type: "kick", userId: PLAYER, message: "Bye" }, "drop-after"]],
			"the control API tells which actions went out in a lost answer",
		);
		const log = (await t.control.get("/_control/requests")).json;
		const syncs = log.requests.filter((r: { operation: string }) => r.operation === "sendData");
		assert.deepEqual(
			syncs.map((r: { status: number }) => r.status),
			[0, 200],
			"logged with status 0, once",
		);
		assert.equal(log.counts.sendData, 2);
	});

	test("a fault answering instead (503) keeps the actions for the next sync", async () => {
		const server = await registerServer(t.api);
		await queue(server.runningGameId, { type: "notify", userId: PLAYER, message: "Hi" });
		await t.control.post("/_control/faults", { operation: "sendData", status: 503, retryAfter: 3, times: 1 });
		const refused = await sync(server.runningGameId);
		expectFailure(refused, 503);
		assert.equal(refused.headers.get("retry-after"), "3");
		assert.equal((await sync(server.runningGameId)).json.queuedActions.length, 1);
	});
});

describe("playerJoin fields the deployed service reads", () => {
	test("datetime (Unix ms) is when the session starts; without it, when the request arrives", async () => {
		const server = await registerServer(t.api);
		const joinedAt = Date.now() - 68_000;
		await joinAs(server.runningGameId, PLAYER, { datetime: joinedAt });
		const before = Date.now();
		await joinAs(server.runningGameId, 2002);
		const sessions = (await devRecords()).sessions;
		assert.equal(Date.parse(sessions[0].started), joinedAt);
		assert.ok(Date.parse(sessions[1].started) >= before - 1000);
	});

	test("userKey names the user; displayName and the fields sent are kept in the join record", async () => {
		const server = await registerServer(t.api);
		await joinAs(server.runningGameId, PLAYER, { userKey: "2005", displayName: "Two Thousand Five" });
		assert.deepEqual((await devRecords()).joinsByUser, { "2005": 1 });
		const join = (await stateOf(t.control)).workspaces[0].joins[0];
		assert.equal(join.displayName, "Two Thousand Five");
		assert.equal("groupRank" in join, false);
	});

	test("groupRank is trusted for a player with no member record: a wrong value makes them staff", async () => {
		const server = await registerServer(t.api);
		assert.equal((await joinAs(server.runningGameId, PLAYER, { groupRank: 255 })).isStaff, true);
		assert.equal((await joinAs(server.runningGameId, 2002, { groupRank: 1 })).isStaff, false);
		assert.equal(
			(await joinAs(server.runningGameId, STAFF, { groupRank: 0 })).isStaff,
			true,
			"a member's record wins",
		);
		assert.equal((await stateOf(t.control)).workspaces[0].joins[0].groupRank, 255);
		assert.equal((await joinAs(server.runningGameId, BANNED.userId)).banned, true);
	});
});

describe("counts per route", () => {
	test("the new routes are logged under their operation ids", async () => {
		const server = await registerServer(t.api);
		await sync(server.runningGameId);
		await t.api.post("/activity/consent", { gameId: server.runningGameId, playerId: PLAYER, granted: true });
		await t.api.get("/calls?status=open");
		const counts = (await t.control.get("/_control/requests")).json.counts;
		assert.deepEqual(counts, { createServer: 1, sendData: 1, consent: 1, listCalls: 1 });
	});

	test("the default profile has none of them (404, still counted)", async () => {
		await t.control.post("/_control/reset", { profile: "default" });
		expectFailure(await t.api.post("/activity/sendData", { gameId: "0123456789abcdef01234567", events: [] }), 404);
		assert.deepEqual((await t.control.get("/_control/requests")).json.counts, { sendData: 1 });
	});
});
