// What the built-ins need from the integration, and what they say back: who a target is, and an outside text (the
// website's words) filtered for the staff member.
import type { StaffOpsApiClient } from "../../../api/apiClient";
import type { GroupRolesReader } from "../../../roblox/groupRank";
import { StaffOpsError } from "../../../transport/staffOpsError";

/** What the built-ins need from the integration. @internal */
export interface BuiltInSeams {
	readonly client: StaffOpsApiClient;
	readonly runningGameId: () => string | undefined;
	/** Text for `recipient`, filtered for them; undefined when the filter failed (show a fixed text instead). */
	readonly filterFor: (text: string, recipient: Player) => string | undefined;
	/** The game gave the workspace's ranking key: `/rank` is built in. */
	readonly ranking: boolean;
	/** The workspace's Roblox group (the registration's), for `/rank` by role name; undefined before it is known. */
	readonly groupId: () => number | undefined;
	/** Every role of a group; yields, may throw. */
	readonly groupRoles: GroupRolesReader;
}

/** A player as results name them: `Display (@name)`. @internal */
export const who = (target: Player) => `${target.DisplayName} (@${target.Name})`;

/** A service's reason shown to `staff`, filtered for them, or `fallback` when there is none or it cannot be. @internal */
export function shown(seams: Pick<BuiltInSeams, "filterFor">, err: unknown, staff: Player, fallback: string): string {
	if (StaffOpsError.is(err) && err.kind === "service" && err.reason !== "") {
		return seams.filterFor(err.reason, staff) ?? fallback;
	}
	return fallback;
}
