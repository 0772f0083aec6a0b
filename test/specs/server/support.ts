import { StaffOpsApiClient } from "../../../src/api/apiClient";
import { ActivityApi } from "../../../src/api/resources/activity";
import type { CreateServerAnswer, PlayerJoinAnswer, PlayerJoinArgs } from "../../../src/api/resources/activity";
import { StaffOps } from "../../../src/server";
import type { StaffOpsConfig } from "../../../src/server/config";
import type { ServerSeams } from "../../../src/server/seams";
import type { StaffOpsServer } from "../../../src/server/server";
import { ensureRemote } from "../../../src/shared/remotes";
import { RequestBudget } from "../../../src/transport/budget";
import { FakeScheduler } from "../../support/fakes";
import { harness } from "../../support/harness";
import { referenceClient } from "../../support/referenceClient";
import { serviceControl, ServiceProfile } from "../../support/serviceControl";
import { waitUntil } from "../../support/waits";

// Helpers of the game-integration specs (not a spec: TestEZ runs only *.spec modules).

/** A join as the reference service recorded it (`GET /_control/state`). */
export interface RecordedJoin {
	userId: string;
	runningGameId: string;
	platform: string;
	safechat: boolean;
	tzOffset: string;
	username: string;
	banned: boolean;
	at: number;
}

/** A running game as the reference service holds it. */
export interface RecordedGame {
	_id: string;
	internalGameId: string;
	gameId: number;
	placeId: number;
	jobId: string;
	privateServerId: string;
	privateServerOwnerId: number;
	placeVersion: string;
	players: Array<string>;
}

/** A running player as the reference service holds it. */
export interface RecordedPlayer {
	_id: string;
	runningGameId: string;
	userId: string;
	platform: string;
	isStaff: boolean;
}

/** What the reference service recorded for the default workspace (the one `harness.serviceKey` opens). */
export function recorded(): {
	runningGames: Array<RecordedGame>;
	runningPlayers: Array<RecordedPlayer>;
	joins: Array<RecordedJoin>;
} {
	const state = serviceControl.state() as {
		workspaces: Array<{
			groupId: string;
			runningGames: Array<RecordedGame>;
			runningPlayers: Array<RecordedPlayer>;
			joins: Array<RecordedJoin>;
		}>;
	};
	const workspace = state.workspaces.find((candidate) => candidate.groupId === "5012345");
	if (workspace === undefined) error("the default workspace is missing from /_control/state", 2);
	return workspace;
}

/** The joins the service recorded for one user. */
export function joinsOf(userId: number): Array<RecordedJoin> {
	return recorded().joins.filter((join) => join.userId === tostring(userId));
}

/** The requests of `operation` for one user the service received, answered or not (by the body's `playerId`). */
export function requestsFor(operation: "playerJoin" | "playerLeave", userId: number): number {
	return serviceControl
		.requests()
		.requests.filter(
			(request) =>
				request.operation === operation &&
				tostring((request.body as { playerId?: unknown }).playerId) === tostring(userId),
		)
		.size();
}

/** A typed client of the reference service with a roomy budget of its own and one attempt per request. */
export function specClient(): StaffOpsApiClient {
	return referenceClient({ retry: { maxAttempts: 1 } });
}

/**
 * Makes `client`'s registration and join answers what a hostile service might send: each given function rewrites
 * the real answer before the integration sees it.
 */
export function alterAnswers(
	client: StaffOpsApiClient,
	alter: {
		registerServer?: (answer: CreateServerAnswer) => CreateServerAnswer;
		reportJoin?: (answer: PlayerJoinAnswer, args: PlayerJoinArgs) => PlayerJoinAnswer;
	},
): StaffOpsApiClient {
	const activity = client.activity;
	(client as unknown as { activity: ActivityApi }).activity = {
		registerServer(args, options) {
			return activity.registerServer(args, options).andThen((answer) => alter.registerServer?.(answer) ?? answer);
		},
		reportJoin(args, options) {
			return activity.reportJoin(args, options).andThen((answer) => alter.reportJoin?.(answer, args) ?? answer);
		},
		getUserActivity(userId, options) {
			return activity.getUserActivity(userId, options);
		},
	};
	return client;
}

/** The server's facts the harness starts with, restored after specs that change them. */
export const DEFAULT_INFO = {
	JobId: "00000000-0000-4000-8000-000000000001",
	PlaceId: 1818,
	GameId: 1234,
	PlaceVersion: 42,
	PrivateServerId: "",
	PrivateServerOwnerId: 0,
};

/** A started integration with a hand-moved clock. */
export interface Started {
	readonly server: StaffOpsServer;
	readonly clock: FakeScheduler;
	readonly remote: RemoteEvent;
}

/**
 * Starts StaffOps against the reference service with a fake clock (heartbeats, backoff and the client-report wait
 * move only when the spec advances it), one attempt per request and a roomy budget of its own.
 */
export function startStaffOps(config: Partial<StaffOpsConfig> = {}, seams: Partial<ServerSeams> = {}): Started {
	const clock = new FakeScheduler();
	const server = StaffOps.start(
		{
			baseUrl: harness.serviceUrl,
			apiKey: harness.serviceKey,
			budget: new RequestBudget({ perMinute: 100_000, burst: 10_000 }),
			retry: { maxAttempts: 1 },
			timeout: 5,
			...config,
		} as StaffOpsConfig,
		{ scheduler: clock, random: () => 0.5, ...seams },
	);
	if (server === undefined) error("StaffOps.start refused the spec's configuration", 2);
	return { server, clock, remote: ensureRemote("ClientReport") };
}

/** Starts and waits until the service registered the server. */
export function startRegistered(config: Partial<StaffOpsConfig> = {}, seams: Partial<ServerSeams> = {}): Started {
	const started = startStaffOps(config, seams);
	waitUntil(() => started.server.isRegistered(), "registration");
	return started;
}

/**
 * Starts against the reference service's deployed profile (`serviceControl.reset("deployed")` first) and waits until
 * the server decided that profile. Client reports are not waited for unless `config` says so.
 */
export function startDeployed(config: Partial<StaffOpsConfig> = {}, seams: Partial<ServerSeams> = {}): Started {
	const started = startRegistered({ clientReportTimeoutSeconds: 0, ...config }, seams);
	// The profile is decided from the registration's answer, just after the server counts as registered.
	waitUntil(() => started.server.getProfile() !== undefined, "the service's profile");
	// A helper outside the spec body has no `expect`: a wrong profile fails the spec's setup instead.
	const profile = started.server.getProfile();
	if (profile !== "deployed") error(`the service was decided to be ${tostring(profile)}, not deployed`, 2);
	return started;
}

/**
 * Waits until the server has handled `count` failures of `kind`: their retries (or the next heartbeat) are on the
 * fake clock by then, so a spec can advance it without racing the answer.
 */
export function waitForFailures(
	server: StaffOpsServer,
	kind: "register" | "joins" | "heartbeats",
	count: number,
): void {
	const handled = () => {
		const { joins, presence } = server.diagnostics();
		return { ...joins.failures, heartbeats: presence.heartbeatFailures }[kind];
	};
	waitUntil(() => handled() >= count, `${count} handled ${kind} failure(s)`);
}

/** Syncs whose answer (or failure) the server has handled. */
export function syncsHandled(started: Started): number {
	const counts = started.server.diagnostics().presence.sync;
	return counts.sent + counts.failures;
}

/** Moves the clock `seconds` on (a sync interval) and waits for that sync's answer. */
export function syncAfter(started: Started, seconds: number): void {
	const before = syncsHandled(started);
	started.clock.advance(seconds);
	waitUntil(() => syncsHandled(started) > before, "the sync's answer");
}

/** Adds a player and lets PlayerAdded reach the integration. */
export function join(userId: number, name?: string): Player {
	const player = harness.players.add(userId, name);
	task.wait();
	return player;
}

/** The player's client sends a report through the real remote. */
export function report(started: Started, player: Player, payload: unknown): void {
	harness.players.client(player).fire(started.remote, payload);
}

/** Warnings printed since the output was last cleared. */
export function warnings(): Array<string> {
	return harness
		.output()
		.filter((line) => line.kind === "warn")
		.map((line) => line.text);
}

/** Every printed and warned line since the output was last cleared. */
export function allOutput(): Array<string> {
	return harness.output().map((line) => line.text);
}

/** Lines containing `text` (plain match). */
export function linesWith(lines: Array<string>, text: string): Array<string> {
	return lines.filter((line) => line.find(text, 1, true)[0] !== undefined);
}

/**
 * Every integration spec's `beforeEach`: the reference service back to its seeded state (`profile`, the default
 * one unless given) and the recorded output cleared. `cleanUp` is the matching `afterEach`.
 */
export function freshStart(profile?: ServiceProfile): void {
	serviceControl.reset(profile);
	harness.clearOutput();
}

/** Puts StaffOps, the fakes and the server facts back between specs. */
export function cleanUp(): void {
	StaffOps.stop();
	harness.reset();
	harness.server.setInfo(DEFAULT_INFO);
	serviceControl.clearFaults();
}
