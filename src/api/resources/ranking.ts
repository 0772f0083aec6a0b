import { isFiniteNumber, positiveIdRule } from "../arguments";
import type { CallOptions } from "../callOptions";
import type { Reader } from "../reader";
import { Call, route } from "../routeSpec";
import { StaffOpsError } from "../../transport/staffOpsError";

// The deployed service's ranking route (docs/service-contract.md#admin-chat-commands): sets a user's role in the
// workspace's group. It takes the workspace's separate ranking key in an `api-key` header, never the API key; part of
// `client.commands`.

/** The longest rank sent (a Roblox group role's name is at most 100 characters). @internal */
export const MAX_RANK = 100;

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
	 * Sets the user's role to `rank` (`PUT /ranking/users/{userId}/role/{rank}`, the rank percent-encoded) with the
	 * ranking key (`rankingKey` of the client's configuration; without one this rejects with kind `invalid`, nothing
	 * sent). Safe to repeat: setting the same role twice has the same result. A refusal (`success: false`, or a 4xx
	 * such as 401 for a wrong ranking key) rejects with the service's words, with both keys redacted.
	 */
	setRank(userId: number, rank: string, options?: CallOptions): Promise<SetRankAnswer>;
}

/**
 * The ranking route. Safe to repeat: it sets a role, so a second request after an unknown outcome (a timeout, a
 * dropped connection, a 5xx) leaves the same role as the first. The answer is read tolerantly: any JSON, or none.
 * @internal
 */
export const rankingRoutes = {
	setRank: route({
		method: "PUT",
		path: "/ranking/users/{userId}/role/{rank}",
		safeToRepeat: true,
		priority: "high",
		hasBody: false,
		credential: "rankingKey",
		answer: { read: () => undefined } satisfies Reader<unknown>,
	}),
};

/** What is wrong with a rank, or undefined: 1 to {@link MAX_RANK} characters, no control characters. @internal */
export function rankProblem(rank: unknown): string | undefined {
	if (!typeIs(rank, "string") || rank.size() === 0) return "`rank` must be a non-empty string";
	if (rank.size() > MAX_RANK) return `\`rank\` must be at most ${MAX_RANK} characters`;
	if (rank.find("%c")[0] !== undefined) return "`rank` must not hold control characters";
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
