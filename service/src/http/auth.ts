import type { FastifyReply, FastifyRequest } from "fastify";
import type { RankingKeyUsed } from "../profiles/deployed-ranking.js";
import type { Store } from "../store.js";
import { failure } from "./error-answers.js";

const headerOf = (request: FastifyRequest, name: string) => {
	const header = request.headers[name];
	return Array.isArray(header) ? header[0] : header;
};

/**
 * Checks `loader-id` on every operation and binds the request to that key's workspace; the ranking route checks its
 * own key instead ({@link rankingKeyCheck}). A key is compared, never repeated: not in reasons, not in logs.
 */
export function keyCheck(store: Store) {
	return async (request: FastifyRequest, reply: FastifyReply) => {
		const config = request.routeOptions.config;
		if (!config?.operation) return;
		if (config.credential === "rankingKey") return rankingKeyCheck(store, request, reply);
		const key = headerOf(request, "loader-id");
		if (!key) return reply.code(401).send(failure("Missing API key: send it in the loader-id header"));
		const workspace = store.workspaceFor(key);
		if (!workspace) return reply.code(401).send(failure("Unknown API key in the loader-id header"));
		request.workspace = workspace;
		return undefined;
	};
}

/**
 * The ranking route's key: `api-key` must be a ranking key the service was given; anything else, a workspace's
 * loader-id key included, is refused with 401. Every call is recorded (what kind of key came, never its value).
 */
function rankingKeyCheck(store: Store, request: FastifyRequest, reply: FastifyReply) {
	const key = headerOf(request, "api-key");
	const workspace = key ? store.workspaceForRankingKey(key) : undefined;
	const used: RankingKeyUsed = !key
		? "missing"
		: workspace
			? "ranking"
			: store.workspaceFor(key)
				? "loader-id"
				: "unknown";
	const params = request.params as { id?: string; rank?: string };
	store.rankCalls.push({
		groupId: workspace?.groupId ?? null,
		userId: params.id ?? "",
		rank: params.rank ?? "",
		accepted: workspace !== undefined,
		apiKey: used,
		loaderIdSent: headerOf(request, "loader-id") !== undefined,
		at: request.receivedAt,
	});
	if (!workspace) {
		const reason = key ? "Invalid ranking key in the api-key header" : "Missing ranking key: send it in api-key";
		return reply.code(401).send(failure(reason));
	}
	request.workspace = workspace;
	return undefined;
}
