import type { FastifyReply, FastifyRequest } from "fastify";
import { removeSilentServers } from "../silence.js";
import type { Store } from "../store.js";
import { unknownRouteAnswer } from "./error-answers.js";

/**
 * First hook of every request, control requests included: silent servers go (so nothing can see one that
 * should be gone) and the request takes the current settings.
 */
export function arrival(store: Store) {
	return async (request: FastifyRequest) => {
		request.receivedAt = Date.now();
		removeSilentServers(store, request.receivedAt);
		request.settings = store.settings();
	};
}

/**
 * A route the current profile lacks (the extension routes in the default profile, the order routes in the
 * deployed one) answers exactly like an unknown path, before the key check and faults; it is still logged
 * under its operation id, so specs can count what a client sent.
 */
export function profileGate() {
	return async (request: FastifyRequest, reply: FastifyReply) => {
		const profiles = request.routeOptions.config?.profiles;
		if (!profiles || profiles.includes(request.settings.profile)) return undefined;
		return reply.code(404).send(unknownRouteAnswer(request.settings.profile, request.method, request.url));
	};
}
