import { activityRoutes } from "./resources/activity";
import { callsRoutes } from "./resources/calls";
import { commandsRoutes } from "./resources/commands";
import { consentRoutes } from "./resources/consent";
import { deployedRoutes } from "./resources/deployed";
import { gamesRoutes } from "./resources/games";
import { historyRoutes } from "./resources/history";
import { ordersRoutes } from "./resources/orders";
import { rankingRoutes } from "./resources/ranking";
import { supportCallsRoutes } from "./resources/supportCalls";
import { syncRoutes } from "./resources/sync";
import { teamsRoutes } from "./resources/teams";
import { timeOffRoutes } from "./resources/timeOff";
import type { RouteSpec } from "./routeSpec";

// The route table: every operation the api client knows, gathered from the resource modules.
//
// To add a route:
// 1. In its resource module (`resources/<resource>.ts`; a deployed-only one is shaped the same, see `deployed.ts`):
//    the argument and answer types, the argument spec, the answer reader (`satisfies Reader<TheAnswer>`), one
//    `route(...)` entry in the module's routes, and the method in its namespace interface and factory. A new module
//    also adds its routes to `OPERATIONS` below and its factory to `apiClient.ts`.
// 2. Here: its id in `OperationId` (the interface document's routes) or `ExtensionId` (the deployed service's).
// The compiler then holds the rest together: a route without an id here, or an id without a route, does not build.
// A background operation of the game integration or the bridge also gets a row in `FAILURE_POLICY`.

/**
 * The ids of the twelve operations of the interface; errors carry them in `operation`.
 * @see README#typed-client
 */
export type OperationId =
	| "recordHistory"
	| "listHistory"
	| "createServer"
	| "playerJoin"
	| "getActivity"
	| "getRunningGame"
	| "createOrder"
	| "releaseOrder"
	| "listTimeOff"
	| "getTimeOff"
	| "getCallMessages"
	| "getUserTeams";

/**
 * Operations the deployed service has beyond the interface (docs/service-contract.md#routes-beyond-the-interface): ending a player's session, ending the
 * server, and reading the workspace by running game id. Errors carry these ids too.
 * @see README#deployed-service-extensions
 */
export type ExtensionId =
	| "playerLeave"
	| "endServer"
	| "getServer"
	| "sendData"
	| "consent"
	| "supportCreate"
	| "supportEnd"
	| "listCalls"
	| "registerCommands"
	| "commandPermissions"
	| "createBan"
	| "deleteBan"
	| "verifyLink"
	| "setRank";

/** Every operation the api client knows. @internal */
export type AnyOperationId = OperationId | ExtensionId;

/** The twelve operations of the interface and the deployed service's extensions. @internal */
export const OPERATIONS: { readonly [K in AnyOperationId]: RouteSpec } = {
	...historyRoutes,
	...activityRoutes,
	...gamesRoutes,
	...ordersRoutes,
	...timeOffRoutes,
	...callsRoutes,
	...teamsRoutes,
	...deployedRoutes,
	...syncRoutes,
	...consentRoutes,
	...supportCallsRoutes,
	...commandsRoutes,
	...rankingRoutes,
};
