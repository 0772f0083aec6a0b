/**
 * The deployed profile's admin chat command routes (docs/service-contract.md#admin-chat-commands): registration
 * (with the deployed service's `paramaters` spelling), permissions, bans and verify links, each answer and
 * refusal over real HTTP and what the control API shows they stored.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { PLAYER, expectFailure, expectStatus, joinBody, registerServer, serverBody } from "../test-support/fixtures.js";
import { recordsOf, useService } from "../test-support/service-under-test.js";

const t = useService({ profile: "deployed" });

const STAFF = 1003;
const KICK = { id: "kick", name: "kick", paramaters: [{ name: "player", type: "player" }] };
const FIND = { id: "find", name: "find", paramaters: [] };

function register(runningGameId: string, commands: unknown[]) {
	return t.api.post("/activity/commands", { gameId: runningGameId, commands });
}

function permissionsOf(runningGameId: string, playerIds: string) {
	return t.api.get(`/activity/commands/players/permissions?gameId=${runningGameId}&playerIds=${playerIds}`);
}

async function grant(commandId: string, userId: number, on = true) {
	expectStatus(
		await t.control.post("/_control/commands/permissions", { commandId, userId: String(userId), on }),
		200,
	);
}

async function commandsStored() {
	return (await t.control.get("/_control/commands")).json.commands;
}

async function presenceOf(runningGameId: string): Promise<number> {
	const server = (await recordsOf(t.control)).workspaces[0].servers.find(
		(s: { runningGameId: string }) => s.runningGameId === runningGameId,
	);
	return Date.parse(server.lastPresence);
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

const banBody = (overrides: Record<string, unknown> = {}) => ({
	userId: PLAYER,
	reason: "Exploiting speed",
	bannedByUserId: STAFF,
	...overrides,
});

describe("POST /activity/commands: registration", () => {
	test("new ids are stored enabled with no permissions, with `paramaters` (sic) kept as sent", async () => {
		const server = await registerServer(t.api);
		const answer = await register(server.runningGameId, [KICK, FIND]);
		expectStatus(answer, 200);
		assert.equal(answer.json.success, true);
		const stored = await commandsStored();
		assert.deepEqual(
			stored.map((c: Record<string, unknown>) => [c.id, c.enabled, c.detected, c.allowed]),
			[
				["kick", true, true, []],
				["find", true, true, []],
			],
		);
		assert.deepEqual(stored[0].paramaters, KICK.paramaters);
	});

	test("a correctly spelt `parameters` is not what the service reads", async () => {
		const server = await registerServer(t.api);
		expectStatus(await register(server.runningGameId, [{ id: "warn", name: "warn", parameters: ["x"] }]), 200);
		assert.equal((await commandsStored())[0].paramaters, undefined);
	});

	test("known ids are updated and keep their grants; known ids missing from the list get detected:false", async () => {
		const server = await registerServer(t.api);
		expectStatus(await register(server.runningGameId, [KICK, FIND]), 200);
		await grant("kick", STAFF);
		expectStatus(await register(server.runningGameId, [{ ...KICK, name: "boot" }]), 200);
		const stored = await commandsStored();
		assert.equal(stored.length, 2, "no second record for a known id");
		const kick = stored.find((c: { id: string }) => c.id === "kick");
		const find = stored.find((c: { id: string }) => c.id === "find");
		assert.equal(kick.name, "boot");
		assert.deepEqual(kick.allowed, [String(STAFF)]);
		assert.equal(kick.detected, true);
		assert.equal(find.detected, false);
	});

	test("the website shows each parameter object with its type, and a plain name as a blank entry", async () => {
		const server = await registerServer(t.api);
		const ban = {
			id: "readmin_ban",
			name: "ban",
			paramaters: [
				{ id: "player", paramaterType: "player" },
				{ id: "days", paramaterType: "number", optional: true },
				"reason",
				{ id: "note", paramaterType: "word" },
			],
		};
		expectStatus(await register(server.runningGameId, [ban]), 200);
		const [stored] = await commandsStored();
		assert.deepEqual(stored.paramaters, ban.paramaters, "stored as sent");
		assert.deepEqual(stored.shown, [
			{ id: "player", paramaterType: "player", optional: false, fallbackFind: false },
			{ id: "days", paramaterType: "number", optional: true, fallbackFind: false },
			null,
			null,
		]);
	});

	test("a game that ran the official module: other ids hide all ten readmin_ commands, grants kept but unused", async () => {
		const server = await registerServer(t.api);
		const { gameId, placeId } = serverBody();
		const grants = { [String(STAFF)]: ["readmin_kick", "readmin_ban"] };
		expectStatus(await t.control.post("/_control/commands/official", { gameId, placeId, grants }), 200);
		expectStatus(await register(server.runningGameId, [KICK, FIND]), 200);
		const stored = await commandsStored();
		const official = stored.filter((c: { id: string }) => c.id.startsWith("readmin_"));
		assert.equal(official.length, 10);
		assert.ok(official.every((c: { detected: boolean }) => c.detected === false));
		assert.deepEqual(official.find((c: { id: string }) => c.id === "readmin_kick").allowed, [String(STAFF)]);
		const answer = await permissionsOf(server.runningGameId, String(STAFF));
		assert.equal(answer.json.permissions[String(STAFF)].kick, false, "the new id has no grant");
		// Registered again under the official ids, the same grants work at once.
		expectStatus(
			await register(
				server.runningGameId,
				official.map((c: { id: string; name: string; paramaters: unknown }) => ({
					id: c.id,
					name: c.name,
					paramaters: c.paramaters,
				})),
			),
			200,
		);
		const again = await permissionsOf(server.runningGameId, String(STAFF));
		assert.equal(again.json.permissions[String(STAFF)].readmin_kick, true);
		assert.equal(again.json.permissions[String(STAFF)].readmin_ban, true);
		assert.equal(again.json.permissions[String(STAFF)].readmin_warn, false);
		assert.ok(
			(await commandsStored()).every(
				(c: { id: string; detected: boolean }) => c.detected === c.id.startsWith("readmin_"),
			),
		);
	});

	test("a [running] route: missing gameId 401, not 24-hex 500, unknown 404; no commands list 500", async () => {
		const server = await registerServer(t.api);
		expectFailure(await t.api.post("/activity/commands", { commands: [KICK] }), 401);
		expectFailure(await register(server.internalGameId, [KICK]), 500);
		expectFailure(await register("0123456789abcdef01234567", [KICK]), 404);
		expectFailure(await t.api.post("/activity/commands", { gameId: server.runningGameId }), 500);
		assert.deepEqual(await commandsStored(), []);
	});

	test("it refreshes presence, even when the handler refuses", async () => {
		const server = await registerServer(t.api);
		const before = await presenceOf(server.runningGameId);
		await tick();
		expectFailure(await t.api.post("/activity/commands", { gameId: server.runningGameId }), 500);
		assert.ok((await presenceOf(server.runningGameId)) > before);
	});
});

describe("GET /activity/commands/players/permissions", () => {
	test("every listed player gets every command of the game, true only where an admin granted it", async () => {
		const server = await registerServer(t.api);
		expectStatus(await register(server.runningGameId, [KICK, FIND]), 200);
		await grant("kick", STAFF);
		const answer = await permissionsOf(server.runningGameId, `${STAFF},${PLAYER}`);
		expectStatus(answer, 200);
		assert.deepEqual(answer.json, {
			success: true,
			permissions: {
				[String(STAFF)]: { kick: true, find: false },
				[String(PLAYER)]: { kick: false, find: false },
			},
		});
	});

	test("a revoked grant reads false at the next read", async () => {
		const server = await registerServer(t.api);
		expectStatus(await register(server.runningGameId, [KICK]), 200);
		await grant("kick", STAFF);
		await grant("kick", STAFF, false);
		const answer = await permissionsOf(server.runningGameId, String(STAFF));
		assert.deepEqual(answer.json.permissions, { [String(STAFF)]: { kick: false } });
	});

	test("without playerIds it breaks with a 500; presence was refreshed all the same", async () => {
		const server = await registerServer(t.api);
		const before = await presenceOf(server.runningGameId);
		await tick();
		expectFailure(await t.api.get(`/activity/commands/players/permissions?gameId=${server.runningGameId}`), 500);
		assert.ok((await presenceOf(server.runningGameId)) > before);
	});

	test("a missing gameId is a 401", async () => {
		expectFailure(await t.api.get(`/activity/commands/players/permissions?playerIds=${STAFF}`), 401);
	});
});

describe("POST /games/bans and DELETE /games/bans/{id}", () => {
	test("201 {success, ban}; the next join answers banned with the reason", async () => {
		const server = await registerServer(t.api);
		const answer = await t.api.post("/games/bans", banBody());
		expectStatus(answer, 201);
		assert.equal(answer.json.success, true);
		assert.match(answer.json.ban._id, /^[0-9a-f]{24}$/);
		assert.equal(answer.json.ban.userId, String(PLAYER));
		assert.equal(answer.json.ban.reason, "Exploiting speed");
		assert.equal(answer.json.ban.bannedBy, String(STAFF));
		assert.equal(answer.json.ban.expires, null);
		const join = await t.api.post("/activity/playerJoin", joinBody(server.runningGameId, { playerId: PLAYER }));
		expectStatus(join, 200);
		assert.equal(join.json.banned, true);
		assert.equal(join.json.reason, "Exploiting speed");
	});

	test("expiresInDays sets when the ban ends", async () => {
		const before = Date.now();
		const answer = await t.api.post("/games/bans", banBody({ expiresInDays: 3 }));
		expectStatus(answer, 201);
		const days = (Date.parse(answer.json.ban.expires) - before) / 86_400_000;
		assert.ok(days >= 3 && days < 3.01, `expires ${answer.json.ban.expires}`);
	});

	test("an expired ban no longer refuses the join", async () => {
		const server = await registerServer(t.api);
		// 0.1 s in days: long enough to be recorded, short enough to have ended by the join.
		expectStatus(await t.api.post("/games/bans", banBody({ expiresInDays: 0.1 / 86_400 })), 201);
		await new Promise((resolve) => setTimeout(resolve, 150));
		const join = await t.api.post("/activity/playerJoin", joinBody(server.runningGameId, { playerId: PLAYER }));
		expectStatus(join, 200);
		assert.equal(join.json.banned, false);
	});

	test("an unknown user is a 400 and nothing is stored", async () => {
		expectStatus(await t.control.post("/_control/unknown-users", { userId: "2002" }), 200);
		expectFailure(await t.api.post("/games/bans", banBody({ userId: 2002 })), 400);
		expectFailure(await t.api.post("/games/bans", banBody({ userId: "nobody" })), 400);
		const bans = (await t.control.get("/_control/bans")).json.bans;
		assert.ok(!bans.some((ban: { userId: string }) => ban.userId === "2002" || ban.userId === "nobody"));
	});

	test("a user removed for data protection: 200 success:false with a reason, no ban", async () => {
		expectStatus(await t.control.post("/_control/gdpr-removals", { userId: String(PLAYER) }), 200);
		const answer = await t.api.post("/games/bans", banBody());
		expectStatus(answer, 200);
		assert.equal(answer.json.success, false);
		assert.equal(typeof answer.json.reason, "string");
		const bans = (await t.control.get("/_control/bans")).json.bans;
		assert.ok(!bans.some((ban: { userId: string }) => ban.userId === String(PLAYER)));
	});

	test("DELETE by ban id or by user id lifts it: the next join is not banned; an unknown one is a 404", async () => {
		const server = await registerServer(t.api);
		const ban = (await t.api.post("/games/bans", banBody())).json.ban;
		expectStatus(await t.api.delete(`/games/bans/${ban._id}`), 200);
		const join = await t.api.post("/activity/playerJoin", joinBody(server.runningGameId, { playerId: PLAYER }));
		assert.equal(join.json.banned, false);
		expectStatus(await t.api.post("/games/bans", banBody()), 201);
		expectStatus(await t.api.delete(`/games/bans/${PLAYER}`), 200);
		expectFailure(await t.api.delete(`/games/bans/${PLAYER}`), 404);
	});
});

describe("POST /activity/verifyLink", () => {
	async function makeCode(code: string, expiresInSeconds?: number) {
		const body = {
			code,
			linkedTo: "moderator@website",
			...(expiresInSeconds !== undefined ? { expiresInSeconds } : {}),
		};
		expectStatus(await t.control.post("/_control/verify-codes", body), 200);
	}

	test("each refusal is a reason code: not_found, already_used, expired", async () => {
		const server = await registerServer(t.api);
		await makeCode("USED01");
		await makeCode("OLD001", -1);
		const verify = (code: string) =>
			t.api.post("/activity/verifyLink", { gameId: server.runningGameId, code, userKey: String(STAFF) });
		expectStatus(await verify("USED01"), 200);
		for (const [code, reason] of [
			["NOPE", "not_found"],
			["USED01", "already_used"],
			["OLD001", "expired"],
		]) {
			const answer = await verify(code);
			expectStatus(answer, 200);
			assert.deepEqual(answer.json, { success: false, reason });
		}
	});

	test("a good code links once: {success, linkedTo}; used again: 200 success:false with a reason", async () => {
		const server = await registerServer(t.api);
		await makeCode("ABC123");
		const body = { gameId: server.runningGameId, code: "ABC123", userKey: String(STAFF) };
		const first = await t.api.post("/activity/verifyLink", body);
		expectStatus(first, 200);
		assert.deepEqual(first.json, { success: true, linkedTo: "moderator@website" });
		const again = await t.api.post("/activity/verifyLink", { ...body, userKey: String(PLAYER) });
		expectStatus(again, 200);
		assert.equal(again.json.success, false);
		assert.equal(again.json.reason, "already_used");
		const codes = (await t.control.get("/_control/verify-codes")).json.codes;
		assert.equal(codes[0].usedBy, String(STAFF));
	});

	test("a bad code: 200 success:false with a reason; a missing gameId 401; a missing code 500", async () => {
		const server = await registerServer(t.api);
		const bad = await t.api.post("/activity/verifyLink", {
			gameId: server.runningGameId,
			code: "NOPE",
			userKey: "1",
		});
		expectStatus(bad, 200);
		assert.equal(bad.json.success, false);
		assert.equal(bad.json.reason, "not_found");
		expectFailure(await t.api.post("/activity/verifyLink", { code: "NOPE", userKey: "1" }), 401);
		expectFailure(await t.api.post("/activity/verifyLink", { gameId: server.runningGameId, userKey: "1" }), 500);
	});

	test("it refreshes presence", async () => {
		const server = await registerServer(t.api);
		const before = await presenceOf(server.runningGameId);
		await tick();
		await t.api.post("/activity/verifyLink", { gameId: server.runningGameId, code: "NOPE", userKey: "1" });
		assert.ok((await presenceOf(server.runningGameId)) > before);
	});
});

describe("the interface profile", () => {
	test("answers every command route as an unknown route (404), before the key check", async () => {
		expectStatus(await t.control.post("/_control/reset", { profile: "default" }), 200);
		for (const [method, path] of [
			["POST", "/activity/commands"],
			["GET", "/activity/commands/players/permissions"],
			["POST", "/games/bans"],
			["DELETE", "/games/bans/2001"],
			["POST", "/activity/verifyLink"],
		]) {
			const answer = await t.api.request(method, path, {
				body: method === "GET" ? undefined : { gameId: "x" },
				key: null,
			});
			expectFailure(answer, 404);
		}
		const log = await t.control.get("/_control/requests");
		assert.deepEqual(log.json.counts, {
			registerCommands: 1,
			commandPermissions: 1,
			createBan: 1,
			deleteBan: 1,
			verifyLink: 1,
		});
	});
});
