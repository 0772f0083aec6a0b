import type { CallOptions } from "../callOptions";
import { bool, list, object, opt, Reader, req, str, succeeded } from "../reader";
import { Call, route } from "../routeSpec";

// Teams: `client.teams`. The teams a user belongs to.
// Readers are tolerant (`reader.ts`): what identifies a resource or what the library itself needs is required,
// everything else optional; each answer reader is declared against its answer type, so the compiler checks the two agree.

// ---- Resources ----

/**
 * A team a user belongs to, with the user's role on it.
 * @see README#typed-client
 */
export interface TeamMembership {
	readonly teamId: string;
	readonly teamName?: string;
	readonly roleId?: string;
	readonly roleName?: string;
	readonly isLead?: boolean;
	readonly created?: string;
}

// ---- Answers ----

/** Answer of `client.teams.forUser`. @see README#typed-client */
export interface UserTeamsAnswer {
	readonly success: true;
	readonly teams: ReadonlyArray<TeamMembership>;
}

const teamMembership: Reader<TeamMembership> = object({
	teamId: req(str),
	teamName: opt(str),
	roleId: opt(str),
	roleName: opt(str),
	isLead: opt(bool),
	created: opt(str),
});

// ---- Routes ----

/** The routes of teams. @internal */
export const teamsRoutes = {
	getUserTeams: route({
		method: "GET",
		path: "/teams/users/{userId}",
		safeToRepeat: true,
		answer: object({ success: succeeded, teams: list(teamMembership) }) satisfies Reader<UserTeamsAnswer>,
	}),
};

// ---- Namespace ----

/**
 * Teams: `client.teams`.
 * @see README#typed-client
 */
export interface TeamsApi {
	/** Lists the teams a user belongs to and their role on each (`GET /teams/users/{userId}`). */
	forUser(userId: string, options?: CallOptions): Promise<UserTeamsAnswer>;
}

/** Builds `client.teams` on the api client's call. @internal */
export function teamsApi(call: Call<keyof typeof teamsRoutes>): TeamsApi {
	return {
		forUser(userId, options) {
			return call("getUserTeams", options, [userId]);
		},
	};
}
