import { pingServer } from "../resources/running-games.js";
import type { RunningServer, WorkspaceState } from "../workspace-state.js";
import { fieldsOf, findRunningGame, internalServerError, needed } from "./deployed-ids.js";

/** One admin chat command a game registered, as the deployed service keeps it (per game and place). */
export interface CommandRecord {
	id: string;
	name: unknown;
	/** As sent, under the deployed service's own spelling. */
	paramaters: unknown;
	gameId: number;
	placeId: number;
	/** New commands are enabled; nobody may use them until an admin grants them. */
	enabled: boolean;
	/** False once a registration of its game and place no longer lists it. */
	detected: boolean;
	/** UserIds an admin allowed to use it. */
	allowed: Set<string>;
}

const sameGame = (command: CommandRecord, server: RunningServer) =>
	command.gameId === server.game.gameId && command.placeId === server.game.placeId;

/**
 * `POST /activity/commands {gameId, commands: [{id, name, paramaters}]}` (sic): registers the game's commands for
 * the running server's game and place. New ids are stored enabled with empty permissions, known ids are updated
 * (their permissions kept), and known ids missing from the list get `detected: false`. No `commands` array, or a
 * command without an id, breaks the handler (500), as the service checks nothing.
 */
export function registerCommands(ws: WorkspaceState, body: unknown, now: number) {
	const input = fieldsOf(body);
	const server = findRunningGame(ws, input.gameId);
	pingServer(ws, server, now);
	const list = needed(input, "commands");
	if (!Array.isArray(list)) throw internalServerError();
	const sent = list.map((entry) => {
		const fields = fieldsOf(entry);
		return { id: String(needed(fields, "id")), name: fields.name, paramaters: fields.paramaters };
	});
	const ids = new Set(sent.map((command) => command.id));
	for (const command of ws.commands) {
		if (sameGame(command, server) && !ids.has(command.id)) command.detected = false;
	}
	for (const { id, name, paramaters } of sent) {
		const known = ws.commands.find((command) => command.id === id && sameGame(command, server));
		if (known) Object.assign(known, { name, paramaters, detected: true });
		else {
			const { gameId, placeId } = server.game;
			ws.commands.push({
				id,
				name,
				paramaters,
				gameId,
				placeId,
				enabled: true,
				detected: true,
				allowed: new Set(),
			});
		}
	}
	return { success: true };
}

/**
 * `GET /activity/commands/players/permissions?gameId=&playerIds=1,2`: for each listed UserId, every command of the
 * running server's game and place with whether that user may use it (enabled and granted). Without `playerIds`
 * the handler breaks (500).
 */
export function commandPermissions(ws: WorkspaceState, query: unknown, now: number) {
	const input = fieldsOf(query);
	const server = findRunningGame(ws, input.gameId);
	pingServer(ws, server, now);
	const playerIds = needed(input, "playerIds");
	if (typeof playerIds !== "string") throw internalServerError();
	const commands = ws.commands.filter((command) => sameGame(command, server));
	const permissions: Record<string, Record<string, boolean>> = {};
	for (const userId of playerIds.split(",").map((id) => id.trim())) {
		if (userId === "") continue;
		permissions[userId] = Object.fromEntries(
			commands.map((command) => [command.id, command.enabled && command.allowed.has(userId)]),
		);
	}
	return { success: true, permissions };
}

/** What `/_control/commands` shows of a command: everything, its grants as a sorted list. */
export function commandView(ws: WorkspaceState, command: CommandRecord) {
	const { allowed, ...fields } = command;
	return { groupId: ws.groupId, ...structuredClone(fields), allowed: [...allowed].sort() };
}
