import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { banView } from "../profiles/deployed-bans.js";
import { commandView, registerOfficialCommands } from "../profiles/deployed-commands.js";
import { ServiceError, notFound } from "../service-error.js";
import { workspaceByGroup } from "./workspace-by-group.js";
import type { Store } from "../store.js";
import {
	commandGrantBody,
	groupRolesBody,
	officialCommandsBody,
	rankingFailuresBody,
	rankingKeyBody,
	verifyCodeBody,
} from "./control-schemas.js";

/**
 * Controls that play the staff website for the admin chat command routes (docs/service-contract.md#admin-chat-commands):
 * an admin grants or revokes a command for a user, the website makes a verify code, the workspace's ranking key is
 * given; and what the routes stored (commands with their grants, bans, codes, ranking calls) can be read. (`/_control/unknown-users`, a user mark, is beside the
 * other marks in in-game-controls.ts.)
 */
export async function commandControls(app: FastifyInstance, store: Store): Promise<void> {
	const workspaceOf = (groupId: string | undefined) => workspaceByGroup(store, groupId);

	app.post<{ Body: { commandId: string; userId: string; groupId?: string; on?: boolean } }>(
		"/_control/commands/permissions",
		{ schema: { body: commandGrantBody } },
		async (request) => {
			const { commandId, userId, groupId, on = true } = request.body;
			// An admin grants a command of the workspace: every game and place that registered that id.
			const commands = workspaceOf(groupId).commands.filter((command) => command.id === commandId);
			if (commands.length === 0) throw notFound(`No registered command ${commandId}`);
			for (const command of commands) {
				if (on) command.allowed.add(userId);
				else command.allowed.delete(userId);
			}
			return { success: true, commandId, userId, on };
		},
	);

	// A workspace that ran the official module: its ten commands registered for this game and place, and granted.
	app.post<{ Body: { gameId: number; placeId: number; groupId?: string; grants?: Record<string, string[]> } }>(
		"/_control/commands/official",
		{ schema: { body: officialCommandsBody } },
		async (request) => {
			const { gameId, placeId, groupId, grants = {} } = request.body;
			const ws = workspaceOf(groupId);
			const records = registerOfficialCommands(ws, { gameId, placeId }, grants);
			return { success: true, commands: records.map((command) => commandView(ws, command)) };
		},
	);

	app.get("/_control/commands", async () => ({
		success: true,
		commands: store.workspaces().flatMap((ws) => ws.commands.map((command) => commandView(ws, command))),
	}));

	app.get("/_control/bans", async () => ({
		success: true,
		bans: store.workspaces().flatMap((ws) => [...ws.bans].map(([userId, ban]) => banView(ws, userId, ban))),
	}));

	app.post<{ Body: { linkedTo: string; code?: string; groupId?: string; expiresInSeconds?: number } }>(
		"/_control/verify-codes",
		{ schema: { body: verifyCodeBody } },
		async (request) => {
			const { linkedTo, groupId, expiresInSeconds } = request.body;
			const ws = workspaceOf(groupId);
			const code = request.body.code ?? randomBytes(4).toString("hex").toUpperCase();
			if (ws.verifyCodes.some((entry) => entry.code === code)) throw new ServiceError(409, `Code ${code} exists`);
			const expiresAt = expiresInSeconds === undefined ? null : Date.now() + expiresInSeconds * 1000;
			ws.verifyCodes.push({ code, linkedTo, usedBy: null, usedAt: null, expiresAt });
			return { success: true, code, linkedTo, expiresAt };
		},
	);

	// The workspace's separate ranking key (the deployed service's `api-key` of the ranking route). It must differ from
	// every loader-id key: the route refuses those, and a spec must be able to tell the two apart.
	app.post<{ Body: { key: string; groupId?: string } }>(
		"/_control/ranking-keys",
		{ schema: { body: rankingKeyBody } },
		async (request) => {
			const { key, groupId } = request.body;
			if (store.workspaceFor(key))
				throw new ServiceError(400, "A ranking key must differ from every loader-id key");
			const ws = workspaceOf(groupId);
			ws.rankingKeys.add(key);
			return { success: true, groupId: ws.groupId };
		},
	);

	// The workspace group's roles the ranking route looks `{rank}` up in (every workspace starts with the defaults).
	app.post<{ Body: { roles: { id: number; name: string; rank: number }[]; groupId?: string } }>(
		"/_control/group-roles",
		{ schema: { body: groupRolesBody } },
		async (request) => {
			const ws = workspaceOf(request.body.groupId);
			ws.groupRoles = request.body.roles.map((role) => ({ ...role }));
			return { success: true, roles: ws.groupRoles };
		},
	);

	// The next `times` ranking calls fail at Roblox: 500, after the rank action is queued (as the deployed service).
	app.post<{ Body: { times: number; groupId?: string } }>(
		"/_control/ranking-failures",
		{ schema: { body: rankingFailuresBody } },
		async (request) => {
			const ws = workspaceOf(request.body.groupId);
			ws.rankRobloxFailures = request.body.times;
			return { success: true, times: ws.rankRobloxFailures };
		},
	);

	app.get("/_control/rankings", async () => ({
		success: true,
		calls: structuredClone(store.rankCalls),
		actions: store
			.workspaces()
			.flatMap((ws) => ws.rankActions.map((action) => ({ groupId: ws.groupId, ...action }))),
		roles: Object.fromEntries(store.workspaces().map((ws) => [ws.groupId, ws.groupRoles])),
	}));

	app.get("/_control/verify-codes", async () => ({
		success: true,
		codes: store.workspaces().flatMap((ws) => ws.verifyCodes.map((entry) => ({ groupId: ws.groupId, ...entry }))),
	}));
}
