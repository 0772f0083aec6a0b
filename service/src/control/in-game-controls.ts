import type { FastifyInstance } from "fastify";
import { findServerByRunningGameId } from "../resources/running-games.js";
import { agentEndCall, claimCall, pushAgentMessage } from "../profiles/deployed-support.js";
import { openTicket, ticketView, ticketsOf } from "../profiles/deployed-tickets.js";
import type { InGameSettings } from "../profiles/deployed-records.js";
import { notFound } from "../service-error.js";
import type { Store } from "../store.js";
import type { WorkspaceState } from "../workspace-state.js";
import { actionBody, actorBody, chatBody, settingsBody, userMarkBody } from "./control-schemas.js";

/** Room for hostile actions (a 100 kB message) beyond an operation's 64 KiB. */
const ACTION_BODY_LIMIT_BYTES = 1024 * 1024;

type SettingsInput = { groupId?: string; moderation?: boolean } & {
	privacy?: Partial<InGameSettings["privacy"]>;
	afkReportingSettings?: Partial<InGameSettings["afkReportingSettings"]>;
};

/**
 * Controls that play the dashboard and the agent for the deployed profile's in-game routes (docs/service-contract.md#routes-beyond-the-interface):
 * queue kicks, bans, notifications and shutdowns, answer, claim, end and start calls, change the workspace's
 * in-game settings, call-ban or data-remove a user, and read what the routes stored.
 */
export async function inGameControls(app: FastifyInstance, store: Store): Promise<void> {
	const workspaceOf = (groupId: string | undefined): WorkspaceState => {
		const ws =
			groupId === undefined ? store.workspaces()[0] : store.workspaces().find((w) => w.groupId === groupId);
		if (!ws) throw notFound(`Unknown workspace ${groupId}`);
		return ws;
	};
	const serverOf = (runningGameId: string) => {
		for (const ws of store.workspaces()) {
			const server = findServerByRunningGameId(ws, runningGameId);
			if (server) return { ws, server };
		}
		throw notFound(`Unknown running game ${runningGameId}`);
	};
	const callOwner = (callId: string): WorkspaceState => {
		const ws = store.workspaces().find((w) => w.calls.has(callId));
		if (!ws) throw notFound(`Unknown call ${callId}`);
		return ws;
	};

	app.post<{ Body: Record<string, unknown> & { runningGameId: string } }>(
		"/_control/actions",
		{ schema: { body: actionBody }, bodyLimit: ACTION_BODY_LIMIT_BYTES },
		async (request) => {
			const { runningGameId, ...action } = request.body;
			const { ws } = serverOf(runningGameId);
			// A ban from the dashboard is a kick that also bans: the player's next join is refused.
			if (action.type === "kick" && action.ban === true) {
				const reason = typeof action.message === "string" ? action.message : "Banned";
				ws.bans.set(String(action.userId), { reason, bannedBy: "dashboard" });
			}
			ws.queuedActions.push({ runningGameId, action, queuedAt: Date.now() });
			return { success: true, action };
		},
	);

	app.get("/_control/actions", async () => ({
		success: true,
		queued: store.workspaces().flatMap((ws) => structuredClone(ws.queuedActions)),
		delivered: store.workspaces().flatMap((ws) => structuredClone(ws.deliveredActions)),
	}));

	app.post<{ Body: { runningGameId: string; userId: string; actorId: string; message?: string } }>(
		"/_control/chats",
		{ schema: { body: chatBody } },
		async (request) => {
			const { runningGameId, userId, actorId, message } = request.body;
			const { ws, server } = serverOf(runningGameId);
			const now = Date.now();
			const call = openTicket(
				ws,
				server,
				{
					callType: "support",
					callerId: Number(userId),
					reason: "Chat started by staff",
					reporting: null,
					players: [],
					status: "claimed",
					claimedBy: actorId,
				},
				now,
			);
			if (message !== undefined) pushAgentMessage(ws, call, actorId, message, now);
			return { success: true, ticket: ticketView(ws, call) };
		},
	);

	app.post<{ Params: { callId: string }; Body: { actorId: string } }>(
		"/_control/calls/:callId/claim",
		{ schema: { body: actorBody } },
		async (request) => ({
			success: true,
			...claimCall(callOwner(request.params.callId), request.params.callId, request.body, Date.now()),
		}),
	);

	app.post<{ Params: { callId: string }; Body: { actorId: string } }>(
		"/_control/calls/:callId/end",
		{ schema: { body: actorBody } },
		async (request) => ({
			success: true,
			...agentEndCall(callOwner(request.params.callId), request.params.callId, request.body, Date.now()),
		}),
	);

	app.get("/_control/tickets", async () => ({
		success: true,
		tickets: store
			.workspaces()
			.flatMap((ws) =>
				ticketsOf(ws).map((call) => ({ ...ticketView(ws, call), acknowledged: call.ticket.acknowledged })),
			),
	}));

	const settingsView = (ws: WorkspaceState) => ({
		success: true,
		groupId: ws.groupId,
		...structuredClone(ws.inGame),
	});

	app.get<{ Querystring: { groupId?: string } }>("/_control/settings", async (request) =>
		settingsView(workspaceOf(request.query.groupId)),
	);

	app.post<{ Body: SettingsInput }>("/_control/settings", { schema: { body: settingsBody } }, async (request) => {
		const { groupId, moderation, privacy, afkReportingSettings } = request.body;
		const ws = workspaceOf(groupId);
		if (moderation !== undefined) ws.inGame.moderation = moderation;
		Object.assign(ws.inGame.privacy, privacy);
		Object.assign(ws.inGame.afkReportingSettings, afkReportingSettings);
		return settingsView(ws);
	});

	const mark = (path: string, setOf: (ws: WorkspaceState) => Set<string>) =>
		app.post<{ Body: { userId: string; groupId?: string; on?: boolean } }>(
			path,
			{ schema: { body: userMarkBody } },
			async (request) => {
				const { userId, groupId, on = true } = request.body;
				const set = setOf(workspaceOf(groupId));
				if (on) set.add(userId);
				else set.delete(userId);
				return { success: true, userId, on };
			},
		);
	mark("/_control/call-bans", (ws) => ws.callBans);
	mark("/_control/gdpr-removals", (ws) => ws.gdprRemoved);

	app.get("/_control/session-events", async () => ({
		success: true,
		events: store.workspaces().flatMap((ws) =>
			ws.sessionEvents.map(({ event, sessionId, userId, runningGameId, receivedAt }) => ({
				...structuredClone(event),
				sessionId,
				groupId: ws.groupId,
				userId,
				runningGameId,
				receivedAt,
			})),
		),
		/** Each session's `active` flag, as its last stored event left it. */
		active: Object.fromEntries(store.workspaces().flatMap((ws) => [...ws.sessionActive])),
	}));

	app.get("/_control/consents", async () => ({
		success: true,
		consents: store
			.workspaces()
			.flatMap((ws) => ws.consents.map((consent) => ({ groupId: ws.groupId, ...consent }))),
	}));
}
