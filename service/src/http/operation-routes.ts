import type { FastifyInstance } from "fastify";
import { deployedHistoryView } from "../profiles/deployed-history.js";
import { deployedPlayerJoin } from "../profiles/deployed-join.js";
import { deployedGetActivity, deployedGetCallMessages } from "../profiles/deployed-reads.js";
import { deployedCreateServer } from "../profiles/deployed-server.js";
import {
	type CreateServerInput,
	type PlayerJoinInput,
	createServer,
	getActivity,
	playerJoin,
} from "../resources/activity.js";
import { getCallMessages } from "../resources/calls.js";
import { type RecordHistoryInput, listHistory, recordHistory } from "../resources/history.js";
import { type CreateOrderInput, createOrder, releaseOrder } from "../resources/orders.js";
import { getRunningGame } from "../resources/running-games.js";
import { getUserTeams } from "../resources/teams.js";
import { getTimeOff, listTimeOff } from "../resources/time-off.js";
import { workspaceOf } from "./request-context.js";
import {
	createOrderBody,
	createServerBody,
	pathParams,
	playerJoinBody,
	recordHistoryBody,
	releaseOrderBody,
} from "./request-schemas.js";

type Params<Name extends string> = { Params: Record<Name, string> };

/**
 * The twelve operations of the interface. Each route names its operation id in `config.operation`; where the
 * deployed profile answers differently, the handler hands over to `src/profiles/deployed-*.ts`.
 */
export function registerOperationRoutes(app: FastifyInstance): void {
	app.post<{ Body: RecordHistoryInput }>(
		"/staff/history",
		{ config: { operation: "recordHistory" }, schema: { body: recordHistoryBody } },
		async (request) => {
			const item = recordHistory(workspaceOf(request), request.body, Date.now());
			return {
				success: true,
				history: request.settings.profile === "deployed" ? deployedHistoryView(item) : item,
			};
		},
	);

	app.get("/staff/history", { config: { operation: "listHistory" } }, async (request) => {
		const ws = workspaceOf(request);
		if (request.settings.profile === "deployed" && ws.history.length > 0) {
			return { success: true, history: ws.history.map(deployedHistoryView) };
		}
		return { success: true, ...listHistory(ws) };
	});

	app.post<{ Body: CreateServerInput }>(
		"/activity/createServer",
		{ config: { operation: "createServer" }, schema: { body: createServerBody } },
		async (request) => {
			const ws = workspaceOf(request);
			const created =
				request.settings.profile === "deployed"
					? deployedCreateServer(ws, request.body, Date.now())
					: createServer(ws, request.body, Date.now());
			return { success: true, ...created };
		},
	);

	// The deployed service checks nothing but gameId, so schema errors are attached and only the default
	// profile refuses them.
	app.post<{ Body: PlayerJoinInput }>(
		"/activity/playerJoin",
		{ config: { operation: "playerJoin" }, schema: { body: playerJoinBody }, attachValidation: true },
		async (request) => {
			const ws = workspaceOf(request);
			if (request.settings.profile === "deployed") {
				return { success: true, ...deployedPlayerJoin(ws, request.body, request.settings, Date.now()) };
			}
			if (request.validationError) throw request.validationError;
			return { success: true, ...playerJoin(ws, request.body, Date.now()) };
		},
	);

	app.get<Params<"userId">>(
		"/activity/workspace/users/:userId/activity",
		{ config: { operation: "getActivity" }, schema: { params: pathParams("userId") } },
		async (request) => {
			const ws = workspaceOf(request);
			const { userId } = request.params;
			const activity =
				request.settings.profile === "deployed" ? deployedGetActivity(ws, userId) : getActivity(ws, userId);
			return { success: true, ...activity };
		},
	);

	// Only the default profile counts this read as presence (docs/service-contract.md#presence-needs-the-running-game-id).
	app.get<Params<"internalGameId">>(
		"/games/running/:internalGameId",
		{ config: { operation: "getRunningGame" }, schema: { params: pathParams("internalGameId") } },
		async (request) => {
			const deployed = request.settings.profile === "deployed";
			const game = getRunningGame(
				workspaceOf(request),
				request.params.internalGameId,
				Date.now(),
				!deployed,
				deployed,
			);
			return { success: true, ...game };
		},
	);

	app.post<{ Body: CreateOrderInput }>(
		"/orders",
		{ config: { operation: "createOrder", profiles: ["default"] }, schema: { body: createOrderBody } },
		async (request) => ({ success: true, order: createOrder(workspaceOf(request), request.body, Date.now()) }),
	);

	app.put<Params<"orderId"> & { Body: { actorId: string } }>(
		"/orders/:orderId/release",
		{
			config: { operation: "releaseOrder", profiles: ["default"] },
			schema: { params: pathParams("orderId"), body: releaseOrderBody },
		},
		async (request) => ({
			success: true,
			order: releaseOrder(workspaceOf(request), request.params.orderId, request.body.actorId, Date.now()),
		}),
	);

	app.get("/time-off", { config: { operation: "listTimeOff" } }, async (request) => ({
		success: true,
		requests: listTimeOff(workspaceOf(request)),
	}));

	app.get<Params<"requestId">>(
		"/time-off/:requestId",
		{ config: { operation: "getTimeOff" }, schema: { params: pathParams("requestId") } },
		async (request) => ({ success: true, request: getTimeOff(workspaceOf(request), request.params.requestId) }),
	);

	app.get<Params<"callId">>(
		"/calls/:callId/messages",
		{ config: { operation: "getCallMessages" }, schema: { params: pathParams("callId") } },
		async (request) => {
			const ws = workspaceOf(request);
			const { callId } = request.params;
			const messages =
				request.settings.profile === "deployed"
					? deployedGetCallMessages(ws, callId, Date.now())
					: getCallMessages(ws, callId, Date.now());
			return { success: true, ...messages };
		},
	);

	app.get<Params<"userId">>(
		"/teams/users/:userId",
		{ config: { operation: "getUserTeams" }, schema: { params: pathParams("userId") } },
		async (request) => ({
			success: true,
			teams: getUserTeams(workspaceOf(request), request.params.userId),
		}),
	);
}
