import { ArgSpec, daysRule, isFiniteNumber, positiveIdRule, Rule, serviceIdRule, textRule } from "../arguments";
import type { CallOptions } from "../callOptions";
import { anyTable, object, opt, Reader, req, str, succeeded, withRule } from "../reader";
import { Call, route } from "../routeSpec";
import { StaffOpsError } from "../../transport/staffOpsError";
import { RankingMethods, rankingMethods, rankingRoutes } from "./ranking";

// The deployed service's admin chat command routes (docs/service-contract.md#admin-chat-commands): registering the
// game's commands, reading who may use them, recording and lifting bans, and linking a player to a website account
// with a verify code; and the ranking route (`ranking.ts`), which takes a separate key. `client.commands`.

/**
 * One command as the service registers it. `parameters` goes on the wire under the service's own spelling,
 * `paramaters` (sic).
 * @see README#deployed-service-extensions
 */
export interface CommandRegistration {
	/** Stable id: the service keeps each id's permissions across registrations. */
	readonly id: string;
	readonly name: string;
	/** What the website shows of the command's parameters; sent as given. */
	readonly parameters: ReadonlyArray<unknown>;
}

/**
 * Answer of `client.commands.permissions`: for each UserId asked about, each command id and whether that user may
 * use it. Entries that are not booleans are left out, so a missing entry means "not allowed".
 * @see README#deployed-service-extensions
 */
export interface CommandPermissionsAnswer {
	readonly success: true;
	readonly permissions: { readonly [userId: string]: { readonly [commandId: string]: boolean } };
}

/** Arguments of `client.commands.ban` (`POST /games/bans`). @see README#deployed-service-extensions */
export interface BanArgs {
	readonly userId: number;
	readonly reason: string;
	/** The staff member who banned. */
	readonly bannedByUserId: number;
	/** Absent: for ever. */
	readonly expiresInDays?: number;
}

/** A ban as the service answers it; only `_id` is needed (to lift it by id). @see README#deployed-service-extensions */
export interface BanRecord {
	readonly _id: string;
	readonly userId?: string;
	readonly reason?: string;
	readonly expires?: string;
}

/** Answer of `client.commands.ban`. @see README#deployed-service-extensions */
export interface BanAnswer {
	readonly success: true;
	readonly ban: BanRecord;
}

/** Answer of `client.commands.registerCommands` and `client.commands.unban`. @see README#deployed-service-extensions */
export interface CommandsDoneAnswer {
	readonly success: true;
}

/** Answer of `client.commands.verifyLink`: the website account the player is now linked to. */
export interface VerifyLinkAnswer {
	readonly success: true;
	readonly linkedTo?: string;
}

/**
 * The admin chat command routes of the deployed service: `client.commands`. A soft refusal (a ban for a user removed
 * under GDPR, a bad or used verify code) rejects with kind `service` and the service's `reason`, meant for the
 * staff member or player.
 * @see README#deployed-service-extensions
 */
export interface CommandsApi extends RankingMethods {
	/** Registers the game's commands (`POST /activity/commands`); the same list again changes nothing. */
	registerCommands(
		runningGameId: string,
		commands: ReadonlyArray<CommandRegistration>,
		options?: CallOptions,
	): Promise<CommandsDoneAnswer>;
	/** Which commands each of these players may use (`GET /activity/commands/players/permissions`). */
	permissions(
		runningGameId: string,
		userIds: ReadonlyArray<number>,
		options?: CallOptions,
	): Promise<CommandPermissionsAnswer>;
	/** Records a ban (`POST /games/bans`); never sent twice: a second would record a second ban. */
	ban(args: BanArgs, options?: CallOptions): Promise<BanAnswer>;
	/** Lifts a ban by its `_id` or the banned user's UserId (`DELETE /games/bans/{id}`). */
	unban(banIdOrUserId: string, options?: CallOptions): Promise<CommandsDoneAnswer>;
	/** Links the player to the website account of `code` (`POST /activity/verifyLink`); a code works once. */
	verifyLink(runningGameId: string, code: string, userId: number, options?: CallOptions): Promise<VerifyLinkAnswer>;
}

const MAX_COMMANDS = 200;
const MAX_PERMISSION_PLAYERS = 100;
const MAX_NAME = 100;

const nameRule = (what: string): Rule => [
	(value) =>
		typeIs(value, "string") && value.size() > 0 && value.size() <= MAX_NAME && value.find("%c")[0] === undefined,
	`${what} of 1 to ${MAX_NAME} characters`,
];
const [isCommandId] = nameRule("an id");
const [isCommandName] = nameRule("a name");

const commandsRule: Rule = [
	(value) => {
		if (!typeIs(value, "table")) return false;
		const rows = value as Array<unknown>;
		if (rows.size() > MAX_COMMANDS) return false;
		let count = 0;
		for (const [key, row] of pairs(value as object)) {
			count += 1;
			if (!typeIs(key, "number") || !typeIs(row, "table")) return false;
			const command = row as { id?: unknown; name?: unknown; paramaters?: unknown };
			if (!isCommandId(command.id) || !isCommandName(command.name) || !typeIs(command.paramaters, "table")) {
				return false;
			}
		}
		return count === rows.size();
	},
	`a list of at most ${MAX_COMMANDS} commands {id, name, parameters}`,
];

const registerArgs: ArgSpec = { required: { gameId: serviceIdRule, commands: commandsRule } };
const banArgs: ArgSpec = {
	required: { userId: positiveIdRule, reason: textRule, bannedByUserId: positiveIdRule },
	optional: { expiresInDays: daysRule },
};
const unbanArgs: ArgSpec = { required: {} };
const verifyArgs: ArgSpec = {
	required: { gameId: serviceIdRule, code: nameRule("a code"), userKey: serviceIdRule },
};

/**
 * `permissions` read tolerantly: a user whose entry is not a table, and an entry that is not a boolean, are left
 * out (read as "not allowed"); the answer is usable as long as `permissions` is a table.
 */
const permissionTable: Reader<CommandPermissionsAnswer["permissions"]> = withRule(anyTable, (value) => {
	const users = value as Record<string, unknown>;
	for (const [userId, entries] of pairs(users)) {
		if (!typeIs(entries, "table")) {
			users[userId] = undefined;
			continue;
		}
		const allowedById = entries as Record<string, unknown>;
		for (const [commandId, allowed] of pairs(allowedById)) {
			if (!typeIs(allowed, "boolean")) allowedById[commandId] = undefined;
		}
	}
	return undefined;
}) as Reader<CommandPermissionsAnswer["permissions"]>;

const banRecord: Reader<BanRecord> = object({ _id: req(str), userId: opt(str), reason: opt(str), expires: opt(str) });

/**
 * The admin chat command routes. Registering and reading permissions are safe to repeat; a ban is not (a second
 * request records a second ban), nor is a verify link (a repeat is refused as a used code, which may mean the first
 * one worked), nor a lift (a repeat finds no ban).
 * @internal
 */
export const commandsRoutes = {
	registerCommands: route({
		method: "POST",
		path: "/activity/commands",
		safeToRepeat: true,
		args: registerArgs,
		answer: object({ success: succeeded }) satisfies Reader<CommandsDoneAnswer>,
	}),
	commandPermissions: route({
		method: "GET",
		path: "/activity/commands/players/permissions?gameId={gameId}&playerIds={playerIds}",
		safeToRepeat: true,
		answer: object({
			success: succeeded,
			permissions: req(permissionTable),
		}) satisfies Reader<CommandPermissionsAnswer>,
	}),
	createBan: route({
		method: "POST",
		path: "/games/bans",
		safeToRepeat: false,
		priority: "high",
		args: banArgs,
		answer: object({ success: succeeded, ban: req(banRecord) }) satisfies Reader<BanAnswer>,
	}),
	deleteBan: route({
		method: "DELETE",
		path: "/games/bans/{id}",
		safeToRepeat: false,
		refusalMayMeanDone: true,
		args: unbanArgs,
		answer: object({ success: succeeded }) satisfies Reader<CommandsDoneAnswer>,
	}),
	verifyLink: route({
		method: "POST",
		path: "/activity/verifyLink",
		safeToRepeat: false,
		refusalMayMeanDone: true,
		args: verifyArgs,
		answer: object({ success: succeeded, linkedTo: opt(str) }) satisfies Reader<VerifyLinkAnswer>,
	}),
};

/** The UserIds of a permission read as the route's `playerIds`, or what is wrong with them. */
function playerIdsOf(userIds: unknown): { ok: true; value: string } | { ok: false; problem: string } {
	const expects = `a list of 1 to ${MAX_PERMISSION_PLAYERS} UserIds`;
	if (!typeIs(userIds, "table")) return { ok: false, problem: `\`userIds\` must be ${expects}` };
	const ids = userIds as Array<unknown>;
	if (ids.size() === 0 || ids.size() > MAX_PERMISSION_PLAYERS)
		return { ok: false, problem: `\`userIds\` must be ${expects}` };
	const parts = new Array<string>();
	for (const id of ids) {
		if (!positiveIdRule[0](id) || !isFiniteNumber(id))
			return { ok: false, problem: `\`userIds\` must be ${expects}` };
		parts.push(string.format("%d", id));
	}
	return { ok: true, value: parts.join(",") };
}

/** Builds `client.commands` over the client's one `call`. @internal */
export function commandsApi(call: Call<keyof typeof commandsRoutes | keyof typeof rankingRoutes>): CommandsApi {
	return {
		...rankingMethods(call),
		registerCommands(runningGameId, commands, options) {
			const list = typeIs(commands, "table")
				? (commands as Array<Partial<CommandRegistration>>).map((command) =>
						typeIs(command, "table")
							? { id: command.id, name: command.name, paramaters: command.parameters }
							: command,
					)
				: commands;
			return call("registerCommands", options, [], { gameId: runningGameId, commands: list });
		},
		permissions(runningGameId, userIds, options) {
			const playerIds = playerIdsOf(userIds);
			if (!playerIds.ok) {
				const refusal = new StaffOpsError({
					kind: "invalid",
					operation: "commandPermissions",
					message: playerIds.problem,
				});
				return Promise.reject(refusal) as Promise<CommandPermissionsAnswer>;
			}
			return call("commandPermissions", options, [runningGameId, playerIds.value]);
		},
		ban(args, options) {
			// The arguments are the wire body: the check refuses any other field, so nothing else is sent.
			return call("createBan", options, [], args);
		},
		unban(banIdOrUserId, options) {
			return call("deleteBan", options, [banIdOrUserId], {});
		},
		verifyLink(runningGameId, code, userId, options) {
			const userKey = isFiniteNumber(userId) ? string.format("%d", userId) : userId;
			return call("verifyLink", options, [], { gameId: runningGameId, code, userKey });
		},
	};
}
