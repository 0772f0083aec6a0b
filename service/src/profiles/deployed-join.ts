import type { Platform } from "../model.js";
import { recordJoin } from "../resources/activity.js";
import { pingServer } from "../resources/running-games.js";
import { openSession } from "../resources/sessions.js";
import { isoAt } from "../time.js";
import type { WorkspaceState } from "../workspace-state.js";
import type { Settings } from "./profile.js";
import { activeBan } from "./deployed-bans.js";
import { consentOf } from "./deployed-consent.js";
import { fieldsOf, findRunningGame, userIdOf } from "./deployed-ids.js";

/** The deployed service stores a timezone only in exactly this form; anything else is stored empty. */
const STORED_TZ_OFFSET = /^[+-]\d{2}:\d{2}$/;

/**
 * Who the join is about: `userKey` (the UserId as a string) when sent, else `playerId`; whether they count as
 * staff: a member record (the seed's staff) decides, and without one the service trusts `groupRank`, so a
 * wrong value makes a player staff (the library never sends it).
 */
function identify(ws: WorkspaceState, input: Record<string, unknown>) {
	const userId = typeof input.userKey === "string" && input.userKey !== "" ? input.userKey : userIdOf(input.playerId);
	const member = ws.staffIds.has(userId);
	const rank = input.groupRank;
	const isStaff = member || (typeof rank === "number" && rank >= ws.profile.minSyncRole);
	return { userId, isStaff };
}

/**
 * Why the service tracks nothing for this player (`tracked:false`: no `banned`, no session), or null: a user
 * removed for data protection, a non-staff player in staff-only mode, or a player who denied consent.
 */
function untrackedBecause(ws: WorkspaceState, userId: string, isStaff: boolean): string | null {
	if (ws.gdprRemoved.has(userId)) return "gdpr";
	if (ws.inGame.privacy.trackStaffOnly && !isStaff) return "staffOnly";
	if (ws.inGame.privacy.requireConsent && consentOf(ws, userId) === false) return "consentDenied";
	return null;
}

/**
 * `POST /activity/playerJoin` as deployed: only `gameId` is looked at before acting (see findRunningGame), the
 * rest is taken as sent. Not idempotent: every call adds a new Running player and opens a new session, even
 * for a user already in the server. A banned player is answered `banned:true` with the reason and is not
 * added. The session starts at `datetime` (Unix ms) when sent, else now. Privacy: see untrackedBecause; when
 * the workspace requires consent and the user has not granted it, the answer asks for it (`needsConsent`).
 */
export function deployedPlayerJoin(ws: WorkspaceState, body: unknown, settings: Settings, now: number) {
	const input = fieldsOf(body);
	const server = findRunningGame(ws, input.gameId);
	pingServer(ws, server, now);
	const { userId, isStaff: staffByRecord } = identify(ws, input);
	const tzOffset = typeof input.tzOffset === "string" ? input.tzOffset : "";
	const platform = (typeof input.platform === "string" ? input.platform : "unknown") as Platform;
	const startMs = typeof input.datetime === "number" && Number.isFinite(input.datetime) ? input.datetime : now;
	const untracked = untrackedBecause(ws, userId, staffByRecord);
	const ban = untracked === null ? activeBan(ws, userId, now) : undefined;
	recordJoin(
		ws,
		{
			userId,
			runningGameId: server.game._id,
			platform,
			safechat: input.safechat === true,
			tzOffset,
			username: typeof input.username === "string" ? input.username : "",
			banned: ban !== undefined,
			at: now,
			...optionalJoinFields(input),
		},
		STORED_TZ_OFFSET.test(tzOffset) ? tzOffset : "",
	);
	const isStaff = !ban && staffByRecord;
	const expiration = isoAt(now + settings.forgetAfterMs);
	if (untracked !== null) return { isStaff, tracked: false, needsConsent: false, expiration };
	const needsConsent = !ban && ws.inGame.privacy.requireConsent && consentOf(ws, userId) !== true;
	const opened = ban
		? { sessionId: "", runningPlayerId: "" }
		: openSession(ws, server, { userId, playerId: Number(userId) || 0, platform, isStaff, needsConsent }, startMs);
	const answer: Record<string, unknown> = {
		isStaff,
		...opened,
		tracked: true,
		needsConsent,
		expiration,
		banned: ban !== undefined,
	};
	if (ban) answer.reason = ban.reason;
	if (settings.privacy) {
		delete answer.sessionId;
		delete answer.runningPlayerId;
		if (!ban) delete answer.banned;
	}
	return answer;
}

/** The deployed join's extra fields, kept in the join record only when sent, so a spec can see what went out. */
function optionalJoinFields(input: Record<string, unknown>) {
	const extra: { userKey?: unknown; displayName?: unknown; datetime?: unknown; groupRank?: unknown } = {};
	for (const name of ["userKey", "displayName", "datetime", "groupRank"] as const) {
		if (input[name] !== undefined) extra[name] = input[name];
	}
	return extra;
}
