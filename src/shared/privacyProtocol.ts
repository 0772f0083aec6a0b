import { t } from "@rbxts/t";

// What crosses the `Consent` and `Activity` remotes (named below; their folder: `remotes.ts`). The server decides everything; a client only
// shows a prompt it was asked to show, answers it with a boolean, and names its own activity state.

/** The consent remote: server → client, show or close the prompt; client → server, the player's answer. @internal */
export const CONSENT_REMOTE = "Consent";

/** The staff activity remote: server → client, start reporting with the workspace's AFK settings; client → server, a state name. @internal */
export const ACTIVITY_REMOTE = "Activity";

/** Server → client on `Consent`: show the prompt, or close it (answered elsewhere, or no longer needed). @internal */
export type ConsentCommand = "show" | "close";

/** @internal */
export const isConsentCommand = t.literal("show", "close");

/** The activity states a client may report: the session event types it turns into (`message` is the server's). @internal */
export type ActivityState = "active" | "idle" | "typing";

/** @internal */
export const isActivityState = t.literal("active", "idle", "typing");

/**
 * Server → client on `Activity`: start detecting, with what the workspace asked for (`afkReportingSettings`).
 * @internal
 */
export interface ActivitySettings {
	/** Losing window focus (alt-tab, another app) counts as idle at once. */
	readonly altTab: boolean;
	/** Idle after `idleSeconds` without the character moving; else without any input. */
	readonly movement: boolean;
	/** Seconds without activity before idle. */
	readonly idleSeconds: number;
}

/** Bounds of {@link ActivitySettings.idleSeconds}. @internal */
export const MIN_IDLE_SECONDS = 30;
/** @internal */
export const MAX_IDLE_SECONDS = 3600;
/** The service's documents name no time: five minutes without input, as most AFK timers use. @internal */
export const DEFAULT_IDLE_SECONDS = 300;

/** @internal */
export const isActivitySettings = t.strictInterface({
	altTab: t.boolean,
	movement: t.boolean,
	idleSeconds: (value: unknown): value is number =>
		typeIs(value, "number") && value >= MIN_IDLE_SECONDS && value <= MAX_IDLE_SECONDS,
});
