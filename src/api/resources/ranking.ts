import { isFiniteNumber, positiveIdRule } from "../arguments";
import type { CallOptions } from "../callOptions";
import type { Reader } from "../reader";
import { Call, route } from "../routeSpec";
import { StaffOpsError } from "../../transport/staffOpsError";

// The deployed service's ranking route (docs/service-contract.md#admin-chat-commands): sets a user's role in the
// workspace's group. It takes the workspace's separate ranking key in an `api-key` header, never the API key; part of
// `client.commands`.

/** The most digits of a rank sent: a rank number (1 to 255) or a Roblox role id. @internal */
export const MAX_RANK_DIGITS = 15;

/**
 * Answer of `client.commands.setRank`. The route's answer body is not documented, so only its status is read: any
 * 2xx means the role was set; `message` is the service's words when it gave some.
 * @see README#staff-commands
 */
export interface SetRankAnswer {
	readonly success: true;
	readonly message?: string;
}

/** The ranking method of `client.commands`. @see README#staff-commands */
export interface RankingMethods {
	/**
	 * Sets the user's role to `rank` (`PUT /ranking/users/{userId}/role/{rank}`) with the ranking key (`rankingKey` of
	 * the client's configuration; without one this rejects with kind `invalid`, nothing sent). `rank` is a positive
	 * whole number written in digits: a rank number (1 to 255) or a role id, as the service reads it with parseInt (a
	 * role's name always answers 404 "Rank not found.", and `1e3` would be read as rank 1), so anything else is refused
	 * with kind `invalid`, nothing sent. Not safe to repeat: the service queues the rank action before it calls Roblox,
	 * so after an unknown outcome (a timeout, a lost answer, a 5xx) it may be queued; it is sent once. A refusal
	 * (`success: false`, or a 4xx such as 401 for a wrong ranking key) rejects with the service's words, with both keys
	 * redacted.
	 */
	setRank(userId: number, rank: string, options?: CallOptions): Promise<SetRankAnswer>;
}

/**
 * The ranking route. Not safe to repeat: the service records the rank action in its queue before it calls Roblox
 * (docs/service-contract.md#admin-chat-commands), so a second request after an unknown outcome (a timeout, a dropped
 * connection, a 5xx) queues a second action. The answer is read tolerantly: any JSON, or none.
 * @internal
 */
export const rankingRoutes = {
	setRank: route({
		method: "PUT",
		path: "/ranking/users/{userId}/role/{rank}",
		safeToRepeat: false,
		priority: "high",
		hasBody: false,
		credential: "rankingKey",
		answer: { read: () => undefined } satisfies Reader<unknown>,
	}),
};

/**
 * What is wrong with a rank, or undefined: a positive whole number in 1 to {@link MAX_RANK_DIGITS} digits, so that
 * nothing but a number the service's parseInt reads as itself reaches the path (never `.`, `..`, `-1` or `1e3`).
 * @internal
 */
export function rankProblem(rank: unknown): string | undefined {
	const expects = "`rank` must be a positive whole number in digits (a rank number or a role id)";
	if (!typeIs(rank, "string") || rank.size() === 0 || rank.size() > MAX_RANK_DIGITS) return expects;
	if (rank.match("^%d+$")[0] === undefined || rank.match("^0+$")[0] !== undefined) return expects;
	return undefined;
}

/** Builds the ranking method over the client's one `call`. @internal */
export function rankingMethods(call: Call<keyof typeof rankingRoutes>): RankingMethods {
	return {
		setRank(userId, rank, options) {
			const problem = !positiveIdRule[0](userId) ? `\`userId\` must be ${positiveIdRule[1]}` : rankProblem(rank);
			if (problem !== undefined) {
				const refusal = new StaffOpsError({ kind: "invalid", operation: "setRank", message: problem });
				return Promise.reject(refusal) as Promise<SetRankAnswer>;
			}
			const id = isFiniteNumber(userId) ? string.format("%d", userId) : tostring(userId);
			return call<unknown>("setRank", options, [id, rank]).then(
				(answer): SetRankAnswer => {
					const message = typeIs(answer, "table") ? (answer as { message?: unknown }).message : undefined;
					return typeIs(message, "string") && message !== "" ? { success: true, message } : { success: true };
				},
				(err: unknown) => {
					// A 2xx whose body is not JSON: the role was set all the same (only the status is read).
					if (StaffOpsError.is(err) && err.kind === "decode" && err.acted) return { success: true as const };
					return Promise.reject(err) as Promise<SetRankAnswer>;
				},
			);
		},
	};
}
