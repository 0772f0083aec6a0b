// The staff commands feature: chat commands whose permissions are set on the staff website (deployed profile).
import { logInfo } from "../../../background/log";
import { COMMANDS_REMOTE, CommandsMessage, MAX_OFFERED, OfferedCommand } from "../../../shared/commandsProtocol";
import { filterWithin } from "../../../roblox/textFilter";
import { robloxTextFilter } from "../../../roblox/textFilter";
import { robloxGroupRoles } from "../../../roblox/groupRank";
import { builtInCommands } from "./builtins";
import { usageOf } from "./parse";
import { CommandPermissions, PermissionStats } from "./permissions";
import { CommandRunner, RunnerStats } from "./runner";
import { commandList, OFFICIAL_PREFIX, RegisteredCommand, websiteParameters, WebsiteParameter } from "./registry";
import type { CommandPermissionsAnswer } from "../../../api/resources/commands";
import type { StaffCommand } from "./types";
import { RANKING_KEY_CHECKS } from "./rankingKey";
import { keyRule, secretNameRule } from "../service/settingChecks";
import { t } from "@rbxts/t";
import type { ServerContext } from "../../context";
import type { Feature, FeatureDeclaration } from "../../feature";
import type { JoinsFeature } from "../joins";

/**
 * Staff commands' settings in `StaffOpsConfig`.
 */
export interface CommandsConfig {
	/**
	 * Staff chat commands (`/kick`, `/ban`, ...) with the permissions the staff website sets (attribute `Commands`).
	 * Default on with the deployed profile; false turns them off.
	 */
	readonly commands?: boolean;
	/** The game's own staff commands, registered and offered beside the built-ins. Default: none. */
	readonly gameCommands?: ReadonlyArray<StaffCommand>;
	/**
	 * The name of the Roblox Secret that holds the workspace's separate ranking key (attribute `RankingKeySecret`):
	 * with it, the built-in `/rank` is registered and offered like the others. Default: none (no `/rank`). The key goes
	 * only to the ranking route, in its `api-key` header; a Secret that cannot be read turns `/rank` off with a warning.
	 */
	readonly rankingKeySecret?: string;
	/**
	 * The ranking key itself, or a `Secret` (attribute `RankingKey`), in place of `rankingKeySecret`. Prefer the
	 * Secret: a key in a script or attribute is saved with the place.
	 */
	readonly rankingKey?: string | Secret;
}

// Its settings join `StaffOpsConfig` (and their resolved types `StaffOpsSettings`): the core names no feature.
declare module "../../config" {
	interface StaffOpsBaseConfig extends CommandsConfig {}
	interface ResolvedSettings {
		/** Read from its Secret when `rankingKeySecret` named one; undefined: no `/rank`. */
		readonly rankingKey?: string | Secret;
	}
}

/**
 * Staff commands (deployed profile): registered with the service once per server, offered in chat to each player as
 * the website allows, checked again on every use. In the package's declarations for the config type; not an API.
 */
export const COMMANDS: FeatureDeclaration<CommandsConfig, "commands"> = {
	name: "commands",
	settings: [
		{ field: "commands", attribute: "Commands", modelDefault: true, profile: "deployed" },
		{
			field: "gameCommands",
			luau: "{ StaffCommand }?",
			// Each command is checked when the commands are listed (registry.ts): a bad one is left out alone.
			check: [(value) => t.array(t.table)(value), "a list of staff commands { name, parameters?, run }"],
		},
		{
			field: "rankingKeySecret",
			attribute: "RankingKeySecret",
			modelDefault: "",
			luau: "string?",
			check: secretNameRule,
			fallback: "no ranking key (no /rank)",
		},
		{
			field: "rankingKey",
			attribute: "RankingKey",
			modelDefault: "",
			luau: "(string | Secret)?",
			check: keyRule,
			fallback: "no ranking key (no /rank)",
		},
	],
	remotes: [COMMANDS_REMOTE],
	clientParts: [{ folder: "commands", start: "startStaffCommands" }],
	checks: RANKING_KEY_CHECKS,
};

/** What specs and monitoring read of the staff commands. @internal */
export interface CommandsDiagnostics {
	/** `POST /activity/commands` sent (at most once per server). */
	readonly registrations: number;
	readonly permissions?: PermissionStats;
	readonly uses?: RunnerStats;
	/** Players whose permissions are kept. */
	readonly players: number;
	/** A read showed grants of the official module's command ids: StaffOps said once that it took them over. */
	readonly tookOver: boolean;
}

/** The staff commands feature; its parts exist once the profile says the commands run. @internal */
export class CommandsFeature implements Feature {
	readonly declaration = COMMANDS;
	/** The commands in registration order (built-ins first, under the official module's ids). */
	private readonly ordered: ReadonlyArray<RegisteredCommand>;
	private readonly permissions: CommandPermissions;
	private readonly runner: CommandRunner;
	private registrations = 0;
	private on = false;
	private tookOver = false;

	constructor(
		private readonly ctx: ServerContext,
		private readonly joins: JoinsFeature,
	) {
		const filter = ctx.seams.textFilter ?? robloxTextFilter;
		const runningGameId = () => ctx.registered()?.runningGameId;
		const builtIns = builtInCommands({
			client: ctx.client,
			runningGameId,
			filterFor: (text, recipient) => filterWithin(filter, text, recipient, ctx.scheduler),
			ranking: ctx.config.rankingKey !== undefined,
			groupId: () => {
				const groupId = tonumber(ctx.registered()?.answer?.workspace?.groupId);
				return groupId !== undefined && groupId > 0 ? groupId : undefined;
			},
			groupRoles: robloxGroupRoles,
		});
		const ordered = (this.ordered = commandList(builtIns, ctx.config.gameCommands ?? []));
		const byName = new Map<string, RegisteredCommand>();
		for (const registered of ordered) byName.set(registered.name, registered);
		this.permissions = new CommandPermissions({
			client: ctx.client,
			scheduler: ctx.scheduler,
			health: ctx.health,
			guard: ctx.guard,
			runningGameId,
			changed: (player) => this.offer(player),
			answered: (permissions) => this.noticeTakeOver(permissions),
		});
		this.runner = new CommandRunner(
			{
				scheduler: ctx.scheduler,
				guard: ctx.guard,
				present: () => ctx.players.GetPlayers(),
				permissions: this.permissions,
				remote: () => ctx.remotes?.[COMMANDS_REMOTE],
			},
			byName,
		);
	}

	start(): void {
		const ctx = this.ctx;
		ctx.listen(ctx.remotes![COMMANDS_REMOTE], "staff command", (player, args) => {
			if (this.on) this.runner.handle(player, args);
		});
		this.joins.onAnswered((player, result) => {
			if (result.isStaff) this.permissions.staffJoined(player);
		});
	}

	/** After each registration: with the deployed profile and the setting on, register the commands once. */
	registered(): void {
		const ctx = this.ctx;
		if (ctx.profile !== "deployed" || ctx.config.commands === false) return;
		if (!this.on) {
			this.on = true;
			for (const player of ctx.players.GetPlayers()) this.permissions.joined(player);
			this.permissions.start();
			this.register();
		}
		this.permissions.registered();
	}

	joined(player: Player): void {
		this.permissions.joined(player);
	}

	left(player: Player): void {
		this.permissions.left(player);
		this.runner.forget(player);
	}

	stop(): void {
		this.permissions.stop();
	}

	diagnostics(): CommandsDiagnostics {
		return {
			registrations: this.registrations,
			permissions: { ...this.permissions.stats },
			uses: { ...this.runner.stats },
			players: this.permissions.size(),
			tookOver: this.tookOver,
		};
	}

	/**
	 * The first read that shows a grant of an official module's command id (`readmin_...`): the workspace ran the
	 * official module for this game, and its grants now work for StaffOps' built-ins. Said once per server, with what
	 * the official module did that this game has off, the chat log first (docs/service-contract.md#admin-chat-commands).
	 */
	private noticeTakeOver(permissions: CommandPermissionsAnswer["permissions"]): void {
		if (this.tookOver) return;
		let granted = false;
		for (const [, entries] of pairs(permissions)) {
			for (const [id, on] of pairs(entries)) {
				if (on === true && (id as string).sub(1, OFFICIAL_PREFIX.size()) === OFFICIAL_PREFIX) granted = true;
			}
		}
		if (!granted) return;
		this.tookOver = true;
		const config = this.ctx.config;
		const off = new Array<string>();
		if (config.activity.chatMessages !== true) {
			off.push("the dashboard's chat log (ChatLogging is off: no chat line is sent)");
		}
		if (config.activity.everyone !== true)
			off.push("activity for everyone (ActivityForEveryone is off: staff only)");
		if (config.rankingKey === undefined) off.push("/rank (no RankingKeySecret)");
		const rest = off.size() > 0 ? ` Off in this game, unlike the official module: ${off.join("; ")}.` : "";
		logInfo(
			`took over the official module's staff commands (${OFFICIAL_PREFIX}... ids): the grants made for them on the website apply.${rest}`,
		);
	}

	/**
	 * `POST /activity/commands`, once per server: the service keeps the list per game and place, so a registration
	 * made again after the service forgot this server changes nothing, and a failed one (an unknown outcome included)
	 * is not repeated: the commands an earlier server registered keep working, and the next server registers anew.
	 */
	private register(): void {
		const runningGameId = this.ctx.registered()?.runningGameId;
		if (runningGameId === undefined || this.registrations > 0) return;
		this.registrations += 1;
		const list = new Array<{ id: string; name: string; parameters: Array<WebsiteParameter> }>();
		for (const { id, command } of this.ordered) {
			list.push({ id, name: command.name, parameters: websiteParameters(command) });
		}
		this.ctx.client.commands.registerCommands(runningGameId, list, { priority: "normal", maxAttempts: 1 }).then(
			() => this.ctx.guard("staff commands", () => logInfo(`registered ${list.size()} staff command(s)`)),
			(err: unknown) =>
				this.ctx.guard("staff commands", () =>
					this.ctx.health.problem(
						"staff commands",
						`the staff commands could not be registered (${tostring(err)}); those an earlier server ` +
							"registered still work, and the next server registers them again",
						err,
					),
				),
		);
	}

	/** Sends `player` the commands they may use now (an empty list takes them away). */
	private offer(player: Player): void {
		const remote = this.ctx.remotes?.[COMMANDS_REMOTE];
		if (remote === undefined || player.Parent === undefined) return;
		const allowed = this.permissions.allowedOf(player);
		const commands = new Array<OfferedCommand>();
		for (const { id, name, command } of this.ordered) {
			if (allowed.has(id) && commands.size() < MAX_OFFERED) commands.push({ name, usage: usageOf(command) });
		}
		const message: CommandsMessage = { kind: "offer", commands };
		this.ctx.guard(COMMANDS_REMOTE, () => remote.FireClient(player, message));
	}
}
