import { newDocumentId } from "../ids.js";
import { ServiceError, notFound } from "../service-error.js";
import { isoAt } from "../time.js";
import type { WorkspaceState } from "../workspace-state.js";
import { fieldsOf, isDocumentId, userIdOf } from "./deployed-ids.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/** A ban as the workspace keeps it: the seed's have no `_id` and never expire. */
export interface BanRecord {
	reason: string;
	bannedBy: string;
	_id?: string;
	createdMs?: number;
	/** When it stops refusing joins; absent: never. */
	expiresMs?: number;
}

/** The user's ban that still refuses joins at `now`, if any; an expired one is forgotten. */
export function activeBan(ws: WorkspaceState, userId: string, now: number): BanRecord | undefined {
	const ban = ws.bans.get(userId);
	if (ban?.expiresMs !== undefined && ban.expiresMs <= now) {
		ws.bans.delete(userId);
		return undefined;
	}
	return ban;
}

/** A ban as the deployed service answers it. */
export function banView(ws: WorkspaceState, userId: string, ban: BanRecord) {
	return {
		_id: ban._id ?? null,
		groupId: ws.groupId,
		userId,
		reason: ban.reason,
		bannedBy: ban.bannedBy,
		created: ban.createdMs === undefined ? null : isoAt(ban.createdMs),
		expires: ban.expiresMs === undefined ? null : isoAt(ban.expiresMs),
	};
}

/**
 * `POST /games/bans {userId, reason, bannedByUserId, expiresInDays?}`: records a ban the next join answers
 * (`banned: true` with the reason). An unknown user (no positive UserId, or one marked unknown through the
 * control API) is a 400; a user removed for data protection is refused with 200 `success: false`. Answered 201.
 */
export function createBan(ws: WorkspaceState, body: unknown, now: number) {
	const input = fieldsOf(body);
	const userId = userIdOf(input.userId);
	if (!/^[1-9]\d*$/.test(userId) || ws.unknownUsers.has(userId)) throw new ServiceError(400, "User not found");
	if (ws.gdprRemoved.has(userId)) {
		return { status: 200, answer: { success: false, reason: "This user has requested data removal" } };
	}
	const days = input.expiresInDays;
	const ban: BanRecord = {
		_id: newDocumentId(now),
		reason: typeof input.reason === "string" ? input.reason : "",
		bannedBy: userIdOf(input.bannedByUserId),
		createdMs: now,
		...(typeof days === "number" && days > 0 ? { expiresMs: now + days * DAY_MS } : {}),
	};
	ws.bans.set(userId, ban);
	return { status: 201, answer: { success: true, ban: banView(ws, userId, ban) } };
}

/** `DELETE /games/bans/{userId or banId}`: lifts the ban; none by that id or user: 404. */
export function deleteBan(ws: WorkspaceState, idOrUserId: string) {
	const byId = isDocumentId(idOrUserId) ? [...ws.bans].find(([, ban]) => ban._id === idOrUserId) : undefined;
	const userId = byId?.[0] ?? idOrUserId;
	const ban = ws.bans.get(userId);
	if (!ban) throw notFound(`No ban for ${idOrUserId}`);
	ws.bans.delete(userId);
	return { success: true, ban: banView(ws, userId, ban) };
}
