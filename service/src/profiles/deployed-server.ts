import { type CreateServerInput, createServer } from "../resources/activity.js";
import { pingServer } from "../resources/running-games.js";
import { ServiceError } from "../service-error.js";
import { isoAt } from "../time.js";
import type { WorkspaceState } from "../workspace-state.js";
import { fieldsOf, findRunningGame } from "./deployed-ids.js";
import { deleteServer } from "./deployed-presence.js";

/**
 * The workspace as the deployed service sends it: `owner` and `premium.managedBy` under other field names than
 * the interface's, and `loaderId` echoing the full API key. Reproduced on purpose: the library must mask it
 * before anything reaches a log.
 */
export function deployedWorkspaceView(ws: WorkspaceState) {
	const { owner, premium, ...rest } = structuredClone(ws.profile);
	return {
		...rest,
		owner: { id: owner.serviceId, platform: owner.platformId },
		premium: {
			is: premium.is,
			subscriptionId: premium.subscriptionId,
			planType: premium.planType,
			managedBy: { platform: premium.managedBy.platformId, customer: premium.managedBy.customerId },
		},
		loaderId: ws.key,
	};
}

/**
 * Studio's empty `jobId` is refused (400); otherwise a registration like the default profile's, answered with
 * the deployed workspace and extra top-level fields: `serverName`, `created` and the in-game settings
 * (`moderation`, `afkReportingSettings`, `privacy`).
 */
export function deployedCreateServer(ws: WorkspaceState, input: CreateServerInput, now: number) {
	if (input.jobId === "") throw new ServiceError(400, "jobId should not be empty");
	const { gameId, runningGameId } = createServer(ws, input, now);
	return {
		gameId,
		runningGameId,
		workspace: deployedWorkspaceView(ws),
		serverName: `${ws.profile.groupName} #${input.jobId.slice(0, 8)}`,
		created: isoAt(now),
		...structuredClone(ws.inGame),
	};
}

/** `POST /activity/getServer`: the caller's workspace, found through its running game (a presence). */
export function getServer(ws: WorkspaceState, body: unknown, now: number) {
	const server = findRunningGame(ws, fieldsOf(body).gameId);
	pingServer(ws, server, now);
	return { workspace: deployedWorkspaceView(ws) };
}

/**
 * `DELETE /activity/endServer`: the server shuts down and is removed as silence would remove it: non-staff
 * sessions still in game are deleted, staff sessions end now. Its live calls stay open for ever.
 */
export function endServer(ws: WorkspaceState, body: unknown, now: number): Record<string, never> {
	const server = findRunningGame(ws, fieldsOf(body).gameId);
	pingServer(ws, server, now);
	deleteServer(ws, server.game.internalGameId, "endServer", now);
	return {};
}
