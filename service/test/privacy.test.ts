/**
 * The deployed profile's privacy and in-game settings (docs/service-contract.md#privacy-and-consent, and createServer's extra
 * fields): staff-only tracking, data-protection removal, consent, and what the registration answer carries.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
	BANNED,
	PLAYER,
	expectFailure,
	expectStatus,
	joinBody,
	registerServer,
	serverBody,
} from "../test-support/fixtures.js";
import { recordsOf, useService } from "../test-support/service-under-test.js";

const t = useService({ profile: "deployed" });

const STAFF = 1003;

async function settings(body: Record<string, unknown>) {
	const answer = await t.control.post("/_control/settings", body);
	expectStatus(answer, 200);
	return answer.json;
}

async function join(runningGameId: string, playerId: number) {
	const answer = await t.api.post("/activity/playerJoin", joinBody(runningGameId, { playerId }));
	expectStatus(answer, 200);
	return answer.json;
}

function leave(runningGameId: string, playerId: number) {
	const leftTime = Math.floor(Date.now() / 1000);
	return t.api.post("/activity/playerLeave/v2", {
		gameId: runningGameId,
		playerId: String(playerId),
		events: [],
		final: true,
		leftTime,
	});
}

function consent(runningGameId: string, playerId: number, granted: unknown) {
	return t.api.post("/activity/consent", { gameId: runningGameId, playerId, granted });
}

async function devRecords() {
	return (await recordsOf(t.control)).workspaces[0];
}

const UNTRACKED_KEYS = ["expiration", "isStaff", "needsConsent", "success", "tracked"];

describe("createServer's in-game settings", () => {
	test("moderation, afkReportingSettings and privacy sit at the top level, as the control API set them", async () => {
		const first = await t.api.post("/activity/createServer", serverBody());
		assert.equal(first.json.moderation, true);
		// The deployed service's shape and default: both signals on, no time set (the official module's 45 s applies).
		assert.deepEqual(first.json.afkReportingSettings, { altTab: { active: true }, movement: { active: true } });
		assert.deepEqual(first.json.privacy, { trackStaffOnly: false, requireConsent: false });
		assert.equal("moderation" in first.json.workspace, false);
		await settings({
			moderation: false,
			privacy: { requireConsent: true },
			afkReportingSettings: { altTab: { active: false }, movement: { active: true, timeUntilIdle: 120 } },
		});
		const second = await t.api.post("/activity/createServer", serverBody());
		assert.equal(second.json.moderation, false);
		assert.deepEqual(second.json.afkReportingSettings, {
			altTab: { active: false },
			movement: { active: true, timeUntilIdle: 120 },
		});
		assert.deepEqual(second.json.privacy, { trackStaffOnly: false, requireConsent: true });
	});
});

describe("tracked:false", () => {
	test("staff-only mode: a non-staff player gets tracked:false, no banned and no session; staff are tracked", async () => {
		await settings({ privacy: { trackStaffOnly: true } });
		const server = await registerServer(t.api);
		const player = await join(server.runningGameId, PLAYER);
		assert.deepEqual(Object.keys(player).sort(), UNTRACKED_KEYS);
		assert.equal(player.tracked, false);
		const banned = await join(server.runningGameId, BANNED.userId);
		assert.equal("banned" in banned, false, "not even a banned player is looked at");
		const staff = await join(server.runningGameId, STAFF);
		assert.equal(staff.tracked, true);
		assert.deepEqual((await devRecords()).sessionsByUser, { [String(STAFF)]: 1 });
	});

	test("a GDPR-removed user gets tracked:false and no session", async () => {
		expectStatus(await t.control.post("/_control/gdpr-removals", { userId: String(STAFF) }), 200);
		const server = await registerServer(t.api);
		const answer = await join(server.runningGameId, STAFF);
		assert.deepEqual(Object.keys(answer).sort(), UNTRACKED_KEYS);
		assert.equal(answer.tracked, false);
		assert.deepEqual((await devRecords()).sessionsByUser, {});
	});
});

describe("consent", () => {
	test("requireConsent: a user who has not granted gets needsConsent:true (and a session)", async () => {
		await settings({ privacy: { requireConsent: true } });
		const server = await registerServer(t.api);
		const answer = await join(server.runningGameId, PLAYER);
		assert.equal(answer.needsConsent, true);
		assert.equal(answer.tracked, true);
		assert.equal(answer.banned, false);
		assert.match(answer.sessionId, /^[0-9a-f]{24}$/);
	});

	test("without a grant the visit's records are deleted at leave; with one they stay", async () => {
		await settings({ privacy: { requireConsent: true } });
		const server = await registerServer(t.api);
		await join(server.runningGameId, PLAYER);
		await join(server.runningGameId, 2002);
		expectStatus(await consent(server.runningGameId, 2002, true), 200);
		expectStatus(await leave(server.runningGameId, PLAYER), 200);
		expectStatus(await leave(server.runningGameId, 2002), 200);
		const deleted = Object.fromEntries(
			(await devRecords()).sessions.map((s: { userId: string; deleted: boolean }) => [s.userId, s.deleted]),
		);
		assert.deepEqual(deleted, { [String(PLAYER)]: true, "2002": false });
		const consents = (await t.control.get("/_control/consents")).json.consents;
		assert.deepEqual(
			consents.map((c: { userId: string; granted: boolean; runningGameId: string }) => [
				c.userId,
				c.granted,
				c.runningGameId,
			]),
			[["2002", true, server.runningGameId]],
		);
		assert.equal((await join(server.runningGameId, 2002)).needsConsent, false, "a grant is remembered");
	});

	test("a consent-denied user's next join: tracked:false and no banned field", async () => {
		await settings({ privacy: { requireConsent: true } });
		const server = await registerServer(t.api);
		await join(server.runningGameId, PLAYER);
		expectStatus(await consent(server.runningGameId, PLAYER, false), 200);
		const again = await join(server.runningGameId, PLAYER);
		assert.deepEqual(Object.keys(again).sort(), UNTRACKED_KEYS);
		assert.equal(again.tracked, false);
	});

	test("the answer names the decision stored: consent granted or declined", async () => {
		const server = await registerServer(t.api);
		const granted = await consent(server.runningGameId, PLAYER, true);
		expectStatus(granted, 200);
		assert.deepEqual(granted.json, { success: true, consent: "granted" });
		const declined = await consent(server.runningGameId, 2002, false);
		expectStatus(declined, 200);
		assert.deepEqual(declined.json, { success: true, consent: "declined" });
	});

	test("consent without playerId or with a non-boolean granted: 500", async () => {
		const server = await registerServer(t.api);
		expectFailure(await consent(server.runningGameId, PLAYER, "yes"), 500);
		expectFailure(await t.api.post("/activity/consent", { gameId: server.runningGameId, granted: true }), 500);
		assert.deepEqual((await t.control.get("/_control/consents")).json.consents, []);
	});
});
