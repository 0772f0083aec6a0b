import type { FastifyInstance } from "fastify";
import { playerLeave } from "../profiles/deployed-leave.js";
import { endServer, getServer } from "../profiles/deployed-server.js";
import { workspaceOf } from "./request-context.js";

/**
 * Routes beyond the interface that the deployed service has (DESIGN.md §3). Only the deployed profile serves
 * them; their bodies are not schema-checked, since the deployed service checks only what it uses.
 */
export function registerExtensionRoutes(app: FastifyInstance): void {
	const deployedOnly = ["deployed"] as const;

	app.post(
		"/activity/playerLeave/v2",
		{ config: { operation: "playerLeave", profiles: deployedOnly } },
		async (request) => ({ success: true, ...playerLeave(workspaceOf(request), request.body, Date.now()) }),
	);

	app.delete(
		"/activity/endServer",
		{ config: { operation: "endServer", profiles: deployedOnly } },
		async (request) => ({
			success: true,
			...endServer(workspaceOf(request), request.body, Date.now()),
		}),
	);

	app.post(
		"/activity/getServer",
		{ config: { operation: "getServer", profiles: deployedOnly } },
		async (request) => ({
			success: true,
			...getServer(workspaceOf(request), request.body, Date.now()),
		}),
	);
}
