import type { FastifyInstance } from "fastify";
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

/** The twelve operations of the interface. Each route names its operation id in `config.operation`. */
export function registerOperationRoutes(app: FastifyInstance): void {
	app.post<{ Body: RecordHistoryInput }>(
		"/staff/history",
		{ config: { operation: "recordHistory" }, schema: { body: recordHistoryBody } },
		async (request) => ({ success: true, history: recordHistory(workspaceOf(request), request.body, Date.now()) }),
	);

	app.get("/staff/history", { config: { operation: "listHistory" } }, async (request) => ({
		success: true,
		...listHistory(workspaceOf(request)),
	}));

	app.post<{ Body: CreateServerInput }>(
		"/activity/createServer",
		{ config: { operation: "createServer" }, schema: { body: createServerBody } },
		async (request) => ({ success: true, ...createServer(workspaceOf(request), request.body, Date.now()) }),
	);

	app.post<{ Body: PlayerJoinInput }>(
		"/activity/playerJoin",
		{ config: { operation: "playerJoin" }, schema: { body: playerJoinBody } },
		async (request) => ({ success: true, ...playerJoin(workspaceOf(request), request.body, Date.now()) }),
	);

	app.get<Params<"userId">>(
		"/activity/workspace/users/:userId/activity",
		{ config: { operation: "getActivity" }, schema: { params: pathParams("userId") } },
		async (request) => ({ success: true, ...getActivity(workspaceOf(request), request.params.userId) }),
	);

	app.get<Params<"internalGameId">>(
		"/games/running/:internalGameId",
		{ config: { operation: "getRunningGame" }, schema: { params: pathParams("internalGameId") } },
		async (request) => ({
			success: true,
			...getRunningGame(workspaceOf(request), request.params.internalGameId, Date.now()),
		}),
	);

	app.post<{ Body: CreateOrderInput }>(
		"/orders",
		{ config: { operation: "createOrder" }, schema: { body: createOrderBody } },
		async (request) => ({ success: true, order: createOrder(workspaceOf(request), request.body, Date.now()) }),
	);

	app.put<Params<"orderId"> & { Body: { actorId: string } }>(
		"/orders/:orderId/release",
		{ config: { operation: "releaseOrder" }, schema: { params: pathParams("orderId"), body: releaseOrderBody } },
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
		async (request) => ({
			success: true,
			...getCallMessages(workspaceOf(request), request.params.callId, Date.now()),
		}),
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
