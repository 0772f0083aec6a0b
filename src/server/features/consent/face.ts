// What consent shows game code: the question's signal and the answer from game code's own prompt.
import { logWarn } from "../../../background/log";
import { Signal } from "../../../shared/signal";
import type { FeatureFace } from "../../face";

/** Consent's signal in `StaffOps`. */
export interface ConsentSignals {
	/**
	 * Fires once per visit when the service asks for a player's consent (the join answer's `needsConsent`, deployed
	 * service in its consent mode). The built-in prompt shows unless `consentPrompt` is false; a game that draws its
	 * own prompt answers with {@link StaffOps.answerConsent}. Nothing waits for the answer: the player plays on.
	 *
	 * @example
	 * ```ts
	 * StaffOps.consentRequested.Connect((player) => myConsentDialog.open(player));
	 * ```
	 * @see README#consent
	 */
	readonly consentRequested: Signal<[player: Player]>;
}

/** Consent's function in `StaffOps`. */
export interface ConsentFunctions {
	/**
	 * Records `player`'s answer to the consent question ({@link StaffOps.consentRequested}), from game code's own
	 * prompt; the built-in prompt closes. Sent to the service once. Returns false (with a warning) when no question is
	 * open for that player: never asked, already answered, left, or StaffOps not running.
	 *
	 * @example
	 * ```ts
	 * myConsentDialog.answered.Connect((player, granted) => StaffOps.answerConsent(player, granted));
	 * ```
	 * @see README#consent
	 */
	readonly answerConsent: (player: Player, granted: boolean) => boolean;
}

/** What consent's function needs of the running feature. @internal */
export interface ConsentAnswers {
	answer(player: Player, granted: boolean): boolean;
}

/** Consent's part of `StaffOps`. (In the package's declarations for the entry's type; not an API.) */
export const CONSENT_FACE: FeatureFace<ConsentSignals, ConsentFunctions, ConsentAnswers> = {
	signals: { consentRequested: new Signal<[player: Player]>() },
	functions: (running) => ({
		answerConsent: (player, granted) => {
			const accepted = running()?.answer(player, granted) ?? false;
			if (!accepted) logWarn(`answerConsent: no consent prompt is open for ${player.Name}; nothing was sent`);
			return accepted;
		},
	}),
};
