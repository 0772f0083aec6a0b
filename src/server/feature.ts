// What a feature is: one declaration (settings, remotes, client parts) and the hooks of a running server.
import type { Rule } from "../api/arguments";
import type { RemoteName } from "../shared/remoteNames";
import type { ClosingPart } from "./closeWatch";
import type { FeatureFace } from "./face";

/**
 * One setting as a feature declares it: the one place its name, its drop-in attribute, its defaults, its range and
 * the profile that turns it on are written. `scripts/model-settings.mjs` (the build) reads these declarations (plain
 * literals only), writes the model's attributes and the Luau config type's fields from them, and fails the build when
 * the feature's settings interface or the README's settings table say otherwise. (In the package's declarations only
 * because the config type is derived from the features' declarations; not an API.)
 */
export interface SettingDeclaration {
	/** The field of `StaffOpsConfig`; a nested one is written `sessions.reportLeaves`. */
	readonly field: string;
	/** The drop-in model's attribute; absent for settings that only code can give (functions, tables). */
	readonly attribute?: string;
	/** The library's default when the field is left out; absent when there is none (a required or open setting). */
	readonly default?: string | number | boolean;
	/** The attribute's value in the model (init.meta.json), when it differs from the library's default. */
	readonly modelDefault?: string | number | boolean;
	/** For numbers: the allowed range. */
	readonly min?: number;
	readonly max?: number;
	/** The service profile that turns it on by default (on there unless set to false). */
	readonly profile?: "deployed";
	/**
	 * The Luau type of its field in `StaffOpsConfig` (model/init.luau), `?` included where it may be left out, when the
	 * default's type does not say it (a boolean, number or string default gives `boolean?`, `number?`, `string?`). A
	 * nested setting gives its top-level field's type (on the first of them).
	 */
	readonly luau?: string;
	/** Without it StaffOps cannot work: a bad value stops it. Every other setting falls back to its default. */
	readonly required?: boolean;
	/**
	 * Its check when neither its range nor its default's type says it (an address, a key, a table, a function, a
	 * choice). A nested setting gives its top-level field's (on the first of them). Run by `configCheck.ts`.
	 * @internal
	 */
	readonly check?: Rule;
	/**
	 * Its resolved value from the one given (checked, or undefined), when that is not "as given, else the default".
	 * @internal
	 */
	readonly resolve?: (given: unknown) => unknown;
	/** What a bad value falls back to, in words for its warning, when that is neither a default nor the profile's. */
	readonly fallback?: string;
}

/**
 * How a warning names a setting: what the user edited. Code's own configuration: `config.baseUrl`; the drop-in
 * model passes its attribute names (`attribute BaseUrl`).
 * @internal
 */
export type SettingName = (field: string) => string;

/** A bad optional setting: its field and the sentence naming it. @internal */
export interface SettingProblem {
	readonly field: string;
	readonly problem: string;
}

/** Reads a Roblox Secret by name. @internal */
export type SecretReader = (name: string) => Secret;

/**
 * A feature's checks of its settings together, beyond each one's own ({@link SettingDeclaration.check}):
 * `configCheck.ts` runs every feature's, in the features' order. No sentence quotes a value: a value might be a key.
 * @internal
 */
export interface SettingsChecks {
	/** Before each setting is checked alone: the sentence that stops StaffOps, when what it cannot work without is wrong. */
	readonly refuse?: (config: Readonly<Record<string, unknown>>, nameOf: SettingName) => string | undefined;
	/** After each was checked alone: a problem between settings that each passed (`usable`); it leaves them out there. */
	readonly between?: (usable: Record<string, unknown>, nameOf: SettingName) => SettingProblem | undefined;
	/**
	 * Resolving, after each setting's own: writes its settings' resolved values into `settings` from the screened
	 * `config`; a warning to print, or a sentence that stops StaffOps.
	 */
	readonly resolve?: (
		config: Readonly<Record<string, unknown>>,
		settings: Record<string, unknown>,
		readSecret: SecretReader,
		nameOf: SettingName,
	) => [ok: true, warning?: string] | [ok: false, problem: string];
}

/**
 * The client part a feature delivers: its module under `src/client/` (a folder's index, or `folder/file`) and the
 * function the drop-in model's loader calls there. (In the package's declarations for the config type; not an API.)
 */
export interface ClientPartDeclaration {
	readonly folder: string;
	readonly start: string;
}

// Any face: whatever its functions need of their running feature, they can be given a feature that is not running.
type AnyFace = FeatureFace<object, object, never>;

/**
 * What a feature is, in one literal: its name (the key of its diagnostics record), its settings, the remotes it
 * listens or speaks on, and the client parts the model's loader starts for it. `C` is the feature's part of
 * `StaffOpsConfig`, an interface beside the declaration with one documented field per top-level setting: the config
 * type is the intersection of every declared feature's `C` (`config.ts`), so a new setting is written in its feature
 * only (the build checks the interface's fields against `settings`). `F` is its face, what it adds to `StaffOps`:
 * the entry's type is the intersection of every face's signals and functions (`features/index.ts`). In the package's
 * declarations for those types; not an API.
 */
export interface FeatureDeclaration<C extends object = {}, N extends string = string, F extends AnyFace = AnyFace> {
	/** Its key in the server's features (`ServerFeatures`) and diagnostics: a literal, which the list checks. */
	readonly name: N;
	readonly settings: ReadonlyArray<SettingDeclaration>;
	/**
	 * Its remotes' names, written here as strings: the build makes {@link RemoteName} of every declaration's, so the
	 * feature's server code (`ctx.remotes.Name`) and its client part (`waitForRemote("Name")`) name them as strings
	 * the compiler checks. (A string constant of `shared/` works too, as older features' protocol modules have.)
	 */
	readonly remotes: ReadonlyArray<RemoteName>;
	readonly clientParts: ReadonlyArray<ClientPartDeclaration>;
	/** Its checks of its settings together, when it has any. @internal */
	readonly checks?: SettingsChecks;
	/** What it adds to `StaffOps` (its signals and functions), when it adds anything: the entry is built from these. */
	readonly face?: F;
	/** Never set: carries `C`, the type of the feature's settings, to the config type. */
	readonly configType?: C;
}

/**
 * A running feature: built by `server.ts` in its start order, told of the server's moments through these hooks, and
 * stopped in the reverse of that order. Every hook runs inside the server's guard.
 * @internal
 */
export interface Feature {
	readonly declaration: FeatureDeclaration;
	/** At `begin`, after the remotes exist: connect remotes and players, start what runs from the first moment. */
	start?(): void;
	/**
	 * At `begin`, after the players and the close are connected: what starts from the players already here (their
	 * joins) or from the whole list of features (the client parts' delivery).
	 */
	begun?(): void;
	/** After each registration, with the profile decided (leaves turned on, presence kept, calls and commands set up). */
	registered?(): void;
	/** After every feature's `registered`: send what waited for the registration (the joins queued meanwhile). */
	registeredLast?(): void;
	/**
	 * The service forgot this server: drop what belonged to the old registration. May say, in a few words, what it
	 * does again (the server's log line names it: `reporting 3 player(s) again`).
	 */
	forgotten?(): string | void;
	/** A player joined (PlayerAdded). */
	joined?(player: Player): void;
	/** A player is leaving (PlayerRemoving). */
	left?(player: Player): void;
	/** Its part in the close (`BindToClose`, `closing.ts`): what it sends, ends and leaves undone there. */
	readonly atClose?: ClosingPart;
	/** Stops at once; sends nothing more. */
	stop?(): void;
	/** What specs and monitoring read: counts and sizes, never a key or a player's text. */
	diagnostics(): object;
}
