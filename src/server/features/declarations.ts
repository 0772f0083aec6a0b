import { CLIENT_REPORT } from "./clientReport";
import { CONSENT } from "./consent";
import { DASHBOARD_ACTIONS } from "./dashboardActions";
import type { FeatureDeclaration, SettingDeclaration } from "./feature";
import { JOINS } from "./joins";
import { PRESENCE } from "./presence";
import { SERVICE } from "./service";
import { SESSIONS } from "./sessions";
import { STAFF_ACTIVITY } from "./staffActivity";
import { STAFF_HINT } from "./staffHint";
import { SUPPORT_CALLS } from "./supportCalls";

/** Every feature's declaration, the service's connection first. @internal */
export const DECLARATIONS: ReadonlyArray<FeatureDeclaration> = [
	SERVICE,
	JOINS,
	CLIENT_REPORT,
	STAFF_HINT,
	PRESENCE,
	SESSIONS,
	DASHBOARD_ACTIONS,
	CONSENT,
	STAFF_ACTIVITY,
	SUPPORT_CALLS,
];

/** Every declared setting by its field (`sessions.reportLeaves` for a nested one). @internal */
export const SETTINGS = new Map<string, SettingDeclaration>();
for (const declaration of DECLARATIONS)
	for (const setting of declaration.settings) SETTINGS.set(setting.field, setting);

/** The declared default of a setting; an error when it declares none (a mistake in this library, not the game's). @internal */
export function declaredDefault<T extends string | number | boolean>(field: string): T {
	const value = SETTINGS.get(field)?.default;
	if (value === undefined) error(`StaffOps declares no default for ${field}`);
	return value as T;
}
