// The kick message for banned players: a template with {reason}, or a function of the reason.
import type { Rule } from "../../../api/arguments";
import { characterCount } from "../../../shared/textLength";

/** The default kick message template (the `kickMessage` setting's declared default). @internal */
export const DEFAULT_KICK_MESSAGE = "You are banned from this experience: {reason}";

/** A template of at most 400 characters, or a function of the reason. @internal */
export const kickMessageRule: Rule = [
	(value) => typeIs(value, "function") || (typeIs(value, "string") && characterCount(value) <= 400),
	"a string of at most 400 characters (with {reason}) or a function of the reason",
];

function templateMessage(template: string): (reason: string) => string {
	return (reason) => {
		const [text] = template.gsub("{reason}", () => reason);
		return text;
	};
}

/** The kick message as the joins use it: the function given, else the template given (not empty) or the default. @internal */
export function resolveKickMessage(given: unknown): (reason: string) => string {
	const kickMessage = given as string | ((reason: string) => string) | undefined;
	return typeIs(kickMessage, "function")
		? kickMessage
		: templateMessage(kickMessage !== undefined && kickMessage !== "" ? kickMessage : DEFAULT_KICK_MESSAGE);
}
