import type { FastifyRequest } from "fastify";
import type { FaultRule } from "../faults/fault-book.js";
import type { OperationId } from "../operations.js";
import type { ProfileName, Settings } from "../profiles/profile.js";
import type { WorkspaceState } from "../workspace-state.js";

declare module "fastify" {
	interface FastifyContextConfig {
		operation?: OperationId;
		/** The profiles that have this route; absent means every profile. */
		profiles?: readonly ProfileName[];
		/** The key the route takes: the ranking route's `api-key`; absent means the `loader-id` key. */
		credential?: "rankingKey";
	}
	interface FastifyRequest {
		/** The caller's workspace, set by the key check. */
		workspace: WorkspaceState | null;
		/** The fault rule this request drew, if any. */
		fault: FaultRule | null;
		/** Arrival time in ms since the epoch, for the request log. */
		receivedAt: number;
		/** The service's settings when the request arrived (profile, privacy, silence limit). */
		settings: Settings;
	}
}

export const CONTROL_PREFIX = "/_control/";

export function pathOf(request: FastifyRequest): string {
	return request.url.split("?")[0];
}

/** The operation a request addresses; "unknown" for paths that match none, null for control requests. */
export function operationOf(request: FastifyRequest): OperationId | "unknown" | null {
	const operation = request.routeOptions.config?.operation;
	if (operation) return operation;
	return pathOf(request).startsWith(CONTROL_PREFIX) ? null : "unknown";
}

export function workspaceOf(request: FastifyRequest): WorkspaceState {
	if (!request.workspace) throw new Error("an operation ran without a checked key");
	return request.workspace;
}

/**
 * The body of a `[running]` route (one that names a running game): the deployed service takes the running
 * game's id from the body or, when the body has none, from `?gameId=`.
 */
export function runningGameBody(request: FastifyRequest): unknown {
	const { body } = request;
	const query = request.query as Record<string, unknown> | undefined;
	const fields = typeof body === "object" && body !== null && !Array.isArray(body) ? body : undefined;
	if ((fields && "gameId" in fields) || typeof query?.gameId !== "string") return body;
	return { ...fields, gameId: query.gameId };
}
