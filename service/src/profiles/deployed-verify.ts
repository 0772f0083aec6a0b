import { pingServer } from "../resources/running-games.js";
import type { WorkspaceState } from "../workspace-state.js";
import { fieldsOf, findRunningGame, needed, userIdOf } from "./deployed-ids.js";

/** A code the website gives a member to link their in-game identity (made through the control API). */
export interface VerifyCode {
	code: string;
	/** The website account the code links to, answered as `linkedTo`. */
	linkedTo: string;
	usedBy: string | null;
	usedAt: number | null;
}

/**
 * `POST /activity/verifyLink {gameId, code, userKey}` [running]: links the player to the code's website account
 * once. A bad or used code is a soft refusal (200 `success: false` with a reason to show the player); a missing
 * `code` or `userKey` breaks the handler (500).
 */
export function verifyLink(ws: WorkspaceState, body: unknown, now: number) {
	const input = fieldsOf(body);
	const server = findRunningGame(ws, input.gameId);
	pingServer(ws, server, now);
	const code = String(needed(input, "code"));
	const userKey = userIdOf(needed(input, "userKey"));
	const entry = ws.verifyCodes.find((candidate) => candidate.code === code);
	if (!entry) return { success: false, reason: "Invalid verification code." };
	if (entry.usedBy !== null) return { success: false, reason: "This verification code has already been used." };
	entry.usedBy = userKey;
	entry.usedAt = now;
	return { success: true, linkedTo: entry.linkedTo };
}
