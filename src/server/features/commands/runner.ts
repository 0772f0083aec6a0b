// One use of a staff command, from the remote to its result: checked, allowed by the service, run, answered.
import { logWarn, playerLabel } from "../../../background/log";
import { callNow, callWithin } from "../../../transport/withinDeadline";
import { COMMANDS_REMOTE, CommandsMessage, isCommandText, MAX_COMMAND_TEXT } from "../../../shared/commandsProtocol";
import { RateLimiter } from "../../../shared/rateLimiter";
import { cutToBytes } from "../../../shared/textLength";
import type { Scheduler } from "../../../transport/scheduler";
import type { CommandPermissions } from "./permissions";
import { commandNameOf, parseCommand } from "./parse";
import type { RegisteredCommand } from "./registry";

/** A staff member may start a command every 2 s, 3 at once (a moderator types; a script firing faster is dropped). */
const USES_PER_SECOND = 0.5;
const USE_BURST = 3;
/** The longest result shown, in bytes (the protocol's bound on the remote). */
const MAX_RESULT = 1000;
/**
 * Seconds a game command's `run` may take: past them the staff member is told, and may use commands again; what it
 * returns later is not shown. The built-ins are bounded by their own requests' timeouts.
 * @internal
 */
export const GAME_COMMAND_SECONDS = 30;

/** What a use needs from the integration. @internal */
export interface RunnerSeams {
	readonly scheduler: Scheduler;
	readonly guard: (label: string, fn: () => void) => void;
	/** The players in this server (targets are found among them). */
	readonly present: () => ReadonlyArray<Player>;
	readonly permissions: CommandPermissions;
	/** The `StaffCommands` remote. */
	readonly remote: () => RemoteEvent | undefined;
}

/** Counts of uses, for checks and diagnostics. @internal */
export interface RunnerStats {
	/** Uses that ran. */
	ran: number;
	/** Uses answered with a refusal: not allowed, a bad argument, a busy staff member. */
	refused: number;
	/** Remote events dropped without an answer: malformed, unknown commands, over the rate, nothing granted. */
	dropped: number;
	/** Handlers that threw. */
	failed: number;
	/** Game commands that had not returned at their deadline (GAME_COMMAND_SECONDS). */
	late: number;
}

/**
 * Runs the uses that arrive on the `StaffCommands` remote. The client never decides: every use is checked here
 * against the service's permissions (read again first when sent 150 s ago or more: USE_FRESH_SECONDS), its arguments
 * are parsed and bounded, and its result goes to the staff member who ran it only. A client firing junk gets nothing
 * back.
 * @internal
 */
export class CommandRunner {
	readonly stats: RunnerStats = { ran: 0, refused: 0, dropped: 0, failed: 0, late: 0 };
	private readonly limiter: RateLimiter;
	/** Players with a use running: one at a time each. */
	private readonly busy = new Set<Player>();

	constructor(
		private readonly seams: RunnerSeams,
		/** By the name typed (`kick`), each with the id its grants are keyed by (`readmin_kick`). */
		private readonly commands: ReadonlyMap<string, RegisteredCommand>,
	) {
		this.limiter = new RateLimiter(USES_PER_SECOND, USE_BURST, () => seams.scheduler.now());
	}

	/** One event of the remote: `args` as the client sent them. */
	handle(player: Player, args: Array<unknown>): void {
		if (!typeIs(player, "Instance") || !player.IsA("Player")) return;
		const text = args[0];
		// The name is read from the line's start only (a name is at most 20 characters): a huge line costs nothing.
		const name = args.size() === 1 && typeIs(text, "string") ? commandNameOf(text.sub(1, 32)) : undefined;
		const command = name !== undefined ? this.commands.get(name) : undefined;
		const permissions = this.seams.permissions;
		// Nothing granted at all: this client was offered nothing, so whatever it sends is not a player's typing.
		if (command === undefined || permissions.allowedOf(player).size() === 0 || !this.limiter.allow(player.UserId)) {
			this.stats.dropped += 1;
			return;
		}
		// A staff member's line over the bound is answered, never dropped: they typed it and wait for a result.
		if (!isCommandText(text)) {
			this.refuse(player, `That command line is too long (at most ${MAX_COMMAND_TEXT} characters).`);
			return;
		}
		if (this.busy.has(player)) {
			this.refuse(player, "Your last command is still running.");
			return;
		}
		this.busy.add(player);
		task.spawn(() => {
			this.seams.guard("staff command", () => this.use(player, command, text as string));
			this.busy.delete(player);
		});
	}

	/** The player left: their rate bucket goes. */
	forget(player: Player): void {
		this.limiter.forget(player.UserId);
		this.busy.delete(player);
	}

	/** Players with a rate bucket (memory checks). */
	size(): number {
		return this.limiter.size();
	}

	private use(player: Player, registered: RegisteredCommand, text: string): void {
		const permissions = this.seams.permissions;
		const { id, name, command } = registered;
		if (!permissions.isFresh(player) && !permissions.readNow(player).expect()) {
			this.refuse(player, "Your permissions could not be checked; try again in a moment.");
			return;
		}
		if (!permissions.allowedOf(player).has(id) || player.Parent === undefined) {
			this.refuse(player, `You may not use /${name}.`);
			return;
		}
		const parsed = parseCommand(command, text, player, this.seams.present());
		if (!parsed.ok) {
			this.refuse(player, parsed.problem);
			return;
		}
		const run = () => command.run({ staff: player, args: parsed.args });
		const outcome = registered.builtIn ? callNow(run) : callWithin(run, GAME_COMMAND_SECONDS, this.seams.scheduler);
		if (outcome.kind === "late") {
			this.stats.late += 1;
			logWarn(
				`the staff command /${name} of ${playerLabel(player)} did not return within ${GAME_COMMAND_SECONDS} s`,
			);
			this.answer(
				player,
				`/${name} did not finish within ${GAME_COMMAND_SECONDS} s; its result will not be shown.`,
			);
			return;
		}
		if (outcome.kind === "threw") {
			this.stats.failed += 1;
			logWarn(`the staff command /${name} of ${playerLabel(player)} failed: ${tostring(outcome.err)}`);
			this.answer(player, "That command failed.");
			return;
		}
		this.stats.ran += 1;
		const result = outcome.value;
		if (typeIs(result, "string") && result !== "") this.answer(player, result);
	}

	private refuse(player: Player, text: string): void {
		this.stats.refused += 1;
		this.answer(player, text);
	}

	private answer(player: Player, text: string): void {
		const remote = this.seams.remote();
		if (remote === undefined || player.Parent === undefined) return;
		const message: CommandsMessage = { kind: "result", text: cutToBytes(text, MAX_RESULT) };
		this.seams.guard(COMMANDS_REMOTE, () => remote.FireClient(player, message));
	}
}
