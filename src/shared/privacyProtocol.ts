import { t } from "@rbxts/t";

// What crosses the `Consent` and `Activity` remotes (declared by the consent and staff activity features; their folder:
// `remotes.ts`). The server decides everything; a client only shows a prompt it was asked to show, answers it with a
// boolean, and names its own activity state. `Consent`: server → client, show or close the prompt; client → server,
// the player's answer. `Activity`: server → client, start reporting with the workspace's AFK settings; client →
// server, a state name.

/** Server → client on `Consent`: show the prompt, or close it (answered elsewhere, or no longer needed). @internal */
export type ConsentCommand = "show" | "close";

/** @internal */
export const isConsentCommand = t.literal("show", "close");

/** The activity states a client may report: the session event types it turns into (`message` is the server's). @internal */
export type ActivityState = "active" | "idle" | "typing";

/** @internal */
export const isActivityState = t.literal("active", "idle", "typing");

/**
 * Server → client on `Activity`: start detecting, with what the workspace asked for (`afkReportingSettings`, read by
 * the server from the registration answer).
 * @internal
 */
export interface ActivitySettings {
	/** Losing window focus (alt-tab, another app) counts as idle, after `altTabSeconds`. */
	readonly altTab: boolean;
	/** Seconds of lost window focus before idle (the workspace's `altTab.timeUntilIdle`, else 45); 0: at once. */
	readonly altTabSeconds: number;
	/** Idle after `idleSeconds` without the character moving and without any input. */
	readonly movement: boolean;
	/** Seconds without movement or input before idle. */
	readonly idleSeconds: number;
}

/** The bounds the deployed service gives `timeUntilIdle` (integer seconds). @internal */
export const MIN_IDLE_SECONDS = 0;
/** @internal */
export const MAX_IDLE_SECONDS = 3600;
/** The official module's idle time when the workspace sets none (docs/service-contract.md#session-events). @internal */
export const DEFAULT_IDLE_SECONDS = 45;

const isIdleSeconds = (value: unknown): value is number =>
	typeIs(value, "number") && value >= MIN_IDLE_SECONDS && value <= MAX_IDLE_SECONDS;

/** @internal */
export const isActivitySettings = t.strictInterface({
	altTab: t.boolean,
	altTabSeconds: isIdleSeconds,
	movement: t.boolean,
	idleSeconds: isIdleSeconds,
});
