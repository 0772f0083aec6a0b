import { pingServer } from "../resources/running-games.js";
import { endSession } from "../resources/sessions.js";
import { ServiceError } from "../service-error.js";
import type { LiveSession, RunningServer, WorkspaceState } from "../workspace-state.js";
import { consentOf } from "./deployed-consent.js";
import { fieldsOf, findRunningGame, userIdOf } from "./deployed-ids.js";
import { deleteSession } from "./deployed-presence.js";
import { endCallsOfLeaver } from "./deployed-tickets.js";

/**
 * The session a leave ends, found as the deployed service finds it (docs/service-contract.md#a-leave-is-not-safe-to-repeat):
 * the player's first open session in the whole workspace, whatever server it is on. So a repeated or late leave
 * ends the session on the server the player has moved to.
 */
function firstOpenSession(ws: WorkspaceState, userId: string): [RunningServer, LiveSession] | undefined {
	for (const [, server] of ws.servers) {
		const live = server.liveSessions.find((candidate) => candidate.userId === userId);
		if (live) return [server, live];
	}
	return undefined;
}

/**
 * When a final chunk ends the session: at `datetime` (Unix ms) when it is a number, else at `leftTime` in whole
 * seconds, as the deployed service does (docs/service-contract.md#a-leave-ends-to-the-millisecond): without
 * `datetime` a visit that ends within its join's second ends before it starts, with negative minutes.
 */
function leaveEndMs(input: Record<string, unknown>, leftTime: number): number {
	return typeof input.datetime === "number" && Number.isFinite(input.datetime) ? input.datetime : leftTime * 1000;
}

/**
 * `POST /activity/playerLeave/v2` `{gameId, playerId, events, final, leftTime, datetime?}`: the official module sends
 * a player's activity in chunks; the final one ends the player's first open session in the workspace (on any server,
 * not only the one the request names) at `datetime`, else `leftTime`, and removes its running player. NOT safe to
 * repeat: a second leave ends the player's next open session, if any; with none it answers `finalized:false`. It
 * also ends the player's live calls on the server the request names (`userLeft`), and a visit whose join asked for
 * consent that was never granted is deleted instead of ended. A chunk that is not final only refreshes presence. A
 * final chunk without `leftTime` is refused with `error` instead of `reason`, as the deployed service does.
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
	endCallsOfLeaver(ws, server, userId, now);
	const found = firstOpenSession(ws, userId);
	if (!found) return { finalized: false };
	const [home, live] = found;
	// Without a grant, a visit that asked for consent leaves no records behind.
	if (live.needsConsent && consentOf(ws, userId) !== true) deleteSession(ws, live);
	else endSession(ws, live, leaveEndMs(input, input.leftTime));
	home.liveSessions = home.liveSessions.filter((candidate) => candidate !== live);
	const player = home.players.findIndex((candidate) => candidate.userId === userId);
	if (player >= 0) home.players.splice(player, 1);
	return { finalized: true };
}
