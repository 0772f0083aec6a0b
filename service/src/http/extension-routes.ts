import type { FastifyInstance } from "fastify";
import { recordConsent } from "../profiles/deployed-consent.js";
import { playerLeave } from "../profiles/deployed-leave.js";
import { endServer, getServer } from "../profiles/deployed-server.js";
import {
	agentEndCall,
	agentReply,
	claimCall,
	listCalls,
	supportCreate,
	supportEnd,
} from "../profiles/deployed-support.js";
import { sendData } from "../profiles/deployed-sync.js";
import { runningGameBody, workspaceOf } from "./request-context.js";

type CallParams = { Params: { callId: string } };

/**
 * Routes beyond the interface that the deployed service has (docs/service-contract.md#routes-beyond-the-interface). Only the deployed profile serves
 * them; their bodies are not schema-checked, since the deployed service checks only what it uses.
 */
export function registerExtensionRoutes(app: FastifyInstance): void {
	const deployedOnly = ["deployed"] as const;

	app.post(
		"/activity/playerLeave/v2",
		{ config: { operation: "playerLeave", profiles: deployedOnly } },
		async (request) => ({
			success: true,
			...playerLeave(workspaceOf(request), runningGameBody(request), Date.now()),
		}),
	);

	app.delete(
		"/activity/endServer",
		{ config: { operation: "endServer", profiles: deployedOnly } },
		async (request) => ({
			success: true,
			...endServer(workspaceOf(request), runningGameBody(request), Date.now()),
		}),
	);

	app.post(
		"/activity/getServer",
		{ config: { operation: "getServer", profiles: deployedOnly } },
		async (request) => ({
			success: true,
			...getServer(workspaceOf(request), runningGameBody(request), Date.now()),
		}),
	);

	app.post("/activity/sendData", { config: { operation: "sendData", profiles: deployedOnly } }, async (request) =>
		// A latency-only rule spoils no byte but can outlast the client's timeout: named too, so the control API can
		// tell actions whose answer came too late.
		sendData(
			workspaceOf(request),
			runningGameBody(request),
			Date.now(),
			request.fault?.kind ?? (request.fault?.latencyMs ? "latency" : null),
		),
	);

	app.post(
		"/activity/support/create",
		{ config: { operation: "supportCreate", profiles: deployedOnly } },
		async (request) => supportCreate(workspaceOf(request), runningGameBody(request), Date.now()),
	);

	app.post(
		"/activity/support/end",
		{ config: { operation: "supportEnd", profiles: deployedOnly } },
		async (request) => supportEnd(workspaceOf(request), runningGameBody(request), Date.now()),
	);

	app.post("/activity/consent", { config: { operation: "consent", profiles: deployedOnly } }, async (request) =>
		recordConsent(workspaceOf(request), runningGameBody(request), Date.now()),
	);

	app.get<{ Querystring: { status?: string } }>(
		"/calls",
		{ config: { operation: "listCalls", profiles: deployedOnly } },
		async (request) => ({ success: true, calls: listCalls(workspaceOf(request), request.query.status) }),
	);

	app.post<CallParams>(
		"/calls/:callId/messages",
		{ config: { operation: "postCallMessage", profiles: deployedOnly } },
		async (request) => ({
			success: true,
			message: agentReply(workspaceOf(request), request.params.callId, request.body, Date.now()),
		}),
	);

	app.put<CallParams>(
		"/calls/:callId/claim",
		{ config: { operation: "claimCall", profiles: deployedOnly } },
		async (request) => ({
			success: true,
			...claimCall(workspaceOf(request), request.params.callId, request.body, Date.now()),
		}),
	);

	app.put<CallParams>(
		"/calls/:callId/end",
		{ config: { operation: "endCall", profiles: deployedOnly } },
		async (request) => ({
			success: true,
			...agentEndCall(workspaceOf(request), request.params.callId, request.body, Date.now()),
		}),
	);
}
