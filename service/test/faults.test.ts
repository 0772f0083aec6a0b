import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { sleep } from "../src/time.js";
import {
	DEV_KEY,
	PLAYER,
	expectStatus,
	historyBody,
	joinBody,
	orderBody,
	registerServer,
} from "../test-support/fixtures.js";
import { answers, assertShape } from "../test-support/shapes.js";
import { stateOf, useService } from "../test-support/service-under-test.js";

const t = useService();

async function addFault(spec: Record<string, unknown>): Promise<string> {
	const answer = await t.control.post("/_control/faults", spec);
	expectStatus(answer, 200);
	assert.equal(answer.json.success, true);
	return answer.json.id;
}

async function requestLog(since = 0) {
	const answer = await t.control.get(`/_control/requests?since=${since}`);
	expectStatus(answer, 200);
	return answer.json;
}

describe("faults that answer instead of the operation", () => {
	test("status with retryAfter answers that status for `times` requests, then the operation runs", async () => {
		await addFault({ operation: "createOrder", status: 503, retryAfter: 2, times: 2 });
		for (let i = 0; i < 2; i += 1) {
			const answer = await t.api.post("/orders", orderBody());
			expectStatus(answer, 503);
			assert.deepEqual(answer.json, { success: false, reason: "Injected failure" });
			assert.equal(answer.headers.get("retry-after"), "2");
		}
		expectStatus(await t.api.post("/orders", orderBody()), 200);
		assert.equal((await stateOf(t.control)).workspaces[0].orders.length, 1, "failed attempts stored nothing");
		const log = await requestLog();
		assert.deepEqual(
			log.requests.map((r: { status: number }) => r.status),
			[503, 503, 200],
		);
		assert.equal(log.counts.createOrder, 3);
	});

	test("success-false answers 200 with success false and stores nothing", async () => {
		await addFault({ operation: "recordHistory", kind: "success-false" });
		const answer = await t.api.post("/staff/history", historyBody());
		expectStatus(answer, 200);
		assert.deepEqual(answer.json, { success: false, reason: "Injected failure" });
		assert.equal((await stateOf(t.control)).workspaces[0].history.length, 2, "only the seeded items");
	});

	test("success-false takes a status too", async () => {
		await addFault({ operation: "getUserTeams", kind: "success-false", status: 429, retryAfter: 1 });
		const answer = await t.api.get("/teams/users/1001");
		expectStatus(answer, 429);
		assertShape(answers.failure, answer.json);
		assert.equal(answer.headers.get("retry-after"), "1");
	});

	test("drop closes the connection without an answer and changes nothing", async () => {
		const server = await registerServer(t.api);
		await addFault({ operation: "playerJoin", kind: "drop", times: 1 });
		await assert.rejects(t.api.post("/activity/playerJoin", joinBody(server.runningGameId)));
		const state = await stateOf(t.control);
		assert.equal(state.workspaces[0].joins.length, 0);
		const dropped = (await requestLog()).requests.find((r: { operation: string }) => r.operation === "playerJoin");
		assert.equal(dropped.status, 0, "logged with status 0");
		assert.equal(dropped.body.gameId, server.runningGameId);
		expectStatus(await t.api.post("/activity/playerJoin", joinBody(server.runningGameId)), 200);
	});
});

describe("faults that spoil the operation's answer", () => {
	test("malformed answers 200 with a body that is not JSON, after the operation ran", async () => {
		await addFault({ operation: "createOrder", kind: "malformed" });
		const answer = await t.api.post("/orders", orderBody());
		expectStatus(answer, 200);
		assert.equal(answer.json, undefined, "not JSON");
		assert.match(answer.headers.get("content-type") ?? "", /application\/json/);
		assert.equal((await stateOf(t.control)).workspaces[0].orders.length, 1, "the order was created");
	});

	test("truncated answers the first half of the real JSON", async () => {
		const whole = await t.api.get("/time-off");
		await addFault({ operation: "listTimeOff", kind: "truncated" });
		const answer = await t.api.get("/time-off");
		expectStatus(answer, 200);
		assert.equal(answer.json, undefined);
		assert.equal(answer.text, whole.text.slice(0, Math.floor(whole.text.length / 2)));
	});

	test("wrong-types keeps the shape and success but changes the types of the fields", async () => {
		const server = await registerServer(t.api);
		await t.api.post("/activity/playerJoin", joinBody(server.runningGameId));
		const real = await t.api.get(`/games/running/${server.internalGameId}`);
		await addFault({ operation: "getRunningGame", kind: "wrong-types" });
		const answer = await t.api.get(`/games/running/${server.internalGameId}`);
		expectStatus(answer, 200);
		assert.equal(answer.json.success, true);
		assert.equal(typeof answer.json.runningGame.gameId, "string");
		assert.equal(typeof answer.json.runningGame.jobId, "number");
		assert.equal(typeof answer.json.players[0].isStaff, "string");
		assert.deepEqual(Object.keys(answer.json.runningGame), Object.keys(real.json.runningGame));
		assert.equal(answer.json.players.length, real.json.players.length);
		assert.notDeepEqual(answers.getRunningGame(answer.json, "answer"), []);
	});

	test("extended sets top-level fields of the real answer to values the client has not met", async () => {
		await addFault({ operation: "getCallMessages", kind: "extended", fields: { status: "escalated" }, times: 1 });
		const answer = await t.api.get("/calls/call-demo/messages");
		expectStatus(answer, 200);
		assert.equal(answer.json.success, true);
		assert.equal(answer.json.status, "escalated");
		assert.ok(Array.isArray(answer.json.messages));
		assert.equal((await t.api.get("/calls/call-demo/messages")).json.status, "open");
	});

	test("extended sets a nested field by its path; a path that leads nowhere changes nothing", async () => {
		for (const message of ["Hello", "How can I help?"]) {
			const added = await t.control.post("/_control/calls/call-demo/messages", {
				username: "Agent",
				userId: 7,
				message,
			});
			expectStatus(added, 200);
		}
		const before = (await t.api.get("/calls/call-demo/messages")).json;
		assert.ok(before.messages.length >= 2, "the call has messages");
		await addFault({
			operation: "getCallMessages",
			kind: "extended",
			fields: { "messages.1.origin": "escalation", "messages.99.origin": "x", "nowhere.origin": "x" },
			times: 1,
		});
		const answer = await t.api.get("/calls/call-demo/messages");
		expectStatus(answer, 200);
		assert.equal(answer.json.messages[1].origin, "escalation");
		assert.deepEqual(
			answer.json.messages.map((m: { id: string }) => m.id),
			before.messages.map((m: { id: string }) => m.id),
			"no message added or lost",
		);
		assert.deepEqual({ ...answer.json.messages[1], origin: before.messages[1].origin }, before.messages[1]);
		assert.deepEqual(answer.json.messages[0], before.messages[0]);
		assert.equal(answer.json.nowhere, undefined);
		assert.equal((await t.api.get("/calls/call-demo/messages")).json.messages[1].origin, before.messages[1].origin);
	});

	test("extended refuses a name that is not a path, and never follows one into the prototype", async () => {
		for (const name of ["a..b", ".a", "a b", "a.", "x".repeat(201)]) {
			const answer = await t.control.post("/_control/faults", {
				operation: "getCallMessages",
				kind: "extended",
				fields: { [name]: "x" },
			});
			expectStatus(answer, 400);
		}
		await addFault({ operation: "getCallMessages", kind: "extended", fields: { "__proto__.x": "x" }, times: 1 });
		const spoiled = await t.api.get("/calls/call-demo/messages");
		expectStatus(spoiled, 200);
		assert.equal(spoiled.json.x, undefined);
		assert.equal(({} as Record<string, unknown>).x, undefined);
	});

	test("latency delays the answer; the operation itself runs at once", async () => {
		await addFault({ operation: "createOrder", latencyMs: 400 });
		const started = Date.now();
		const pending = t.api.post("/orders", orderBody());
		await sleep(150);
		assert.equal((await stateOf(t.control)).workspaces[0].orders.length, 1, "stored before the answer");
		const answer = await pending;
		expectStatus(answer, 200);
		assertShape(answers.createOrder, answer.json);
		assert.ok(Date.now() - started >= 390, "answer came after the latency");
	});

	test("latency combined with status delays the injected failure", async () => {
		await addFault({ operation: "getUserTeams", latencyMs: 200, status: 500 });
		const started = Date.now();
		const answer = await t.api.get("/teams/users/1001");
		expectStatus(answer, 500);
		assert.ok(Date.now() - started >= 190);
	});
});

describe("late: the request waits before it acts", () => {
	test("the operation acts only after the latency, even after the client gave up, and a later read is answered first", async () => {
		const server = await registerServer(t.api);
		await addFault({ operation: "playerJoin", kind: "late", latencyMs: 600, times: 1 });
		const started = Date.now();
		// The client gives up after 100 ms, as a library's request timeout would.
		await assert.rejects(
			fetch(t.api.baseUrl + "/activity/playerJoin", {
				method: "POST",
				headers: { "loader-id": DEV_KEY, "content-type": "application/json" },
				body: JSON.stringify(joinBody(server.runningGameId)),
				signal: AbortSignal.timeout(100),
			}),
		);
		const read = await t.api.get(`/games/running/${server.internalGameId}`);
		expectStatus(read, 200);
		assert.deepEqual(read.json.runningGame.players, [], "the read is answered before the join acts");
		assert.equal((await stateOf(t.control)).workspaces[0].joins.length, 0);
		await sleep(700);
		const joins = (await stateOf(t.control)).workspaces[0].joins;
		assert.equal(joins.length, 1, "the held join acted after the latency");
		assert.ok(joins[0].at - started >= 590, `acted ${joins[0].at - started} ms after it was sent`);
		const after = await t.api.get(`/games/running/${server.internalGameId}`);
		assert.deepEqual(after.json.runningGame.players, [String(PLAYER)]);
		const logged = (await requestLog()).requests.filter((r: { operation: string }) => r.operation === "playerJoin");
		assert.equal(logged.length, 1, "logged once, though its answer never reached the client");
		assert.equal(logged[0].status, 200);
	});

	test("a client that waits gets the real answer once the operation acted", async () => {
		const server = await registerServer(t.api);
		await addFault({ operation: "playerJoin", kind: "late", latencyMs: 200 });
		const started = Date.now();
		const answer = await t.api.post("/activity/playerJoin", joinBody(server.runningGameId));
		expectStatus(answer, 200);
		assertShape(answers.playerJoin, answer.json);
		assert.ok(Date.now() - started >= 190);
		assert.equal((await stateOf(t.control)).workspaces[0].joins.length, 1);
	});

	test("a late fault without latencyMs is refused with 400", async () => {
		const answer = await t.control.post("/_control/faults", { operation: "playerJoin", kind: "late" });
		expectStatus(answer, 400);
		assertShape(answers.failure, answer.json);
		assert.ok(answer.json.reason.includes("latencyMs"), answer.json.reason);
	});
});

describe("fault rules", () => {
	test('"*" matches every operation and the oldest matching rule wins', async () => {
		await addFault({ operation: "*", status: 502, times: 2 });
		await addFault({ operation: "listTimeOff", status: 504 });
		expectStatus(await t.api.get("/teams/users/1001"), 502);
		expectStatus(await t.api.get("/time-off"), 502);
		expectStatus(await t.api.get("/time-off"), 504);
		expectStatus(await t.api.get("/teams/users/1001"), 200);
	});

	test("a rule for one operation leaves the others alone, and control requests are never faulted", async () => {
		await addFault({ operation: "getTimeOff", status: 500 });
		expectStatus(await t.api.get("/time-off"), 200);
		expectStatus(await t.control.get("/_control/state"), 200);
		expectStatus(await t.api.get("/time-off/665a00000000000000000001"), 500);
	});

	test("requests refused by the key check do not use up a rule", async () => {
		await addFault({ operation: "getUserTeams", status: 503, times: 1 });
		expectStatus(await t.api.get("/teams/users/1001", { key: null }), 401);
		expectStatus(await t.api.get("/teams/users/1001"), 503);
		expectStatus(await t.api.get("/teams/users/1001"), 200);
	});

	test("rules can be listed, removed one by one and cleared", async () => {
		const first = await addFault({ operation: "getUserTeams", status: 503, times: 3 });
		await addFault({ operation: "listTimeOff", kind: "drop" });
		await t.api.get("/teams/users/1001");
		const listed = await t.control.get("/_control/faults");
		assert.deepEqual(
			listed.json.faults.map((f: { id: string; remaining: number | null }) => [f.id, f.remaining]),
			[
				[first, 2],
				[listed.json.faults[1].id, null],
			],
		);
		expectStatus(await t.control.delete(`/_control/faults/${first}`), 200);
		expectStatus(await t.control.delete(`/_control/faults/${first}`), 404);
		expectStatus(await t.api.get("/teams/users/1001"), 200);
		expectStatus(await t.control.delete("/_control/faults"), 200);
		expectStatus(await t.api.get("/time-off"), 200);
	});

	for (const [name, spec, field] of [
		["an unknown operation", { operation: "deleteEverything", status: 500 }, "operation"],
		["an unknown kind", { operation: "*", kind: "explode" }, "kind"],
		["a status out of range", { operation: "*", status: 99 }, "status"],
		["times 0", { operation: "*", status: 500, times: 0 }, "times"],
		["an undocumented field", { operation: "*", status: 500, when: "now" }, "when"],
		["nothing to do", { operation: "*" }, "kind"],
	] as const) {
		test(`a fault with ${name} is refused with 400`, async () => {
			const answer = await t.control.post("/_control/faults", spec);
			expectStatus(answer, 400);
			assertShape(answers.failure, answer.json);
			assert.ok(answer.json.reason.includes(field), answer.json.reason);
		});
	}
});

describe("the request log", () => {
	test("records operation, method, path, status, time and parsed body, never the key", async () => {
		const before = Date.now();
		await t.api.post("/staff/history", historyBody());
		await t.api.get("/teams/users/1001?x=1");
		await t.api.get("/teams/users/1001", { key: "wrong" });
		await t.api.get("/nowhere");
		await t.control.get("/_control/state");
		const log = await requestLog(before);
		assert.deepEqual(
			log.requests.map((r: { operation: string; method: string; path: string; status: number }) => [
				r.operation,
				r.method,
				r.path,
				r.status,
			]),
			[
				["recordHistory", "POST", "/staff/history", 200],
				["getUserTeams", "GET", "/teams/users/1001", 200],
				["getUserTeams", "GET", "/teams/users/1001", 401],
				["unknown", "GET", "/nowhere", 404],
			],
		);
		assert.deepEqual(log.requests[0].body, historyBody());
		assert.equal(log.requests[1].body, null);
		assert.ok(log.requests.every((r: { at: number }) => r.at >= before && r.at <= Date.now()));
		assert.deepEqual(log.counts, { recordHistory: 1, getUserTeams: 2, unknown: 1 });
		assert.ok(!JSON.stringify(log).includes(DEV_KEY));
	});

	test("since filters by arrival time; DELETE and reset clear it", async () => {
		await t.api.get("/time-off");
		await sleep(10);
		const middle = Date.now();
		await t.api.get("/teams/users/1001");
		assert.deepEqual(
			(await requestLog(middle)).requests.map((r: { operation: string }) => r.operation),
			["getUserTeams"],
		);
		expectStatus(await t.control.delete("/_control/requests"), 200);
		assert.deepEqual((await requestLog()).requests, []);
		await t.api.get("/time-off");
		await t.control.post("/_control/reset");
		assert.deepEqual((await requestLog()).counts, {});
		expectStatus(await t.control.get("/_control/requests?since=yesterday"), 400);
	});

	test("reset clears fault rules", async () => {
		await addFault({ operation: "*", status: 500 });
		await t.control.post("/_control/reset");
		expectStatus(await t.api.get("/time-off"), 200);
		assert.deepEqual((await t.control.get("/_control/faults")).json.faults, []);
	});
});
