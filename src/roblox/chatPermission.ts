import { TextChatService } from "@rbxts/services";

/**
 * Whether a player's chat settings and parental controls let them chat freely:
 * `TextChatService:CanUserChatAsync` (docs/roblox.md). A web call: it yields, and it throws for a user who is not in
 * the server. Joins read it for `safechat`; the support desk reads it before a player may type to staff.
 * @internal
 */
export function canUserChat(player: Player): boolean {
	// `User` is a nominal alias of a user id in the typings.
	return TextChatService.CanUserChatAsync(player.UserId as unknown as User);
}
