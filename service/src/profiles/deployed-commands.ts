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

/** The parameter types the website's command page knows (DESIGN §3, `paramaterType`, sic). */
const PARAMETER_TYPES = new Set(["player", "number", "text", "long_text"]);

/** One parameter as the website's command page shows it, or null for the blank entry it shows for anything else. */
export type ShownParameter = { id: string; paramaterType: string; optional: boolean; fallbackFind: boolean } | null;

/**
 * What the website's command page shows of `paramaters`: each object with a string `id` and a known `paramaterType`
 * as that, anything else (a plain name, as StaffOps 0.1.0 sent) as a blank entry. Stored as sent all the same.
 */
export function shownParameters(paramaters: unknown): ShownParameter[] {
	if (!Array.isArray(paramaters)) return [];
	return paramaters.map((entry): ShownParameter => {
		if (entry === null || typeof entry !== "object") return null;
		const { id, paramaterType, optional, fallbackFind } = entry as Record<string, unknown>;
		if (typeof id !== "string" || typeof paramaterType !== "string" || !PARAMETER_TYPES.has(paramaterType)) {
			return null;
		}
		return { id, paramaterType, optional: optional === true, fallbackFind: fallbackFind === true };
	});
}

/**
 * What `/_control/commands` shows of a command: everything, its grants as a sorted list, and `shown`: its parameters
 * as the website's command page shows them (a blank entry is null).
 */
export function commandView(ws: WorkspaceState, command: CommandRecord) {
	const { allowed, ...fields } = command;
	return {
		groupId: ws.groupId,
		...structuredClone(fields),
		allowed: [...allowed].sort(),
		shown: shownParameters(command.paramaters),
	};
}

const player = { id: "player", paramaterType: "player" };
const reason = { id: "reason", paramaterType: "long_text", optional: true };
const days = { id: "days", paramaterType: "number", optional: true };

/**
 * The official module's ten built-ins as it registers them: ids `readmin_<name>` (DESIGN §3), parameters as objects.
 * The control API registers these for a game, as a server of the official module would have, so a spec or the demo
 * can start from a workspace that ran the official module.
 */
export const OFFICIAL_COMMANDS: readonly { id: string; name: string; paramaters: object[] }[] = [
	{ id: "readmin_kick", name: "kick", paramaters: [player, reason] },
	{ id: "readmin_ban", name: "ban", paramaters: [player, days, reason] },
	{ id: "readmin_suspend", name: "suspend", paramaters: [player, days, reason] },
	{ id: "readmin_terminate", name: "terminate", paramaters: [player, reason] },
	{ id: "readmin_warn", name: "warn", paramaters: [player, reason] },
	{ id: "readmin_rank", name: "rank", paramaters: [player, { id: "rank", paramaterType: "text" }] },
	{ id: "readmin_promote", name: "promote", paramaters: [player, reason] },
	{ id: "readmin_find", name: "find", paramaters: [player] },
	{ id: "readmin_demote", name: "demote", paramaters: [player, reason] },
	{ id: "readmin_verify", name: "verify", paramaters: [{ id: "code", paramaterType: "text" }] },
];

/**
 * Registers the official module's ten commands for a game and place, as its servers would have, with `grants`
 * (UserId → command ids) made as a website admin would; ids already known keep their grants and gain these.
 */
export function registerOfficialCommands(
	ws: WorkspaceState,
	game: { gameId: number; placeId: number },
	grants: Record<string, string[]>,
): CommandRecord[] {
	const records = OFFICIAL_COMMANDS.map(({ id, name, paramaters }) => {
		let record = ws.commands.find(
			(command) => command.id === id && command.gameId === game.gameId && command.placeId === game.placeId,
		);
		if (!record) {
			record = {
				id,
				name,
				paramaters: structuredClone(paramaters),
				...game,
				enabled: true,
				detected: true,
				allowed: new Set(),
			};
			ws.commands.push(record);
		}
		return record;
	});
	for (const [userId, ids] of Object.entries(grants)) {
		for (const record of records) if (ids.includes(record.id)) record.allowed.add(userId);
	}
	return records;
}
