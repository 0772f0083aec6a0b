import assert from "node:assert/strict";
import { test } from "node:test";
import { defaultSeed } from "../src/seed.js";
import {
	BANNED,
	DEV_KEY,
	PLAYER,
	expectStatus,
	historyBody,
	joinBody,
	orderBody,
	registerServer,
} from "../test-support/fixtures.js";
import {
	answers,
	assertShape,
	historyItem,
	releasedOrder,
	runningGame,
	runningPlayer,
} from "../test-support/shapes.js";
import {
	type Check,
	isArrayOf,
	isBoolean,
	isDateTime,
	isExactly,
	isIn,
	isNumber,
	isObjectOf,
	isOneOf,
	isString,
} from "../src/checks.js";
import { sleep } from "../src/time.js";
import { recordsOf, setConfig, stateOf, useService } from "../test-support/service-under-test.js";

const t = useService();

const stateShape = isObjectOf({
	success: isIn([true] as never),
	workspaces: isArrayOf(
		isObjectOf({
			groupId: isString,
			runningGames: isArrayOf(runningGame),
			runningPlayers: isArrayOf(runningPlayer),
			joins: isArrayOf(
				isObjectOf({
					userId: isString,
					runningGameId: isString,
					platform: isString,
					safechat: isBoolean,
					tzOffset: isString,
					username: isString,
					banned: isBoolean,
					at: isNumber,
				}),
			),
			history: isArrayOf(historyItem),
			orders: isArrayOf(releasedOrder),
		}),
	),
});

test("state reports what the service recorded", async () => {
	const server = await registerServer(t.api);
	await t.api.post("/activity/playerJoin", joinBody(server.runningGameId));
	await t.api.post("/orders", orderBody());
	await t.api.post("/staff/history", historyBody());
	const state = await stateOf(t.control);
	assertShape(stateShape, state, "state");
	const [dev] = state.workspaces;
	assert.equal(dev.runningGames[0].internalGameId, server.internalGameId);
	assert.equal(dev.runningPlayers[0].runningGameId, server.runningGameId);
	assert.equal(dev.orders[0].status, "submitted", "state shows the status createOrder leaves out");
	assert.equal(dev.history.at(-1).type, "promotion", "state shows history with type");
});

test("reset returns to the seed", async () => {
	const initial = await stateOf(t.control);
	await registerServer(t.api);
	await t.api.post("/orders", orderBody());
	await t.api.post("/staff/history", historyBody({ role: "Boss" }));
	expectStatus(await t.control.post("/_control/reset", {}), 200);
	assert.deepEqual(await stateOf(t.control), initial);
	const rank = await t.api.post("/staff/history", historyBody());
	assert.equal(rank.json.history.rankFrom, "Trainee", "ranks come back too");
});

test("reset can load another seed", async () => {
	const seed = defaultSeed();
	seed.workspaces[0].key = "custom-key-1234";
	seed.workspaces[0].staff = [];
	expectStatus(await t.control.post("/_control/reset", { seed }), 200);
	expectStatus(await t.api.get("/time-off"), 401);
	const custom = t.api.withKey("custom-key-1234");
	const server = await registerServer(custom);
	const join = await custom.post("/activity/playerJoin", joinBody(server.runningGameId, { playerId: 1001 }));
	assert.equal(join.json.isStaff, false);
	expectStatus(await t.control.post("/_control/reset"), 200);
	expectStatus(await t.api.get("/time-off"), 200);
});

test("reset accepts a seed larger than an operation body may be", async () => {
	const seed = defaultSeed();
	seed.workspaces[0].history[0].reason = "x".repeat(200 * 1024);
	expectStatus(await t.control.post("/_control/reset", { seed }), 200);
	const answer = await t.api.get("/staff/history");
	assert.equal(answer.json.history[0].reason.length, 200 * 1024);
});

test("reset refuses an invalid seed, naming the problem, and keeps the current state", async () => {
	await t.api.post("/orders", orderBody());
	const before = await stateOf(t.control);
	const seed = defaultSeed() as unknown as { workspaces: Record<string, unknown>[] };
	delete seed.workspaces[0].teams;
	const answer = await t.control.post("/_control/reset", { seed });
	expectStatus(answer, 400);
	assertShape(answers.failure, answer.json);
	assert.match(answer.json.reason, /seed\.workspaces\[0\]\.teams is missing/);
	assert.deepEqual(await stateOf(t.control), before);
	expectStatus(await t.control.post("/_control/reset", { seeds: {} }), 400);
	expectStatus(await t.control.post("/_control/reset", undefined, { raw: "{" }), 400);
	expectStatus(await t.control.post("/_control/reset", [1]), 400);
});

test("control answers never carry a key", async () => {
	for (const path of ["/_control/state", "/_control/faults", "/_control/requests", "/_control/config"]) {
		const answer = await t.control.get(path);
		expectStatus(answer, 200);
		assert.ok(!answer.text.includes(DEV_KEY), path);
	}
});

const counts: Check = (value, path) =>
	Object.entries((value ?? {}) as Record<string, unknown>).flatMap(([userId, n]) => isNumber(n, `${path}.${userId}`));
const strings: Check = (value, path) =>
	Object.entries((value ?? {}) as Record<string, unknown>).flatMap(([userId, tz]) =>
		isString(tz, `${path}.${userId}`),
	);

const recordsShape = isObjectOf({
	success: isExactly(true),
	profile: isString,
	workspaces: isArrayOf(
		isObjectOf({
			groupId: isString,
			joinsByUser: counts,
			sessionsByUser: counts,
			openSessionsByUser: counts,
			negativeMinuteSessions: isNumber,
			sessions: isArrayOf(
				isObjectOf({
					_id: isString,
					userId: isString,
					runningGameId: isString,
					internalGameId: isString,
					staff: isBoolean,
					inGame: isBoolean,
					deleted: isBoolean,
					started: isDateTime,
					ended: isDateTime,
					minutes: isNumber,
				}),
			),
			servers: isArrayOf(
				isObjectOf({
					runningGameId: isString,
					internalGameId: isString,
					jobId: isString,
					deleted: isBoolean,
					removal: isOneOf(isExactly(null), isString),
					removedAt: isOneOf(isExactly(null), isDateTime),
					lastPresence: isDateTime,
					players: isArrayOf(isString),
				}),
			),
			timezones: strings,
		}),
	),
});

test("records count joins and sessions per user; a second join replaces the session in the default profile", async () => {
	const server = await registerServer(t.api);
	await t.api.post("/activity/playerJoin", joinBody(server.runningGameId));
	await t.api.post("/activity/playerJoin", joinBody(server.runningGameId, { tzOffset: "+05:30" }));
	await t.api.post("/activity/playerJoin", joinBody(server.runningGameId, { playerId: BANNED.userId }));
	const records = await recordsOf(t.control);
	assertShape(recordsShape, records, "records");
	assert.equal(records.profile, "default");
	const [dev, other] = records.workspaces;
	assert.deepEqual(dev.joinsByUser, { [String(PLAYER)]: 2, [String(BANNED.userId)]: 1 });
	assert.deepEqual(dev.sessionsByUser, { [String(PLAYER)]: 2 });
	assert.deepEqual(dev.openSessionsByUser, { [String(PLAYER)]: 1 }, "the second join ended the first session");
	assert.deepEqual(
		dev.sessions.map((s: { inGame: boolean }) => s.inGame),
		[false, true],
	);
	assert.deepEqual(dev.servers, [
		{
			runningGameId: server.runningGameId,
			internalGameId: server.internalGameId,
			jobId: dev.servers[0].jobId,
			deleted: false,
			removal: null,
			removedAt: null,
			lastPresence: dev.servers[0].lastPresence,
			players: [String(PLAYER)],
		},
	]);
	assert.deepEqual(dev.timezones, { [String(PLAYER)]: "+05:30", [String(BANNED.userId)]: "-05:00" });
	assert.deepEqual(other.joinsByUser, {});
	assert.ok(!JSON.stringify(records).includes(DEV_KEY), "never the key");
});

test("records keep forgotten servers, marked deleted, and reset clears them", async () => {
	await setConfig(t.control, { forgetAfterSeconds: 0.2 });
	const quiet = await registerServer(t.api);
	const forgotten = await registerServer(t.api);
	expectStatus(await t.control.post("/_control/forget", { internalGameId: forgotten.internalGameId }), 200);
	await sleep(300);
	const [dev] = (await recordsOf(t.control)).workspaces;
	assert.deepEqual(
		dev.servers.map((s: { runningGameId: string; deleted: boolean; removal: string }) => [
			s.runningGameId,
			s.deleted,
			s.removal,
		]),
		[
			[quiet.runningGameId, true, "silence"],
			[forgotten.runningGameId, true, "forget"],
		],
	);
	expectStatus(await t.control.post("/_control/reset"), 200);
	assert.deepEqual((await recordsOf(t.control)).workspaces[0].servers, []);
});
