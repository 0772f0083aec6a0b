import { TextService } from "@rbxts/services";

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
