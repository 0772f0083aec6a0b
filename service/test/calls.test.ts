import assert from "node:assert/strict";
import { test } from "node:test";
import { defaultSeed } from "../src/seed.js";
import { sleep } from "../src/time.js";
import { expectStatus } from "../test-support/fixtures.js";
import { answers, assertShape } from "../test-support/shapes.js";
import { useService } from "../test-support/service-under-test.js";

const t = useService();

async function messageIds(callId: string): Promise<string[]> {
	const answer = await t.api.get(`/calls/${callId}/messages`);
	expectStatus(answer, 200);
	assertShape(answers.getCallMessages, answer.json);
	return answer.json.messages.map((m: { id: string }) => m.id);
}

test("seeded agent messages arrive over time, counted from the last reset", async () => {
	const seed = defaultSeed();
	const call = seed.workspaces[0].calls.find((c) => c.callId === "call-demo")!;
	call.messages.forEach((message, index) => (message.afterSeconds = [0, 0.2, 0.4, 10][index]));
	expectStatus(await t.control.post("/_control/reset", { seed }), 200);
	assert.deepEqual(await messageIds("call-demo"), ["call-demo-1"]);
	await sleep(250);
	assert.deepEqual(await messageIds("call-demo"), ["call-demo-1", "call-demo-2"]);
	await sleep(200);
	assert.deepEqual(await messageIds("call-demo"), ["call-demo-1", "call-demo-2", "call-demo-3"]);
	const answer = await t.api.get("/calls/call-demo/messages");
	const created = answer.json.messages.map((m: { created: string }) => Date.parse(m.created));
	assert.ok(created[1] - created[0] >= 190 && created[2] - created[1] >= 190, "created says when each arrived");
});

test("the default call-demo schedule is 0, 5, 10 and 20 seconds", () => {
	const call = defaultSeed().workspaces[0].calls.find((c) => c.callId === "call-demo")!;
	assert.deepEqual(
		call.messages.map((m) => m.afterSeconds),
		[0, 5, 10, 20],
	);
});

test("control can append an agent message and close the call", async () => {
	const added = await t.control.post("/_control/calls/call-demo/messages", {
		username: "HeadModHana",
		userId: 1002,
		message: "Still there?",
	});
	expectStatus(added, 200);
	const answer = await t.api.get("/calls/call-demo/messages");
	const last = answer.json.messages.at(-1);
	assert.equal(last.id, added.json.message.id);
	assert.equal(last.message, "Still there?");
	assert.equal(last.origin, "agent");
	expectStatus(await t.control.post("/_control/calls/call-demo/status", { status: "closed" }), 200);
	assert.equal((await t.api.get("/calls/call-demo/messages")).json.status, "closed");
	expectStatus(await t.control.post("/_control/calls/call-demo/status", { status: "ended" }), 400);
	expectStatus(await t.control.post("/_control/calls/nope/status", { status: "open" }), 404);
	expectStatus(await t.control.post("/_control/calls/call-demo/messages", { message: "no author" }), 400);
});
