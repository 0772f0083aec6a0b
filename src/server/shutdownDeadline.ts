import { defaultIsStudio } from "./seams";

/**
 * The longest a shutdown waits in a Studio playtest, in seconds. Roblox runs `BindToClose` callbacks when a Studio
 * playtest stops too (docs/roblox.md#bindtoclose-runs-when-a-studio-playtest-stops), and Studio waits for them: with the service unreachable, the full deadline
 * (25 s by default) would freeze the editor's Stop button. Three seconds still lets a reachable local service take
 * the last join reports.
 * @internal
 */
export const STUDIO_SHUTDOWN_DEADLINE_SECONDS = 3;

/**
 * Seconds the shutdown of this server may take: `configured` on a live server, at most
 * {@link STUDIO_SHUTDOWN_DEADLINE_SECONDS} in a Studio playtest.
 * @internal
 */
export function shutdownDeadlineSeconds(configured: number, isStudio: () => boolean = defaultIsStudio): number {
	const [ok, studio] = pcall(isStudio);
	return ok && studio === true ? math.min(configured, STUDIO_SHUTDOWN_DEADLINE_SECONDS) : configured;
}
