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
import { advanceInSteps, waitSeconds, waitUntil } from "../../support/waits";

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

/** Players `userIds` join, each client reports a desktop at +01:00, and the service answers every join. */
export function joinAnswered(started: Started, userIds: Array<number>): Array<Player> {
	const players = userIds.map((userId) => join(userId));
	for (const player of players) report(started, player, { platform: "Desktop", tzOffset: "+01:00" });
	waitUntil(() => players.every((player) => StaffOps.getSession(player) !== undefined), "the joins");
	return players;
}

/**
 * When each leave goes out again while its route answers 405 or 404, in seconds after the first: one leave at a time
 * at the backoff (t = 0, 5, 10, 15, 25, 45, 75 s, when the route is confirmed missing), then one probe a minute.
 */
export const LEAVE_TRIES_AT = [5, 10, 15, 25, 45, 75, 135];

/** How many leave tries are due `now` seconds after the first (the first included). */
export function leaveTriesDue(now: number): number {
	return 1 + LEAVE_TRIES_AT.filter((at) => at <= now).size();
}

/**
 * Players `userIds` (two) join and leave while the leave route is missing (405 or 404): the first leave goes out before
 * the second player leaves, then the clock runs 30 steps of 5 s, each waiting until the `counted` requests reached
 * the tries due by then (`leaveTriesDue`): each answer schedules the next try, so it must land before the clock moves
 * again. On a 405 the leave itself is counted; on a 404 the read of the running game that tells what it meant.
 */
export function leavesOnMissingRoute(
	started: Started,
	userIds: Array<number>,
	counted: "playerLeave" | "getRunningGame",
): void {
	const players = joinAnswered(started, userIds);
	harness.players.remove(players[0]);
	waitUntil(() => serviceControl.count("playerLeave") === 1, "the first leave");
	harness.players.remove(players[1]);
	advanceInSteps(
		started.clock,
		30,
		5,
		(_, now) => serviceControl.count(counted) >= leaveTriesDue(now),
		`the leaves' ${counted} requests`,
	);
}

/**
 * Runs `beats` heartbeats `seconds` apart, each landed before the clock moves again: a beat ends with a read of the
 * running game whose answer schedules the next beat (a fixed pause lost beats on a busy machine).
 */
export function heartbeatsLanded(started: Started, beats: number, seconds: number, settleSeconds?: number): void {
	advanceInSteps(
		started.clock,
		beats,
		seconds,
		(beat) => serviceControl.count("getRunningGame") >= beat,
		"the beat's read",
		settleSeconds,
	);
}

/** Players in the server whose joins the service answered (their clients send no report: give a short report timeout). */
export function present(userIds: Array<number>): Array<Player> {
	const players = userIds.map((userId) => join(userId, `Player${userId}`));
	waitUntil(() => players.every((player) => StaffOps.getSession(player) !== undefined), "the joins", 30);
	return players;
}

/** Syncs whose answer (or failure) the library has handled. */
export function syncsHandled(started: Started): number {
	const counts = started.server.diagnostics().presence.sync;
	return counts.sent + counts.failures;
}

/** Moves the fake clock by `seconds` and waits until the library handled one more sync than before. */
export function syncAfter(started: Started, seconds: number): void {
	const before = syncsHandled(started);
	started.clock.advance(seconds);
	waitUntil(() => syncsHandled(started) > before, "the sync's answer");
}

/**
 * Moves the fake clock half a second at a time until the next sync was handled (a backoff of unknown length, or the
 * next interval), at most `limit` seconds of the spec's clock.
 */
export function nextSync(started: Started, limit = 120): void {
	const before = syncsHandled(started);
	for (let waited = 0; waited < limit && syncsHandled(started) === before; waited += 0.5) {
		started.clock.advance(0.5);
		waitSeconds(0.02);
	}
	waitUntil(() => syncsHandled(started) > before, "the next sync's answer");
}

/**
 * Lets the waiting session events drain at the syncs' pace (the fake clock 2 s a step), bounded in real time rather
 * than in steps: each sync's answer takes as long as the machine needs.
 */
export function drainEvents(started: Started): void {
	const draining = os.clock();
	while (started.server.features.presence.events.size() > 0) {
		if (os.clock() - draining > 60) error("timed out after 60 s waiting for the queue to drain", 2);
		started.clock.advance(2);
		waitSeconds(0.02);
	}
	waitSeconds(0.2);
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
