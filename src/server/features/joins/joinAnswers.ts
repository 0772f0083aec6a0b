// What one join says and what its outcome means: the arguments a player's join is sent with, and the `JoinResult`
// that settles it, from the service's answer or from its player list. When each join goes out, and what a failure
// does, is the queue's (joinQueue.ts).
import type { PlayerJoinAnswer, PlayerJoinArgs } from "../../../api/resources/activity";
import { UNKNOWN_TZ_OFFSET } from "../../../shared/reportPayload";
import type { Listed } from "./joinLookup";
import type { DecidedProfile } from "../../profile";
import type { JoinResult, PlayerRecord, Registered } from "../../records";
import { privacyOf } from "./tracking";

/** The player's display name when it can be sent (a non-empty line of text). */
function displayNameOf(record: PlayerRecord): string | undefined {
	const [ok, name] = pcall(() => record.player.DisplayName);
	return ok && typeIs(name, "string") && name.size() > 0 && name.size() <= 256 && name.find("%c")[0] === undefined
		? name
		: undefined;
}

/** The arguments of a player's join under this registration, as the decided profile wants them. @internal */
export function joinArgsOf(
	record: PlayerRecord,
	registered: Registered,
	profile: DecidedProfile | undefined,
): PlayerJoinArgs {
	return {
		playerId: record.userId,
		safechat: record.safechat ?? true,
		username: record.username,
		tzOffset: record.report?.tzOffset ?? UNKNOWN_TZ_OFFSET,
		platform: record.report?.platform ?? "unknown",
		gameId: registered.runningGameId,
		// The deployed service places the session in time by `datetime` (else at arrival); never `groupRank`.
		...(profile === "deployed"
			? { datetime: record.joinedAtMs, userKey: tostring(record.userId), displayName: displayNameOf(record) }
			: {}),
	};
}

/** What the service's answer to a join sent with `args` says about the player. @internal */
export function resultOfAnswer(args: PlayerJoinArgs, answer: PlayerJoinAnswer): JoinResult {
	// An absent `banned` means the service did not say the player is banned (its privacy modes leave it out).
	const banned = answer.banned === true;
	return {
		banned,
		reason: banned ? (answer.reason ?? "") : "",
		isStaff: answer.isStaff === true && !banned,
		sessionId: answer.sessionId,
		runningPlayerId: answer.runningPlayerId,
		platform: args.platform,
		tzOffset: args.tzOffset,
		safechat: args.safechat,
		...privacyOf(answer),
	};
}

/**
 * What the service's player list says about a join whose answer was lost but which the service acted on (the player
 * is listed): whether the player is staff, their entry, and the session their join opened (the deployed service's
 * `userSessionId`), so their activity events name it as an answered join's would
 * (docs/service-contract.md#the-player-list-names-each-session); the rest is what the join sent.
 * @internal
 */
export function resultOfListing(listing: Listed, sent: PlayerJoinArgs | undefined): JoinResult {
	return {
		banned: false,
		reason: "",
		isStaff: listing.entry?.isStaff === true,
		sessionId: listing.entry?.userSessionId,
		runningPlayerId: listing.entry?._id,
		platform: sent?.platform ?? "unknown",
		tzOffset: sent?.tzOffset ?? UNKNOWN_TZ_OFFSET,
		safechat: sent?.safechat ?? true,
	};
}

/** An answered join in a verbose line: what the service said, never its reason's text. @internal */
export function outcomeOf(result: JoinResult): string {
	if (result.banned) return "banned";
	if (result.tracked === false) return "not tracked";
	return result.isStaff ? "staff" : "player";
}
