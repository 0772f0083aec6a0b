import { pingServer } from "../resources/running-games.js";
import { endSession } from "../resources/sessions.js";
import { ServiceError } from "../service-error.js";
import type { WorkspaceState } from "../workspace-state.js";
import { consentOf } from "./deployed-consent.js";
import { fieldsOf, findRunningGame, userIdOf } from "./deployed-ids.js";
import { deleteSession } from "./deployed-presence.js";
import { endCallsOfLeaver } from "./deployed-tickets.js";

/**
 * `POST /activity/playerLeave/v2` `{gameId, playerId, events, final, leftTime}`: the official module sends a
 * player's activity in chunks; the final one ends every open session of that player on that server at
 * `leftTime` (unix seconds) and removes their running players. Idempotent: with nothing left to end it answers
 * `finalized:false`. It also ends the player's live calls on that server (`userLeft`), and a visit whose join
 * asked for consent that was never granted is deleted instead of ended. A chunk that is not final only
 * refreshes presence. A final chunk without `leftTime` is
 * refused with `error` instead of `reason`, as the deployed service does.
 */
export function playerLeave(ws: WorkspaceState, body: unknown, now: number): { finalized: boolean } {
	const input = fieldsOf(body);
	const server = findRunningGame(ws, input.gameId);
	pingServer(ws, server, now);
	if (input.final !== true) return { finalized: false };
	if (typeof input.leftTime !== "number" || !Number.isFinite(input.leftTime)) {
		throw new ServiceError(400, "leftTime is required on a final chunk", {
			success: false,
			error: "leftTime is required on a final chunk",
		});
	}
	const userId = userIdOf(input.playerId);
	const leaving = server.liveSessions.filter((live) => live.userId === userId);
	for (const live of leaving) {
		// Without a grant, a visit that asked for consent leaves no records behind.
		if (live.needsConsent && consentOf(ws, userId) !== true) deleteSession(ws, live);
		else endSession(ws, live, input.leftTime * 1000);
	}
	endCallsOfLeaver(ws, server, userId, now);
	server.liveSessions = server.liveSessions.filter((live) => live.userId !== userId);
	server.players = server.players.filter((player) => player.userId !== userId);
	return { finalized: leaving.length > 0 };
}
