import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { banView } from "../profiles/deployed-bans.js";
import { commandView } from "../profiles/deployed-commands.js";
import { ServiceError, notFound } from "../service-error.js";
import { workspaceByGroup } from "./workspace-by-group.js";
import type { Store } from "../store.js";
import { commandGrantBody, verifyCodeBody } from "./control-schemas.js";

/**
 * Controls that play the staff website for the admin chat command routes (docs/service-contract.md#admin-chat-commands):
 * an admin grants or revokes a command for a user, the website makes a verify code; and what the routes stored
 * (commands with their grants, bans, codes) can be read. (`/_control/unknown-users`, a user mark, is beside the
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

	app.get("/_control/commands", async () => ({
		success: true,
		commands: store.workspaces().flatMap((ws) => ws.commands.map((command) => commandView(ws, command))),
	}));

	app.get("/_control/bans", async () => ({
		success: true,
		bans: store.workspaces().flatMap((ws) => [...ws.bans].map(([userId, ban]) => banView(ws, userId, ban))),
	}));

	app.post<{ Body: { linkedTo: string; code?: string; groupId?: string } }>(
		"/_control/verify-codes",
		{ schema: { body: verifyCodeBody } },
		async (request) => {
			const { linkedTo, groupId } = request.body;
			const ws = workspaceOf(groupId);
			const code = request.body.code ?? randomBytes(4).toString("hex").toUpperCase();
			if (ws.verifyCodes.some((entry) => entry.code === code)) throw new ServiceError(409, `Code ${code} exists`);
			ws.verifyCodes.push({ code, linkedTo, usedBy: null, usedAt: null });
			return { success: true, code, linkedTo };
		},
	);

	app.get("/_control/verify-codes", async () => ({
		success: true,
		codes: store.workspaces().flatMap((ws) => ws.verifyCodes.map((entry) => ({ groupId: ws.groupId, ...entry }))),
	}));
}
