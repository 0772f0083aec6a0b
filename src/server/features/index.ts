import { ClientReportFeature } from "./clientReport";
import { ConsentFeature } from "./consent";
import type { ServerContext } from "./context";
import { DashboardActionsFeature } from "./dashboardActions";
import { JoinsFeature } from "./joins";
import { PresenceFeature } from "./presence";
import { SessionsFeature } from "./sessions";
import { StaffActivityFeature } from "./staffActivity";
import { StaffHintFeature } from "./staffHint";
import { SupportCallsFeature } from "./supportCalls";

/** Every feature of a running server, by the name its declaration gives. @internal */
export interface ServerFeatures {
	readonly staffHint: StaffHintFeature;
	readonly sessions: SessionsFeature;
	readonly dashboardActions: DashboardActionsFeature;
	readonly joins: JoinsFeature;
	readonly presence: PresenceFeature;
	readonly clientReport: ClientReportFeature;
	readonly consent: ConsentFeature;
	readonly staffActivity: StaffActivityFeature;
	readonly supportCalls: SupportCallsFeature;
}

/** Each feature's diagnostics record, by feature name. @internal */
export type ServerDiagnostics = { readonly [K in keyof ServerFeatures]: ReturnType<ServerFeatures[K]["diagnostics"]> };

/**
 * Builds the features, each handed the ones it uses (so each is built after them): the one place that says which
 * feature leans on which.
 * @internal
 */
export function buildFeatures(ctx: ServerContext): ServerFeatures {
	const staffHint = new StaffHintFeature(ctx);
	const sessions = new SessionsFeature(ctx);
	const dashboardActions = new DashboardActionsFeature(ctx);
	const joins = new JoinsFeature(ctx, sessions, staffHint);
	const presence = new PresenceFeature(ctx, joins, sessions, dashboardActions);
	return {
		staffHint,
		sessions,
		dashboardActions,
		joins,
		presence,
		clientReport: new ClientReportFeature(ctx, joins),
		consent: new ConsentFeature(ctx, joins),
		staffActivity: new StaffActivityFeature(ctx, joins, presence),
		supportCalls: new SupportCallsFeature(ctx, joins, sessions, presence),
	};
}

/** A list in reverse order (roblox-ts arrays have no `reverse`). @internal */
export function reversed<T extends defined>(list: ReadonlyArray<T>): Array<T> {
	const result = new Array<T>();
	for (let i = list.size() - 1; i >= 0; i--) result.push(list[i]);
	return result;
}
