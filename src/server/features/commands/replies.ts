// What the built-ins say back: who a target is, and an outside text (the website's words) filtered for the staff member.
import { StaffOpsError } from "../../../transport/staffOpsError";
import type { BuiltInSeams } from "./builtins";

/** A player as results name them: `Display (@name)`. @internal */
export const who = (target: Player) => `${target.DisplayName} (@${target.Name})`;

/** A service's reason shown to `staff`, filtered for them, or `fallback` when there is none or it cannot be. @internal */
export function shown(seams: Pick<BuiltInSeams, "filterFor">, err: unknown, staff: Player, fallback: string): string {
	if (StaffOpsError.is(err) && err.kind === "service" && err.reason !== "") {
		return seams.filterFor(err.reason, staff) ?? fallback;
	}
	return fallback;
}
