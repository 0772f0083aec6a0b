// The sessions feature: each leave reported, and the server ended at the close (deployed service routes).
import { SessionEnder } from "../sessions";
import type { ServerContext } from "./context";
import type { Feature, FeatureDeclaration } from "./feature";

/** Sessions: each leave reported, and the server ended at the close (the deployed service's routes). @internal */
export const SESSIONS: FeatureDeclaration = {
	name: "sessions",
	settings: [
		{
			field: "sessions.reportLeaves",
			attribute: "ReportLeaves",
			modelDefault: true,
			profile: "deployed",
			luau: "SessionsOptions?",
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
