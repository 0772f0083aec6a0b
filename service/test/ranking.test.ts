/**
 * The deployed profile's ranking route (docs/service-contract.md#admin-chat-commands): `PUT
 * /ranking/users/:id/role/:rank` takes the workspace's separate ranking key in `api-key`, never the loader-id key,
 * and records every call (never a key) for specs to count. It reads `{rank}` with parseInt as a role id or a rank
 * number (a name is "Rank not found.") and queues the rank action before it calls Roblox, as the deployed service
 * does (DESIGN §3). Its real answer body is not documented: a client reads only the status, so this test checks
 * little more of the 200 than `success`.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DEV_GROUP, DEV_KEY, OTHER_GROUP, expectFailure, expectStatus } from "../test-support/fixtures.js";
import { useService } from "../test-support/service-under-test.js";
import { Client } from "../test-support/http-client.js";

const t = useService({ profile: "deployed" });

const RANKING_KEY = "ranking-key-dev-0001";

function rank(userId: string, role: string, headers: Record<string, string>) {
	const path = `/ranking/users/${userId}/role/${encodeURIComponent(role)}`;
	return new Client(t.service.baseUrl).put(path, undefined, { headers });
}

async function giveRankingKey(key = RANKING_KEY, groupId?: string) {
	return t.control.post("/_control/ranking-keys", { key, ...(groupId ? { groupId } : {}) });
}

async function rankCalls() {
	return (await t.control.get("/_control/rankings")).json.calls;
}

async function rankActions(): Promise<{ userId: string; roleId: number; rank: number }[]> {
	return (await t.control.get("/_control/rankings")).json.actions;
}

async function rankCount(): Promise<number> {
	return (await t.control.get("/_control/requests")).json.counts.setRank ?? 0;
}

describe("PUT /ranking/users/:id/role/:rank", () => {
	test("the ranking key in api-key sets the role: 200 {success: true}, the call recorded", async () => {
		expectStatus(await giveRankingKey(), 200);
		const answer = await rank("2001", "200", { "api-key": RANKING_KEY });
		expectStatus(answer, 200);
		assert.equal(answer.json.success, true);
		const calls = await rankCalls();
		assert.equal(calls.length, 1);
		assert.deepEqual(
			{ ...calls[0], at: undefined },
			{
				groupId: DEV_GROUP,
				userId: "2001",
				rank: "200",
				accepted: true,
				apiKey: "ranking",
				loaderIdSent: false,
				at: undefined,
			},
		);
		assert.equal(await rankCount(), 1);
	});

	test("setting the same role twice answers the same, and queues two rank actions", async () => {
		await giveRankingKey();
		expectStatus(await rank("2001", "150", { "api-key": RANKING_KEY }), 200);
		expectStatus(await rank("2001", "150", { "api-key": RANKING_KEY }), 200);
		assert.equal(await rankCount(), 2);
		assert.equal((await rankActions()).length, 2);
	});

	test("{rank} is read with parseInt as a role id, then a rank number: a name is 404 Rank not found.", async () => {
		await giveRankingKey();
		expectStatus(await rank("2001", "7000150", { "api-key": RANKING_KEY }), 200);
		expectStatus(await rank("2001", "150", { "api-key": RANKING_KEY }), 200);
		// parseInt reads the leading digits: "1e3" is rank 1, "200abc" is rank 200.
		expectStatus(await rank("2001", "1e3", { "api-key": RANKING_KEY }), 200);
		expectStatus(await rank("2001", "200abc", { "api-key": RANKING_KEY }), 200);
		// ("." and ".." never reach the route as a segment: the URL is normalised before it is sent.)
		for (const wrong of ["Moderator", "Head Moderator", "-1", "x0", "77", "abc1"]) {
			expectFailure(await rank("2001", wrong, { "api-key": RANKING_KEY }), 404, "Rank not found.");
		}
		assert.deepEqual(
			(await rankActions()).map((action) => [action.roleId, action.rank]),
			[
				[7_000_150, 150],
				[7_000_150, 150],
				[7_000_001, 1],
				[7_000_200, 200],
			],
		);
	});

	test("the rank action is queued before Roblox is called: a 500 from Roblox leaves it queued, a repeat adds one", async () => {
		await giveRankingKey();
		expectStatus(await t.control.post("/_control/ranking-failures", { times: 1 }), 200);
		expectFailure(await rank("2001", "150", { "api-key": RANKING_KEY }), 500);
		assert.equal((await rankActions()).length, 1);
		expectStatus(await rank("2001", "150", { "api-key": RANKING_KEY }), 200);
		assert.equal((await rankActions()).length, 2);
	});

	test("the group's roles can be replaced through the control API", async () => {
		await giveRankingKey();
		const roles = [{ id: 9001, name: "Barista", rank: 20 }];
		expectStatus(await t.control.post("/_control/group-roles", { roles }), 200);
		expectStatus(await rank("2001", "20", { "api-key": RANKING_KEY }), 200);
		expectFailure(await rank("2001", "150", { "api-key": RANKING_KEY }), 404, "Rank not found.");
		assert.deepEqual(
			(await rankActions()).map((action) => action.roleId),
			[9001],
		);
	});

	test("the loader-id key is refused there, in api-key or in loader-id (401), and recorded as such", async () => {
		await giveRankingKey();
		expectFailure(await rank("2001", "Moderator", { "api-key": DEV_KEY }), 401);
		expectFailure(await rank("2001", "Moderator", { "loader-id": DEV_KEY }), 401);
		const calls = await rankCalls();
		assert.deepEqual(
			calls.map((call: { apiKey: string; accepted: boolean; loaderIdSent: boolean }) => [
				call.apiKey,
				call.accepted,
				call.loaderIdSent,
			]),
			[
				["loader-id", false, false],
				["missing", false, true],
			],
		);
		assert.equal(await rankCount(), 2);
	});

	test("a wrong key is refused with 401 and a reason that does not repeat it", async () => {
		await giveRankingKey();
		const answer = await rank("2001", "Moderator", { "api-key": "not-the-ranking-key-123" });
		expectFailure(answer, 401, "ranking key");
		assert.ok(!answer.text.includes("not-the-ranking-key-123"));
		assert.equal((await rankCalls())[0].apiKey, "unknown");
	});

	test("no ranking key was given: every key is refused", async () => {
		expectFailure(await rank("2001", "Moderator", { "api-key": RANKING_KEY }), 401);
	});

	test("a ranking key works for its own workspace only, and may not be a loader-id key", async () => {
		expectStatus(await giveRankingKey(RANKING_KEY, OTHER_GROUP), 200);
		expectStatus(await rank("3002", "10", { "api-key": RANKING_KEY }), 200);
		assert.equal((await rankCalls())[0].groupId, OTHER_GROUP);
		expectFailure(await giveRankingKey(DEV_KEY), 400, "differ");
	});

	test("a reset forgets the ranking keys and the calls", async () => {
		await giveRankingKey();
		expectStatus(await rank("2001", "150", { "api-key": RANKING_KEY }), 200);
		expectStatus(await t.control.post("/_control/reset", { profile: "deployed" }), 200);
		assert.equal((await rankCalls()).length, 0);
		assert.equal((await rankActions()).length, 0);
		expectFailure(await rank("2001", "Moderator", { "api-key": RANKING_KEY }), 401);
	});
});

describe("the ranking route in the default profile", () => {
	test("is an unknown route (404), as the interface has no ranking", async () => {
		expectStatus(await t.control.post("/_control/reset", { profile: "default" }), 200);
		const answer = await rank("2001", "Moderator", { "api-key": RANKING_KEY });
		expectStatus(answer, 404);
	});
});
