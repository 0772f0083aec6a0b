import { boolRule, positiveIdRule, serviceIdRule } from "../arguments";
import type { ArgSpec } from "../arguments";
import type { CallOptions } from "../callOptions";
import { literal, object, Reader, req } from "../reader";
import { Call, route } from "../routeSpec";

// The deployed service's consent route (docs/service-contract.md, privacy): `POST /activity/consent {gameId, playerId,
// granted}`, and its method `client.extensions.recordConsent`. A join answered `needsConsent: true` asks the game for
// the player's decision; without a grant the visit's records are deleted when the player leaves.

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

/** The rules of the wire body. */
const consentArgSpec: ArgSpec = {
	required: { gameId: serviceIdRule, playerId: positiveIdRule, granted: boolRule },
};

/** The answer's reader: only `success` is needed. */
const consentAnswer: Reader<ConsentAnswer> = object({ success: req(literal(true)) });

/**
 * The wire body of a consent decision, as the route reads it. Fields that are not what they should be are passed
 * through unchanged, so the argument check names them.
 */
function consentBody(args: ConsentArgs): { gameId: unknown; playerId: unknown; granted: unknown } {
	const given = (typeIs(args, "table") ? args : {}) as Partial<ConsentArgs>;
	return { gameId: given.runningGameId, playerId: given.userId, granted: given.granted };
}

/** The consent route. Not repeated after an unknown outcome: the service stores every decision it gets. @internal */
export const consentRoutes = {
	consent: route({
		method: "POST",
		path: "/activity/consent",
		safeToRepeat: false,
		args: consentArgSpec,
		answer: consentAnswer,
	}),
};

/** The consent method of `client.extensions`. @see README#deployed-service-extensions */
export interface ConsentMethods {
	/** Records a player's answer to the consent prompt (`POST /activity/consent`); sent once, never repeated blindly. */
	recordConsent(args: ConsentArgs, options?: CallOptions): Promise<ConsentAnswer>;
}

/** Builds the consent method over the client's one `call`. @internal */
export function consentMethods(call: Call<keyof typeof consentRoutes>): ConsentMethods {
	return {
		recordConsent(args, options) {
			return call("consent", options, [], consentBody(args));
		},
	};
}
