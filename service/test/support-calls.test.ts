/**
 * Support calls on the deployed profile (docs/service-contract.md#opening-a-support-call, sendData's `chatEvents` and
 * `ongoingChats`): create, end, agent routes, the transcript read, and what leaves and endServer do to calls.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DOCUMENT_ID } from "../test-support/deployed-shapes.js";
import { PLAYER, expectFailure, expectStatus, joinBody, registerServer } from "../test-support/fixtures.js";
import { useService } from "../test-support/service-under-test.js";

const t = useService({ profile: "deployed" });

const AGENT = "1002";
const ROSTER = [
	[PLAYER, "Player2001", "Two Thousand One"],
	[2002, "Player2002", "Two Thousand Two"],
];

function createBody(runningGameId: string, overrides: Record<string, unknown> = {}) {
	return {
		gameId: runningGameId,
		callType: "support",
		callerId: PLAYER,
		reason: "I am stuck",
		players: ROSTER,
		...overrides,
	};
}

async function openCall(runningGameId: string, overrides: Record<string, unknown> = {}) {
	const answer = await t.api.post("/activity/support/create", createBody(runningGameId, overrides));
	expectStatus(answer, 200);
	assert.equal(answer.json.success, true, answer.text);
	return answer.json.ticket;
}

function chatEvent(ticketId: string, id: string, message: string) {
	return { type: "message", ticketId, id, userId: PLAYER, username: "Player2001", message, created: 1_700_000_000 };
}

function sync(runningGameId: string, extra: Record<string, unknown> = {}) {
	return t.api.post("/activity/sendData", { gameId: runningGameId, events: [], ...extra });
}

async function transcript(callId: string) {
	const answer = await t.api.get(`/calls/${callId}/messages`);
	expectStatus(answer, 200);
	return answer.json;
}

describe("support/create", () => {
	test("answers the open ticket: a 24-hex _id, the call's fields and an empty transcript", async () => {
		const server = await registerServer(t.api);
		const ticket = await openCall(server.runningGameId);
		assert.match(ticket._id, DOCUMENT_ID);
		assert.equal(ticket.status, "open");
		assert.equal(ticket.callType, "support");
		assert.equal(ticket.callerId, PLAYER);
		assert.equal(ticket.reason, "I am stuck");
		assert.equal(ticket.reporting, null);
		assert.deepEqual(ticket.players, ROSTER);
		assert.equal(ticket.runningGameId, server.runningGameId);
		assert.deepEqual(ticket.messages, []);
		const report = await openCall(server.runningGameId, {
			callType: "report",
			callerId: 2002,
			reporting: "Player2001",
		});
		assert.equal(report.reporting, "Player2001");
	});

	test("a second call from the same caller on the same server is a soft refusal without the id", async () => {
		const server = await registerServer(t.api);
		await openCall(server.runningGameId);
		const again = await t.api.post("/activity/support/create", createBody(server.runningGameId));
		expectStatus(again, 200);
		assert.deepEqual(again.json, { success: false, reason: "You already have a call open in this server." });
		const other = await registerServer(t.api);
		await openCall(other.runningGameId);
		const listed = await t.api.get("/calls?status=open");
		assert.equal(listed.json.calls.length, 2, "the lost call is found through GET /calls");
	});

	test("a call-banned caller gets banned:true and a reason, nothing stored", async () => {
		const server = await registerServer(t.api);
		expectStatus(await t.control.post("/_control/call-bans", { userId: String(PLAYER) }), 200);
		const answer = await t.api.post("/activity/support/create", createBody(server.runningGameId));
		expectStatus(answer, 200);
		assert.equal(answer.json.success, false);
		assert.equal(answer.json.banned, true);
		assert.equal(typeof answer.json.reason, "string");
		assert.deepEqual((await t.control.get("/_control/tickets")).json.tickets, []);
	});

	for (const field of ["callType", "callerId", "reason", "players"]) {
		test(`missing ${field}: 500 (the service validates nothing)`, async () => {
			const server = await registerServer(t.api);
			const body = createBody(server.runningGameId) as Record<string, unknown>;
			delete body[field];
			expectFailure(await t.api.post("/activity/support/create", body), 500);
		});
	}

	test("an empty reason or an empty players list: 500", async () => {
		const server = await registerServer(t.api);
		expectFailure(
			await t.api.post("/activity/support/create", createBody(server.runningGameId, { reason: "" })),
			500,
		);
		expectFailure(
			await t.api.post("/activity/support/create", createBody(server.runningGameId, { players: [] })),
			500,
		);
	});
});

describe("chatEvents and ongoingChats", () => {
	test("chatEvents are appended without dedup: a blind re-send stores the message twice", async () => {
		const server = await registerServer(t.api);
		const ticket = await openCall(server.runningGameId);
		const event = chatEvent(ticket._id, "m-1", "Hello?");
		await sync(server.runningGameId, { chatEvents: [event] });
		await sync(server.runningGameId, { chatEvents: [event] });
		const { messages } = await transcript(ticket._id);
		assert.deepEqual(
			messages.map((m: { id: string; origin: string; message: string }) => [m.id, m.origin, m.message]),
			[
				["m-1", "user", "Hello?"],
				["m-1", "user", "Hello?"],
			],
		);
		assert.equal(messages[0].created, new Date(1_700_000_000_000).toISOString());
	});

	test("a long call made by the control API's filler rides every sync answer whole (a megabyte with ten)", async () => {
		const server = await registerServer(t.api);
		const ticket = await openCall(server.runningGameId);
		const filled = await t.control.post(`/_control/calls/${ticket._id}/filler`, { count: 120, length: 1000 });
		expectStatus(filled, 200);
		assert.equal(filled.json.messages, 120);
		const answer = await sync(server.runningGameId);
		const [chat] = answer.json.ongoingChats;
		assert.equal(chat.messages.length, 120);
		assert.equal(chat.messages[5].message.length, 1000);
		assert.equal(chat.messages[5].origin, "user");
		assert.ok(answer.text.length > 120_000, `${answer.text.length} bytes`);
		const bad = await t.control.post(`/_control/calls/${ticket._id}/filler`, { count: 0, length: 10 });
		expectStatus(bad, 400);
	});

	test("ongoingChats carry this server's open and claimed tickets with their whole transcript", async () => {
		const server = await registerServer(t.api);
		const other = await registerServer(t.api);
		const ticket = await openCall(server.runningGameId);
		await openCall(other.runningGameId);
		expectStatus(await t.api.post(`/calls/${ticket._id}/messages`, { actorId: AGENT, message: "On my way" }), 200);
		const first = (await sync(server.runningGameId)).json.ongoingChats;
		assert.deepEqual(
			first.map((c: { _id: string }) => c._id),
			[ticket._id],
		);
		assert.deepEqual(
			first[0].messages.map((m: { message: string }) => m.message),
			["On my way"],
		);
		const again = (await sync(server.runningGameId)).json.ongoingChats;
		assert.equal(again.length, 1, "a live ticket is sent on every sync");
	});

	test("a closed ticket goes out once, then it is acknowledged", async () => {
		const server = await registerServer(t.api);
		const ticket = await openCall(server.runningGameId);
		expectStatus(await t.api.put(`/calls/${ticket._id}/end`, { actorId: AGENT }), 200);
		const first = (await sync(server.runningGameId)).json.ongoingChats;
		assert.equal(first.length, 1);
		assert.equal(first[0].status, "closed");
		assert.equal(first[0].messages.at(-1).origin, "systemMessage");
		assert.deepEqual((await sync(server.runningGameId)).json.ongoingChats, []);
	});

	test("a closure in an answer lost after acting is never sent again", async () => {
		const server = await registerServer(t.api);
		const ticket = await openCall(server.runningGameId);
		await t.api.put(`/calls/${ticket._id}/end`, { actorId: AGENT });
		await t.control.post("/_control/faults", { operation: "sendData", kind: "drop-after", times: 1 });
		await assert.rejects(sync(server.runningGameId));
		assert.deepEqual((await sync(server.runningGameId)).json.ongoingChats, []);
	});

	test("a chat an agent starts with an in-game member arrives as a claimed ticket", async () => {
		const server = await registerServer(t.api);
		const started = await t.control.post("/_control/chats", {
			runningGameId: server.runningGameId,
			userId: String(PLAYER),
			actorId: AGENT,
			message: "Hi, a quick word?",
		});
		expectStatus(started, 200);
		const chats = (await sync(server.runningGameId)).json.ongoingChats;
		assert.equal(chats.length, 1);
		assert.equal(chats[0].status, "claimed");
		assert.equal(chats[0].callerId, PLAYER);
		assert.deepEqual(
			chats[0].messages.map((m: { origin: string }) => m.origin),
			["agent"],
		);
	});
});

describe("support/end and the agent routes", () => {
	test("support/end closes with a system message; a repeat is a 400", async () => {
		const server = await registerServer(t.api);
		const ticket = await openCall(server.runningGameId);
		const end = { gameId: server.runningGameId, supportId: ticket._id, reason: "closedByUser" };
		const answer = await t.api.post("/activity/support/end", end);
		expectStatus(answer, 200);
		assert.deepEqual(answer.json, { success: true });
		const read = await transcript(ticket._id);
		assert.equal(read.status, "closed");
		assert.deepEqual(
			read.messages.map((m: { origin: string }) => m.origin),
			["systemMessage"],
		);
		expectFailure(await t.api.post("/activity/support/end", end), 400);
		expectFailure(await t.api.post("/activity/support/end", { ...end, supportId: "not-an-id" }), 500);
		expectFailure(
			await t.api.post("/activity/support/end", { ...end, supportId: "0123456789abcdef01234567" }),
			404,
		);
	});

	test("POST /calls/{id}/messages always stores an AGENT message", async () => {
		const server = await registerServer(t.api);
		const ticket = await openCall(server.runningGameId);
		const answer = await t.api.post(`/calls/${ticket._id}/messages`, {
			actorId: String(PLAYER),
			message: "I am the player",
		});
		expectStatus(answer, 200);
		assert.equal(answer.json.message.origin, "agent");
		assert.equal((await transcript(ticket._id)).messages[0].origin, "agent");
	});

	test("claim makes it claimed (GET /calls/{id}/messages shows it); end closes it; repeats are 400", async () => {
		const server = await registerServer(t.api);
		const ticket = await openCall(server.runningGameId);
		expectStatus(await t.api.put(`/calls/${ticket._id}/claim`, { actorId: AGENT }), 200);
		assert.equal((await transcript(ticket._id)).status, "claimed");
		expectFailure(await t.api.put(`/calls/${ticket._id}/claim`, { actorId: AGENT }), 400);
		expectStatus(await t.api.put(`/calls/${ticket._id}/end`, { actorId: AGENT }), 200);
		assert.equal((await transcript(ticket._id)).status, "closed");
		expectFailure(await t.api.put(`/calls/${ticket._id}/end`, { actorId: AGENT }), 400);
		expectFailure(await t.api.post(`/calls/${ticket._id}/messages`, { actorId: AGENT, message: "late" }), 400);
	});

	test("GET /calls lists the newest first, by status, at most 100", async () => {
		const server = await registerServer(t.api);
		const ids: string[] = [];
		for (let caller = 0; caller < 102; caller += 1) {
			ids.push((await openCall(server.runningGameId, { callerId: 5000 + caller }))._id);
		}
		await t.api.put(`/calls/${ids[101]}/claim`, { actorId: AGENT });
		const all = (await t.api.get("/calls?status=all")).json.calls;
		assert.equal(all.length, 100);
		assert.equal(all[0]._id, ids[101]);
		assert.equal(all[99]._id, ids[2]);
		assert.deepEqual(
			(await t.api.get("/calls?status=claimed")).json.calls.map((c: { _id: string }) => c._id),
			[ids[101]],
		);
		assert.equal((await t.api.get("/calls?status=closed")).json.calls.length, 0);
	});
});

describe("leaves, endServer and silence", () => {
	test("a leave ends the player's live calls on that server (userLeft)", async () => {
		const server = await registerServer(t.api);
		await t.api.post("/activity/playerJoin", joinBody(server.runningGameId));
		const ticket = await openCall(server.runningGameId);
		const leftTime = Math.floor(Date.now() / 1000);
		const leave = { gameId: server.runningGameId, playerId: String(PLAYER), events: [], final: true, leftTime };
		expectStatus(await t.api.post("/activity/playerLeave/v2", leave), 200);
		const tickets = (await t.control.get("/_control/tickets")).json.tickets;
		assert.equal(tickets[0]._id, ticket._id);
		assert.equal(tickets[0].status, "closed");
		assert.equal(tickets[0].closedReason, "userLeft");
	});

	test("endServer and the silence sweep leave open calls open for ever", async () => {
		const ended = await registerServer(t.api);
		const silent = await registerServer(t.api);
		await openCall(ended.runningGameId);
		await openCall(silent.runningGameId);
		expectStatus(await t.api.delete("/activity/endServer", { body: { gameId: ended.runningGameId } }), 200);
		expectStatus(await t.control.post("/_control/forget", { internalGameId: silent.internalGameId }), 200);
		const open = (await t.api.get("/calls?status=open")).json.calls;
		assert.equal(open.length, 2);
	});
});
