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
	/** When the code stops working (Unix ms); null for never. */
	expiresAt: number | null;
}

/** The deployed service's refusal reasons (DESIGN §3): codes, for the game to turn into words of its own. */
export const VERIFY_REASONS = ["not_found", "already_used", "expired"] as const;

/**
 * `POST /activity/verifyLink {gameId, code, userKey}` [running]: links the player to the code's website account
 * once. An unknown, used or expired code is a soft refusal: 200 `{success: false, reason}` with the reason as a code
 * (`not_found`, `already_used`, `expired`), never a sentence; a missing `code` or `userKey` breaks the handler (500).
 */
export function verifyLink(ws: WorkspaceState, body: unknown, now: number) {
	const input = fieldsOf(body);
	const server = findRunningGame(ws, input.gameId);
	pingServer(ws, server, now);
	const code = String(needed(input, "code"));
	const userKey = userIdOf(needed(input, "userKey"));
	const entry = ws.verifyCodes.find((candidate) => candidate.code === code);
	if (!entry) return { success: false, reason: "not_found" };
	if (entry.usedBy !== null) return { success: false, reason: "already_used" };
	if (entry.expiresAt !== null && now >= entry.expiresAt) return { success: false, reason: "expired" };
	entry.usedBy = userKey;
	entry.usedAt = now;
	return { success: true, linkedTo: entry.linkedTo };
}
