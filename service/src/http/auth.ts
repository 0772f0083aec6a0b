import type { FastifyReply, FastifyRequest } from "fastify";
import type { Store } from "../store.js";
import { failure } from "./error-answers.js";

/**
 * Checks `loader-id` on every operation and binds the request to that key's workspace. The key is compared,
 * never repeated: not in reasons, not in logs.
 */
export function keyCheck(store: Store) {
	return async (request: FastifyRequest, reply: FastifyReply) => {
		if (!request.routeOptions.config?.operation) return;
		const header = request.headers["loader-id"];
		const key = Array.isArray(header) ? header[0] : header;
		if (!key) return reply.code(401).send(failure("Missing API key: send it in the loader-id header"));
		const workspace = store.workspaceFor(key);
		if (!workspace) return reply.code(401).send(failure("Unknown API key in the loader-id header"));
		request.workspace = workspace;
		return undefined;
	};
}
