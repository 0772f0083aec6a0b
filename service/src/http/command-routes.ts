import type { FastifyInstance } from "fastify";
import { createBan, deleteBan } from "../profiles/deployed-bans.js";
import { commandPermissions, registerCommands } from "../profiles/deployed-commands.js";
import { setRank } from "../profiles/deployed-ranking.js";
import { verifyLink } from "../profiles/deployed-verify.js";
import { runningGameBody, workspaceOf } from "./request-context.js";

/**
 * The deployed service's routes behind the official module's admin chat commands (docs/service-contract.md#admin-chat-commands):
 * registration, permissions, bans, verify links and ranking. Only the deployed profile serves them; like the other
 * extension routes their bodies are not schema-checked, since the deployed service checks only what it uses.
 * Ranking takes the workspace's separate ranking key in `api-key`, not the loader-id key (http/auth.ts).
 */
export function registerCommandRoutes(app: FastifyInstance): void {
	const deployedOnly = ["deployed"] as const;

	app.post(
		"/activity/commands",
		{ config: { operation: "registerCommands", profiles: deployedOnly } },
		async (request) => registerCommands(workspaceOf(request), runningGameBody(request), Date.now()),
	);

	app.get(
		"/activity/commands/players/permissions",
		{ config: { operation: "commandPermissions", profiles: deployedOnly } },
		async (request) => commandPermissions(workspaceOf(request), request.query, Date.now()),
	);

	app.post("/games/bans", { config: { operation: "createBan", profiles: deployedOnly } }, async (request, reply) => {
		const { status, answer } = createBan(workspaceOf(request), request.body, Date.now());
		return reply.code(status).send(answer);
	});

	app.delete<{ Params: { id: string } }>(
		"/games/bans/:id",
		{ config: { operation: "deleteBan", profiles: deployedOnly } },
		async (request) => deleteBan(workspaceOf(request), request.params.id),
	);

	app.put<{ Params: { id: string; rank: string } }>(
		"/ranking/users/:id/role/:rank",
		{ config: { operation: "setRank", profiles: deployedOnly, credential: "rankingKey" } },
		async (request) => setRank(workspaceOf(request), request.params.id, request.params.rank, Date.now()),
	);

	app.post("/activity/verifyLink", { config: { operation: "verifyLink", profiles: deployedOnly } }, async (request) =>
		verifyLink(workspaceOf(request), runningGameBody(request), Date.now()),
	);
}
