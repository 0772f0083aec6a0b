import { pingServer } from "../resources/running-games.js";
import type { WorkspaceState } from "../workspace-state.js";
import { fieldsOf, findRunningGame, internalServerError, needed, userIdOf } from "./deployed-ids.js";

/** The user's last consent decision in this workspace, if any. */
export function consentOf(ws: WorkspaceState, userId: string): boolean | undefined {
	for (let index = ws.consents.length - 1; index >= 0; index -= 1) {
		if (ws.consents[index].userId === userId) return ws.consents[index].granted;
	}
	return undefined;
}

/**
 * `POST /activity/consent {gameId, playerId, granted}`: the player's answer to the consent prompt. Stored as
 * sent (the last decision counts); a missing or non-boolean `granted` breaks the handler (500). Answered, as the
 * deployed service does, with the decision it stored: `{success: true, consent: "granted"|"declined"}`.
 */
export function recordConsent(ws: WorkspaceState, body: unknown, now: number) {
	const input = fieldsOf(body);
	const server = findRunningGame(ws, input.gameId);
	pingServer(ws, server, now);
	const userId = userIdOf(needed(input, "playerId"));
	const granted = needed(input, "granted");
	if (typeof granted !== "boolean") throw internalServerError();
	ws.consents.push({ userId, runningGameId: server.game._id, granted, at: now });
	return { success: true, consent: granted ? "granted" : "declined" };
}
