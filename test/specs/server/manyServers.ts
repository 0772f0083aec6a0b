import type { StaffOpsConfig } from "../../../src/server/config";
import type { ServerSignals } from "../../../src/server/records";
import { readGameInfo } from "../../../src/server/seams";
import type { StaffOpsServer } from "../../../src/server/server";
import { startServer } from "../../../src/server/starting";
import { Signal } from "../../../src/shared/signal";
import { RequestBudget } from "../../../src/transport/budget";
import { FakeScheduler } from "../../support/fakes";
import { harness, SimulatedServer } from "../../support/harness";
import { waitUntil } from "../../support/waits";

// Several StaffOps servers of one game in one simulation (not a spec): this `game`'s server is `StaffOps.start`'s, as
// in every spec; each other one is a StaffOpsServer of its own on a server of the harness's universe, with that
// server's players and MessagingService as seams, its own clock, signals, remotes folder and JobId.

/** Another StaffOps server of the game, with what its players saw. */
export interface OtherServer {
	readonly sim: SimulatedServer;
	readonly server: StaffOpsServer;
	readonly clock: FakeScheduler;
	readonly signals: ServerSignals;
	/** Where its remotes live (its players' built-in notifications arrive through them). */
	readonly remotes: Folder;
	/** `dashboardKick` as it fired here: "<UserId> <message>". */
	readonly kicks: Array<string>;
	/** `notified` as it fired here: "<UserId> <text>". */
	readonly notes: Array<string>;
}

const running = new Array<OtherServer>();

/** Every signal of a server, new (StaffOps' own are the first server's). */
function freshSignals(): ServerSignals {
	return {
		staffJoined: new Signal(),
		playerReported: new Signal(),
		playerBanned: new Signal(),
		dashboardKick: new Signal(),
		notified: new Signal(),
		shutdownRequested: new Signal(),
		consentRequested: new Signal(),
		statusChanged: new Signal(),
	};
}

/**
 * Starts StaffOps on another server of the universe (`index` makes its JobId and name), against the reference service,
 * and waits until it is registered with the profile decided.
 */
export function startOtherServer(index: number, config: Partial<StaffOpsConfig> = {}): OtherServer {
	const sim = harness.universe.addServer(`server-${index}`);
	const clock = new FakeScheduler();
	const signals = freshSignals();
	const remotes = new Instance("Folder");
	remotes.Name = `StaffOpsRemotes-${index}`;
	const jobId = `00000000-0000-4000-8000-${string.format("%012d", index)}`;
	let made: StaffOpsServer | undefined;
	startServer(
		{
			baseUrl: harness.serviceUrl,
			apiKey: harness.serviceKey,
			budget: new RequestBudget({ perMinute: 100_000, burst: 10_000 }),
			retry: { maxAttempts: 1 },
			timeout: 5,
			clientReportTimeoutSeconds: 0,
			deliverClient: false,
			...config,
		} as StaffOpsConfig,
		signals,
		{
			players: sim.players,
			messaging: sim.messaging,
			scheduler: clock,
			random: () => 0.5,
			gameInfo: () => ({ ...readGameInfo(), jobId }),
			bindToClose: () => undefined,
			isStudio: () => false,
			remotesParent: remotes,
		},
		(server) => (made = server),
	);
	const server = made;
	if (server === undefined) error("the other server did not start", 2);
	waitUntil(() => server.getProfile() !== undefined, `server ${index}'s registration`);
	const other: OtherServer = { sim, server, clock, signals, remotes, kicks: [], notes: [] };
	signals.dashboardKick.Connect((player, message) => other.kicks.push(`${player.UserId} ${message}`));
	signals.notified.Connect((player, text) => other.notes.push(`${player.UserId} ${text}`));
	running.push(other);
	return other;
}

/** A player joins `other` and is reported there. */
export function joinOther(other: OtherServer, userId: number): Player {
	const player = other.sim.add(userId);
	waitUntil(() => other.server.getSession(player) !== undefined, `${userId}'s join on ${other.sim.id}`);
	return player;
}

/** Stops every other server (the afterEach of many-server specs; `harness.reset` then takes them out). */
export function stopOtherServers(): void {
	for (const other of running) {
		other.server.stop();
		other.remotes.Destroy();
	}
	running.clear();
}
