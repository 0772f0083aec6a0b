import { boolRule, positiveIdRule, serviceIdRule } from "../arguments";
import type { ArgSpec } from "../arguments";
import { literal, object, Reader, req } from "../reader";

// The deployed service's consent route (docs/service-contract.md, privacy): `POST /activity/consent {gameId, playerId,
// granted}`. A join answered `needsConsent: true` asks the game for the player's decision; without a grant the visit's
// records are deleted when the player leaves. The route itself is declared with the other extensions (`deployed.ts`).

/**
 * Arguments of `client.extensions.recordConsent`.
 * @see README#deployed-service-extensions
 */
export interface ConsentArgs {
	/** The `runningGameId` of the registration the player's join was answered under. */
	readonly runningGameId: string;
	/** The player's `UserId`. */
	readonly userId: number;
	/** The player's decision. */
	readonly granted: boolean;
}

/**
 * Answer of `client.extensions.recordConsent`.
 * @see README#deployed-service-extensions
 */
export interface ConsentAnswer {
	readonly success: true;
}

/** The rules of the wire body. @internal */
export const consentArgSpec: ArgSpec = {
	required: { gameId: serviceIdRule, playerId: positiveIdRule, granted: boolRule },
};

/** The answer's reader: only `success` is needed. @internal */
export const consentAnswer: Reader<ConsentAnswer> = object({ success: req(literal(true)) });

/**
 * The wire body of a consent decision, as the route reads it. Fields that are not what they should be are passed
 * through unchanged, so the argument check names them. @internal
 */
export function consentBody(args: ConsentArgs): { gameId: unknown; playerId: unknown; granted: unknown } {
	const given = (typeIs(args, "table") ? args : {}) as Partial<ConsentArgs>;
	return { gameId: given.runningGameId, playerId: given.userId, granted: given.granted };
}
