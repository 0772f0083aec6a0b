import type { Platform } from "../model.js";
import { recordJoin } from "../resources/activity.js";
import { pingServer } from "../resources/running-games.js";
import { openSession } from "../resources/sessions.js";
import { isoAt } from "../time.js";
import type { WorkspaceState } from "../workspace-state.js";
import type { Settings } from "./profile.js";
import { fieldsOf, findRunningGame, userIdOf } from "./deployed-ids.js";

/** The deployed service stores a timezone only in exactly this form; anything else is stored empty. */
const STORED_TZ_OFFSET = /^[+-]\d{2}:\d{2}$/;

/**
 * `POST /activity/playerJoin` as deployed: only `gameId` is looked at before acting (see findRunningGame), the
 * rest is taken as sent. Not idempotent: every call adds a new Running player and opens a new session, even
 * for a user already in the server. A banned player is answered `banned:true` with the reason and is not added.
 */
export function deployedPlayerJoin(ws: WorkspaceState, body: unknown, settings: Settings, now: number) {
	const input = fieldsOf(body);
	const server = findRunningGame(ws, input.gameId);
	pingServer(ws, server, now);
	const userId = userIdOf(input.playerId);
	const tzOffset = typeof input.tzOffset === "string" ? input.tzOffset : "";
	const platform = (typeof input.platform === "string" ? input.platform : "unknown") as Platform;
	const ban = ws.bans.get(userId);
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
		},
		STORED_TZ_OFFSET.test(tzOffset) ? tzOffset : "",
	);
	const isStaff = !ban && ws.staffIds.has(userId);
	const opened = ban
		? { sessionId: "", runningPlayerId: "" }
		: openSession(ws, server, { userId, playerId: Number(userId) || 0, platform, isStaff }, now);
	const answer: Record<string, unknown> = {
		isStaff,
		...opened,
		// Plausible values for the fields the interface does not list; the library must not depend on them.
		tracked: isStaff,
		needsConsent: false,
		expiration: isoAt(now + settings.forgetAfterMs),
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
