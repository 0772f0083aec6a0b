import assert from "node:assert/strict";
import { connect } from "node:net";
import { describe, test } from "node:test";
import { errorHandler } from "../src/http/error-answers.js";
import {
	DEV_KEY,
	expectFailure,
	expectStatus,
	historyBody,
	joinBody,
	orderBody,
	registerServer,
	serverBody,
} from "../test-support/fixtures.js";
import type { Answer } from "../test-support/http-client.js";
import { answers, assertShape } from "../test-support/shapes.js";
import { stateOf, useService } from "../test-support/service-under-test.js";

const t = useService();

/** One valid request per operation (ids need not exist: the key check comes first). */
const everyOperation: [string, string, unknown][] = [
	["POST", "/staff/history", historyBody()],
	["GET", "/staff/history", undefined],
	["POST", "/activity/createServer", serverBody()],
	["POST", "/activity/playerJoin", joinBody("x")],
	["GET", "/activity/workspace/users/1001/activity", undefined],
	["GET", "/games/running/x", undefined],
	["POST", "/orders", orderBody()],
	["PUT", "/orders/x/release", { actorId: "1" }],
	["GET", "/time-off", undefined],
	["GET", "/time-off/x", undefined],
	["GET", "/calls/call-demo/messages", undefined],
	["GET", "/teams/users/1001", undefined],
];

describe("the key check", () => {
	for (const [method, path, body] of everyOperation) {
		test(`${method} ${path} without or with an unknown key answers 401`, async () => {
			const missing = await t.api.request(method, path, { body, key: null });
			expectFailure(missing, 401, "loader-id");
			const unknown = await t.api.request(method, path, { body, key: "not-a-real-key-9999" });
			expectFailure(unknown, 401, "loader-id");
			assert.ok(!unknown.text.includes("not-a-real-key-9999"), "the key is never echoed");
			const empty = await t.api.request(method, path, { body, key: "" });
			expectFailure(empty, 401);
		});
	}
});

/** [name, path, method, body, field the reason must name] */
type BadBody = [string, string, string, unknown, string];

const without = (body: Record<string, unknown>, field: string) => {
	const copy = { ...body };
	delete copy[field];
	return copy;
};

const badBodies: BadBody[] = [
	...["actioningUser", "userId", "reason", "type", "approval_required"].map((field): BadBody => [
		`history without ${field}`,
		"/staff/history",
		"POST",
		without(historyBody(), field),
		field,
	]),
	["history with an unknown type", "/staff/history", "POST", historyBody({ type: "demotion" }), "type"],
	["history with userId a number", "/staff/history", "POST", historyBody({ userId: 1005 }), "userId"],
	[
		"history with approval_required a string",
		"/staff/history",
		"POST",
		historyBody({ approval_required: "no" }),
		"approval_required",
	],
	["history with notify a number", "/staff/history", "POST", historyBody({ notify: 1 }), "notify"],
	[
		"history with expiresInDays a string",
		"/staff/history",
		"POST",
		historyBody({ expiresInDays: "7" }),
		"expiresInDays",
	],
	[
		"history with negative expiresInDays",
		"/staff/history",
		"POST",
		historyBody({ expiresInDays: -1 }),
		"expiresInDays",
	],
	["history with an undocumented field", "/staff/history", "POST", historyBody({ evidence: [] }), "evidence"],
	...["gameId", "placeId", "jobId", "privateServerId", "privateServerOwnerId", "placeVersion"].map(
		(field): BadBody => [
			`createServer without ${field}`,
			"/activity/createServer",
			"POST",
			without(serverBody(), field),
			field,
		],
	),
	["createServer with gameId a string", "/activity/createServer", "POST", serverBody({ gameId: "1" }), "gameId"],
	[
		"createServer with placeVersion a number",
		"/activity/createServer",
		"POST",
		serverBody({ placeVersion: 42 }),
		"placeVersion",
	],
	...["playerId", "safechat", "username", "tzOffset", "platform", "gameId"].map((field): BadBody => [
		`playerJoin without ${field}`,
		"/activity/playerJoin",
		"POST",
		without(joinBody("x"), field),
		field,
	]),
	[
		"playerJoin with lower-case platform",
		"/activity/playerJoin",
		"POST",
		joinBody("x", { platform: "desktop" }),
		"platform",
	],
	[
		"playerJoin with platform Unknown",
		"/activity/playerJoin",
		"POST",
		joinBody("x", { platform: "Unknown" }),
		"platform",
	],
	[
		"playerJoin with a named timezone",
		"/activity/playerJoin",
		"POST",
		joinBody("x", { tzOffset: "EST" }),
		"tzOffset",
	],
	[
		"playerJoin with playerId a string",
		"/activity/playerJoin",
		"POST",
		joinBody("x", { playerId: "2001" }),
		"playerId",
	],
	[
		"playerJoin with safechat a string",
		"/activity/playerJoin",
		"POST",
		joinBody("x", { safechat: "true" }),
		"safechat",
	],
	["playerJoin with gameId a number", "/activity/playerJoin", "POST", joinBody("x", { gameId: 5 }), "gameId"],
	["playerJoin with an undocumented field", "/activity/playerJoin", "POST", joinBody("x", { userId: 1 }), "userId"],
	...["customerId", "cashierId", "items", "placeId", "gameId"].map((field): BadBody => [
		`createOrder without ${field}`,
		"/orders",
		"POST",
		without(orderBody(), field),
		field,
	]),
	["createOrder with no items", "/orders", "POST", orderBody({ items: [] }), "items"],
	[
		"createOrder with quantity a string",
		"/orders",
		"POST",
		orderBody({ items: [{ item: "Tea", quantity: "1" }] }),
		"items[0].quantity",
	],
	[
		"createOrder with quantity 0",
		"/orders",
		"POST",
		orderBody({ items: [{ item: "Tea", quantity: 0 }] }),
		"items[0].quantity",
	],
	[
		"createOrder with an item without a name",
		"/orders",
		"POST",
		orderBody({ items: [{ quantity: 1 }] }),
		"items[0].item",
	],
	[
		"createOrder with an undocumented item field",
		"/orders",
		"POST",
		orderBody({ items: [{ item: "Tea", quantity: 1, size: "L" }] }),
		"items[0].size",
	],
	["createOrder with placeId a number", "/orders", "POST", orderBody({ placeId: 1 }), "placeId"],
	["releaseOrder without actorId", "/orders/x/release", "PUT", {}, "actorId"],
	["releaseOrder with actorId a number", "/orders/x/release", "PUT", { actorId: 1002 }, "actorId"],
	["releaseOrder with an empty actorId", "/orders/x/release", "PUT", { actorId: "" }, "actorId"],
];

async function sendBadBodies(): Promise<Answer[]> {
	const results: Answer[] = [];
	for (const [, path, method, body] of badBodies) results.push(await t.api.request(method, path, { body }));
	return results;
}

describe("request checks", () => {
	for (const [name, path, method, body, field] of badBodies) {
		test(`${name} answers 400 naming "${field}"`, async () => {
			expectFailure(await t.api.request(method, path, { body }), 400, `"${field}"`);
		});
	}

	for (const [name, raw] of [
		["malformed JSON", '{"actioningUser": "1002",'],
		["a JSON array", "[]"],
		["JSON null", "null"],
		["a JSON string", '"hello"'],
		["an empty body", ""],
		["a __proto__ key", '{"__proto__": {"x": 1}}'],
	]) {
		test(`a body of ${name} answers 400`, async () => {
			expectFailure(await t.api.request("POST", "/staff/history", { raw }), 400);
		});
	}

	test("no body at all answers 400", async () => {
		expectFailure(await t.api.request("POST", "/activity/createServer"), 400, "JSON object");
	});

	test("a body over 64 KiB answers 413", async () => {
		const body = historyBody({ reason: "x".repeat(70 * 1024) });
		expectFailure(await t.api.post("/staff/history", body), 413, "64 KiB");
	});

	test("a body that is not JSON answers 415", async () => {
		const answer = await t.api.request("POST", "/orders", {
			raw: "<order/>",
			headers: { "content-type": "application/xml" },
		});
		expectFailure(answer, 415);
	});
});

describe("not found and conflicts", () => {
	test("an unknown path or method answers 404", async () => {
		expectFailure(await t.api.get("/nope"), 404, "/nope");
		expectFailure(await t.api.request("DELETE", "/staff/history"), 404);
	});

	test("unknown ids answer 404", async () => {
		expectFailure(await t.api.get("/time-off/unknown"), 404, "unknown");
		expectFailure(await t.api.get("/calls/unknown/messages"), 404, "unknown");
		expectFailure(await t.api.get("/activity/workspace/users/424242/activity"), 404, "424242");
		expectFailure(await t.api.get("/games/running/unknown"), 404, "unknown");
		expectFailure(await t.api.put("/orders/unknown/release", { actorId: "1" }), 404, "unknown");
		expectFailure(await t.api.post("/activity/playerJoin", joinBody("unknown")), 404, "unknown");
	});

	test("a second release answers 409", async () => {
		const created = await t.api.post("/orders", orderBody());
		const path = `/orders/${created.json.order._id}/release`;
		expectStatus(await t.api.put(path, { actorId: "1002" }), 200);
		expectFailure(await t.api.put(path, { actorId: "1003" }), 409, "already released");
	});

	test("an empty path parameter answers 400 naming it", async () => {
		expectFailure(await t.api.get("/teams/users/"), 400, '"userId"');
		expectFailure(await t.api.get("/time-off/"), 400, '"requestId"');
		expectFailure(await t.api.put("/orders//release", { actorId: "1" }), 400, '"orderId"');
	});

	test("a path parameter over 100 characters answers 414", async () => {
		expectFailure(await t.api.get(`/games/running/${"a".repeat(150)}`), 414, "100 characters");
	});

	test("a malformed URL answers 400 in the failure shape", async () => {
		expectFailure(await t.api.get("/time-off/%zz"), 400);
	});

	test("bytes that are not HTTP get a 400 in the failure shape", async () => {
		const url = new URL(t.service.baseUrl);
		const reply = await new Promise<string>((resolve, reject) => {
			const socket = connect(Number(url.port), url.hostname, () => socket.write("NONSENSE\r\n\r\n"));
			let text = "";
			socket.on("data", (chunk) => (text += chunk));
			socket.on("end", () => resolve(text));
			socket.on("error", reject);
		});
		assert.match(reply, /^HTTP\/1\.1 400/);
		assertShape(answers.failure, JSON.parse(reply.slice(reply.indexOf("\r\n\r\n") + 4)));
	});

	test("an unexpected error answers 500 in the failure shape, details to stderr only", () => {
		const sent: { status?: number; body?: unknown } = {};
		const reply = {
			code(status: number) {
				sent.status = status;
				return this;
			},
			send(body: unknown) {
				sent.body = body;
				return this;
			},
		};
		const write = process.stderr.write;
		let logged = "";
		process.stderr.write = ((chunk: string) => {
			logged += chunk;
			return true;
		}) as typeof process.stderr.write;
		try {
			const request = { method: "GET", url: "/time-off", headers: { "loader-id": DEV_KEY } };
			errorHandler(new Error("boom") as never, request as never, reply as never);
		} finally {
			process.stderr.write = write;
		}
		assert.equal(sent.status, 500);
		assertShape(answers.failure, sent.body);
		assert.match(logged, /boom/);
		assert.ok(!logged.includes(DEV_KEY));
	});
});

describe("bad input changes nothing", () => {
	test("a batch of bad requests leaves the service running and its state as it was", async () => {
		const server = await registerServer(t.api);
		await t.api.post("/activity/playerJoin", joinBody(server.runningGameId));
		await t.api.post("/orders", orderBody());
		const before = await stateOf(t.control);
		const failures = await sendBadBodies();
		for (const answer of failures) assert.ok(answer.status >= 400 && answer.status < 500, answer.text);
		for (const raw of ["{", "[]", "null", '{"a":'.repeat(1000)]) {
			await t.api.request("POST", "/activity/playerJoin", { raw });
			await t.api.request("POST", "/orders", { raw });
		}
		await t.api.post("/staff/history", historyBody({ reason: "x".repeat(100 * 1024) }));
		await t.api.post("/staff/history", historyBody(), { key: "wrong" });
		await t.api.post("/activity/playerJoin", joinBody(server.runningGameId, { platform: "PC" }));
		const after = await stateOf(t.control);
		// lastPing moves only on successful pings, none of which happened.
		assert.deepEqual(after, before);
		expectStatus(await t.api.get("/staff/history"), 200);
	});
});
