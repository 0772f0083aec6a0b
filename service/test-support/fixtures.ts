import assert from "node:assert/strict";
import type { Answer, Client } from "./http-client.js";
import { answers, assertShape } from "./shapes.js";

/** Facts of service/seed/default.json the tests rely on. */
export const DEV_KEY = "staffops-dev-key-0001";
export const OTHER_KEY = "staffops-dev-key-0002";
export const DEV_GROUP = "5012345";
export const OTHER_GROUP = "7654321";
export const STAFF_IDS = ["1001", "1002", "1003", "1004", "1005"];
export const BANNED = { userId: 666, reason: "Exploiting" };
export const PLAYER = 2001;
/** An open call with call-demo's messages under a 24-hex id, the only form the deployed profile accepts. */
export const DEPLOYED_CALL_ID = "65a1b2c3d4e5f60718293a4b";

export const serverBody = (overrides: Record<string, unknown> = {}) => ({
	gameId: 4500000001,
	placeId: 9200000001,
	jobId: "job-" + Math.random().toString(16).slice(2),
	privateServerId: "",
	privateServerOwnerId: 0,
	placeVersion: "42",
	...overrides,
});

export const joinBody = (runningGameId: string, overrides: Record<string, unknown> = {}) => ({
	playerId: PLAYER,
	safechat: true,
	username: "Player2001",
	tzOffset: "-05:00",
	platform: "Desktop",
	gameId: runningGameId,
	...overrides,
});

export const historyBody = (overrides: Record<string, unknown> = {}) => ({
	actioningUser: "1002",
	userId: "1005",
	reason: "Helped a lot",
	type: "promotion",
	approval_required: false,
	...overrides,
});

export const orderBody = (overrides: Record<string, unknown> = {}) => ({
	customerId: "2001",
	cashierId: "1004",
	items: [
		{ item: "Latte", quantity: 2 },
		{ item: "Cookie", quantity: 1 },
	],
	placeId: "9200000001",
	gameId: "4500000001",
	...overrides,
});

export function expectStatus(answer: Answer, status: number): void {
	assert.equal(answer.status, status, `expected HTTP ${status}, got ${answer.status}: ${answer.text}`);
}

/** A failure answer: the status, the interface's failure shape, and (if given) words its reason must contain. */
export function expectFailure(answer: Answer, status: number, reasonIncludes?: string): void {
	expectStatus(answer, status);
	assertShape(answers.failure, answer.json);
	if (reasonIncludes !== undefined) {
		assert.ok(
			answer.json.reason.includes(reasonIncludes),
			`reason ${JSON.stringify(answer.json.reason)} should mention ${reasonIncludes}`,
		);
	}
}

/** Registers a server and returns its ids. */
export async function registerServer(client: Client, overrides: Record<string, unknown> = {}) {
	const answer = await client.post("/activity/createServer", serverBody(overrides));
	expectStatus(answer, 200);
	return { internalGameId: answer.json.gameId as string, runningGameId: answer.json.runningGameId as string };
}

/** Unix seconds of an ISO timestamp plus `seconds`, as playerLeave's `leftTime` carries it. */
export function unixSecondsAfter(iso: string, seconds: number): number {
	return Math.floor(Date.parse(iso) / 1000) + seconds;
}
