import { TextService } from "@rbxts/services";
import { callWithin } from "../transport/withinDeadline";
import { robloxScheduler, Scheduler } from "../transport/scheduler";

/**
 * Filters one text for one player before it is shown to them; throws (or yields) like `TextService` does.
 * The bridge calls it in `pcall` and treats a throw, or anything but a string, as a failed filter.
 *
 * @example
 * ```ts
 * const filter: TextFilter = (text, recipient) => robloxTextFilter(text, recipient);
 * ```
 * @see README#support-calls
 */
export type TextFilter = (text: string, recipient: Player) => string;

/**
 * Roblox's filter for text from outside Roblox shown to one player: `TextService:FilterStringAsync(text,
 * recipient.UserId)` (the agent is not a Roblox user in this server, so the recipient stands in as the author),
 * then `GetNonChatStringForUserAsync(recipient.UserId)`. Yields; throws when Roblox's filter fails.
 *
 * @example
 * ```ts
 * const shown = robloxTextFilter("Hello!", player);
 * ```
 * @see README#support-calls
 */
export const robloxTextFilter: TextFilter = (text, recipient) => {
	const result = TextService.FilterStringAsync(text, recipient.UserId);
	return result.GetNonChatStringForUserAsync(recipient.UserId);
};

/**
 * Seconds one text filter call may take. `TextService` can stay silent for minutes when Roblox's filter is down;
 * past this the text counts as not filtered, so a kick, a shutdown or a message goes ahead with its fixed safe text.
 * @internal
 */
export const FILTER_DEADLINE_SECONDS = 5;

/**
 * Runs `filter` for `recipient` with a deadline: the filtered text, or undefined when the filter threw, answered
 * something that is not a string, or did not answer within `seconds` on `scheduler` (its thread is then cancelled).
 * Yields the calling thread while the filter works; a filter that does not yield answers without a wait.
 * @internal
 */
export function filterWithin(
	filter: TextFilter,
	text: string,
	recipient: Player,
	scheduler: Scheduler = robloxScheduler,
	seconds = FILTER_DEADLINE_SECONDS,
): string | undefined {
	// Roblox cannot take a filter call back; cancelling its thread at least drops what it would do after.
	const outcome = callWithin(() => filter(text, recipient), seconds, scheduler, true);
	return outcome.kind === "returned" && typeIs(outcome.value, "string") ? outcome.value : undefined;
}
