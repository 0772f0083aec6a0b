import { findServerByRunningGameId } from "../resources/running-games.js";
import { ServiceError, notFound } from "../service-error.js";
import type { RunningServer, WorkspaceState } from "../workspace-state.js";

const DOCUMENT_ID = /^[0-9a-fA-F]{24}$/;

/** The deployed service's ids (running games, every `_id`, calls) are 24-hex database ids. */
export function isDocumentId(value: unknown): value is string {
	return typeof value === "string" && DOCUMENT_ID.test(value);
}

/**
 * The deployed service casts ids to database ids without checking them first, so anything else fails inside
 * it: a 500, not a 400 or 404.
 */
export function internalServerError(): ServiceError {
	return new ServiceError(500, "Internal server error");
}

/**
 * How the deployed service finds the running game an operation names in its body's `gameId` (playerJoin and
 * the extension routes): none at all is refused as unauthorised (401), a value that is not a 24-hex id breaks
 * the lookup (500), and an id of no running game, never registered or deleted after silence, is a 404.
 */
export function findRunningGame(ws: WorkspaceState, gameId: unknown): RunningServer {
	if (gameId === undefined || gameId === null || gameId === "") {
		throw new ServiceError(401, "Unauthorized: the request names no running game (gameId)");
	}
	if (!isDocumentId(gameId)) throw internalServerError();
	const server = findServerByRunningGameId(ws, gameId);
	if (!server) throw notFound(`Running game ${gameId} not found`);
	return server;
}

/** Bodies the deployed service does not check: anything that is not an object reads as an empty one. */
export function fieldsOf(body: unknown): Record<string, unknown> {
	return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** A user id as the deployed service keys it: the `playerId` sent (a number or a string), as a string. */
export function userIdOf(playerId: unknown): string {
	return typeof playerId === "number" || typeof playerId === "string" ? String(playerId) : "";
}

/**
 * The deployed service validates nothing: a field its handler needs but does not get breaks it (500, not 400).
 * Returns the field when present.
 */
export function needed(input: Record<string, unknown>, name: string): unknown {
	const value = input[name];
	if (value === undefined || value === null) throw internalServerError();
	return value;
}
