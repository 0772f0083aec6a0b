import { pingServer } from "../resources/running-games.js";
import { endSession } from "../resources/sessions.js";
import { ServiceError } from "../service-error.js";
import type { WorkspaceState } from "../workspace-state.js";
import { fieldsOf, findRunningGame, userIdOf } from "./deployed-ids.js";

/**
 * `POST /activity/playerLeave/v2` `{gameId, playerId, events, final, leftTime}`: the official module sends a
 * player's activity in chunks; the final one ends every open session of that player on that server at
 * `leftTime` (unix seconds) and removes their running players. Idempotent: with nothing left to end it answers
 * `finalized:false`. A chunk that is not final only refreshes presence. A final chunk without `leftTime` is
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
	for (const live of leaving) endSession(ws, live, input.leftTime * 1000);
	server.liveSessions = server.liveSessions.filter((live) => live.userId !== userId);
	server.players = server.players.filter((player) => player.userId !== userId);
	return { finalized: leaving.length > 0 };
}
