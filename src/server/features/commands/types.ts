// What a staff command is: the one shape of the built-ins and of the game's own (`gameCommands`).

/**
 * One parameter of a staff command, read from the text typed after its name:
 * - `player`: a player in this server, named by UserId, name or the start of a name or display name (one match
 *   only, never the staff member themself);
 * - `number`: a finite number;
 * - `duration`: a length of time as staff write it, `3d`, `2w`, `48h` or a number of days, given as whole days (1 to
 *   36500); a word that starts like a number but is no such length is refused with the accepted forms;
 * - `word`: one word;
 * - `text`: the rest of the line (only as the last parameter).
 * @see README#staff-commands
 */
export interface StaffCommandParameter {
	/** Shown in the usage hint, e.g. `player` or `reason`. */
	readonly name: string;
	readonly type: "player" | "number" | "duration" | "word" | "text";
	/** May be left out (only parameters after the required ones). */
	readonly optional?: boolean;
}

/** A parameter's value as the handler gets it: a `Player`, a number or a string; undefined when left out. */
export type StaffCommandArgument = Player | number | string | undefined;

/**
 * One use of a staff command, as its handler gets it: who ran it (already allowed by the service) and its
 * arguments, in the order of `parameters`, checked.
 * @see README#staff-commands
 */
export interface StaffCommandUse {
	/** The staff member who typed it. */
	readonly staff: Player;
	/** One value per parameter, in order. */
	readonly args: ReadonlyArray<StaffCommandArgument>;
}

/**
 * A staff command of the game's own, given in `gameCommands`: registered with the service with the built-ins (so
 * workspace admins grant it on the website), offered in chat as `/name` to the players it is granted to, checked
 * again on every use.
 *
 * @example
 * ```ts
 * const heal: StaffCommand = {
 * 	name: "heal",
 * 	parameters: [{ name: "player", type: "player" }],
 * 	run: ({ args }) => {
 * 		const humanoid = (args[0] as Player).Character?.FindFirstChildOfClass("Humanoid");
 * 		if (humanoid) humanoid.Health = humanoid.MaxHealth;
 * 		return "Healed.";
 * 	},
 * };
 * ```
 * @see README#staff-commands
 */
export interface StaffCommand {
	/**
	 * Typed as `/name`: 1 to 20 letters, digits or `_`, starting with a letter. Lowercased, it is also the command's id
	 * on the website, the same in every version, so its grants stay; a name starting `readmin_` is left out (those ids
	 * are the official module's, which the built-ins use).
	 */
	readonly name: string;
	/** Shown on the website beside the name. */
	readonly description?: string;
	readonly parameters?: ReadonlyArray<StaffCommandParameter>;
	/**
	 * Does the command; may yield. What it returns is shown to the staff member who ran it (only to them). An error
	 * is caught and shown as "That command failed."
	 */
	readonly run: (use: StaffCommandUse) => string | void;
}
