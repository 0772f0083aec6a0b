// The sessions feature: each leave reported, and the server ended at the close (deployed service routes).
import { flagsRule } from "../../settingRules";
import type { SessionsOptions } from "./sessions";
import { SessionEnder } from "./sessions";
import type { ClosingPart } from "../../closeWatch";
import type { ServerContext } from "../../context";
import type { Feature, FeatureDeclaration } from "../../feature";

/**
 * The sessions' settings in `StaffOpsConfig`.
 */
export interface SessionsConfig {
	/**
	 * Ending sessions on a service with the deployed service's extension routes. Default: both off, except with the
	 * deployed profile, where both are on unless set to false.
	 */
	readonly sessions?: SessionsOptions;
}

// Its settings join `StaffOpsConfig` (and their resolved types `StaffOpsSettings`): the core names no feature.
declare module "../../config" {
	interface StaffOpsBaseConfig extends SessionsConfig {}
	interface ResolvedSettings {
		readonly sessions: SessionsOptions;
	}
}

/** Sessions: each leave reported, and the server ended at the close (the deployed service's routes). (In the package's declarations for the config type; not an API.) */
export const SESSIONS: FeatureDeclaration<SessionsConfig, "sessions"> = {
	name: "sessions",
	settings: [
		{
			field: "sessions.reportLeaves",
			attribute: "ReportLeaves",
			modelDefault: true,
			profile: "deployed",
			luau: "SessionsOptions?",
			check: flagsRule(["reportLeaves", "endServer"]),
			// Resolved as a table, `{}` when left out: each field then falls to its profile.
			resolve: (given) => given ?? {},
		},
		{ field: "sessions.endServer", attribute: "EndServer", modelDefault: true, profile: "deployed" },
	],
	remotes: [],
	clientParts: [],
};

/** What specs and monitoring read of the sessions. @internal */
export interface SessionsDiagnostics {
	/** Leaves waiting to be sent. */
	readonly leaves: number;
}

/** The sessions feature: the leave queue and the server's end. @internal */
export class SessionsFeature implements Feature {
	readonly declaration = SESSIONS;
	readonly ender: SessionEnder;
	/** At the close: the leaves queued are sent with the joins; the server's end keeps its share of the deadline. */
	readonly atClose: ClosingPart = {
		hasQueued: () => this.ender.pending() > 0,
		endsServer: () => this.ender.endsServer(),
		endServer: () => this.ender.endServer(),
		unsent: () => ({ unsentLeaves: this.ender.pending() }),
	};

	constructor(private readonly ctx: ServerContext) {
		this.ender = new SessionEnder({
			client: ctx.client,
			scheduler: ctx.scheduler,
			random: ctx.random,
			health: ctx.health,
			options: ctx.config.sessions,
			registration: ctx.registered,
			guard: ctx.guard,
		});
	}

	registered(): void {
		// The deployed service turns leaves and the server's end on, unless set to false.
		if (this.ctx.profile === "deployed") this.ender.deployedDefaults();
	}

	stop(): void {
		this.ender.stop();
	}

	diagnostics(): SessionsDiagnostics {
		return { leaves: this.ender.pending() };
	}
}
