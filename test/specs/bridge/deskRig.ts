import { CallBridge } from "../../../src/bridge/callBridge";
import { SupportDesk } from "../../../src/bridge/supportDesk";
import { StaffOpsApiClient } from "../../../src/api/apiClient";
import { FakeScheduler } from "../../support/fakes";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { registerSpecServer } from "../../support/referenceClient";
import { liveClient } from "./support";
import { waitUntil } from "../../support/waits";
import { deskControl } from "../../support/deskControl";

// A SupportDesk against the reference service's deployed profile, driven by hand-run syncs (not a spec: TestEZ runs
// only *.spec modules). Shared by the desk's specs.

/** A desk, its bridge and remotes, one registered server, and the stand-in driver of the sync's two hooks. */
export interface DeskRig {
	readonly desk: SupportDesk;
	readonly bridge: CallBridge;
	readonly client: StaffOpsApiClient;
	readonly chatRemote: RemoteEvent;
	readonly deskRemote: RemoteEvent;
	readonly runningGameId: string;
	/** One sync as the deployed profile's sendData sync runs it (the stand-in driver of the two hooks). */
	readonly sync: () => void;
	readonly fast: Array<boolean>;
	/** The desk's and the bridge's clock (rate limits, checks): moved only by hand. */
	readonly clock: FakeScheduler;
}

/**
 * Resets the service to its deployed profile, registers a server and builds a desk for it (the specs' `beforeEach`).
 * The captured output is cleared first: each spec counts its own warnings, never one an earlier spec's desk gave.
 */
export function deskRig(): DeskRig {
	harness.clearOutput();
	serviceControl.reset("deployed");
	const client = liveClient();
	const runningGameId = registerSpecServer(client, "job-desk");
	const clock = new FakeScheduler();
	const chatRemote = new Instance("RemoteEvent");
	chatRemote.Name = "CallEventsUnderTest";
	const deskRemote = new Instance("RemoteEvent");
	deskRemote.Name = "SupportRequestsUnderTest";
	const bridge = new CallBridge({ client, scheduler: clock, random: () => 0.5, remote: chatRemote });
	const fast = new Array<boolean>();
	const desk = new SupportDesk({
		client,
		bridge,
		runningGameId: () => runningGameId,
		scheduler: clock,
		remote: deskRemote,
		setFast: (on) => fast.push(on),
	});
	desk.setAvailable(true);
	const sync = () => {
		const chatEvents = desk.outbox.take();
		const [sent, answer] = client
			.request({
				method: "POST",
				path: "/activity/sendData",
				body: { gameId: runningGameId, events: [], chatEvents },
				safeToRepeat: false,
			})
			.await();
		if (sent) {
			desk.outbox.settled("sent");
			desk.handleOngoingChats((answer as { ongoingChats: Array<unknown> }).ongoingChats ?? []);
		} else {
			const err = answer as { mayHaveActed?: boolean };
			desk.outbox.settled(err.mayHaveActed === true ? "unknown" : "failed");
		}
		waitUntil(() => bridge.getStats().busy === 0, "deliveries", 5);
	};
	return { desk, bridge, client, chatRemote, deskRemote, runningGameId, sync, fast, clock };
}

/** A player's client fires the desk's remote; a moment lets the server handle it. */
export function fireDesk(rig: DeskRig, player: Player, ...args: Array<unknown>): void {
	harness.players.client(player).fire(rig.deskRemote, ...args);
	task.wait(0.05);
}

/** The texts of the `result` events a player's client received from the desk. */
export function resultsOf(rig: DeskRig, player: Player): Array<string> {
	return harness.players
		.client(player)
		.received(rig.deskRemote)
		.filter((entry) => entry[0] === "result")
		.map((entry) => (entry[1] as { text: string }).text);
}

/** The `chat` events a player's client received from the desk (one per call window opened). */
export function chatsOf(rig: DeskRig, player: Player): Array<{ chatId: string }> {
	return harness.players
		.client(player)
		.received(rig.deskRemote)
		.filter((entry) => entry[0] === "chat")
		.map((entry) => entry[1] as { chatId: string });
}

/** The chat id of the player's first call window, if one opened. */
export function deskChatIdOf(rig: DeskRig, player: Player): string | undefined {
	return chatsOf(rig, player)[0]?.chatId;
}

/** `count` players (UserIds from `from`) who each placed a call, with their chat ids, after one sync. */
export function deskCallers(rig: DeskRig, from: number, count: number): Array<readonly [Player, string]> {
	const list = new Array<Player>();
	for (let i = 0; i < count; i++) list.push(harness.players.add(from + i, `Caller${i}`));
	for (const player of list)
		harness.players.client(player).fire(rig.deskRemote, "call", { type: "support", reason: "help" });
	waitUntil(() => list.every((player) => deskChatIdOf(rig, player) !== undefined), "the calls", 20);
	rig.sync();
	return list.map((player) => [player, deskChatIdOf(rig, player)!] as const);
}

/** A player writes `text` in their call's chat (no wait: the caller yields when it has written enough). */
export function sayInCall(rig: DeskRig, player: Player, chatId: string, text: string): void {
	harness.players.client(player).fire(rig.deskRemote, "say", chatId, text);
}

/** The player messages the service stored from one caller, in stored order. */
export function storedFrom(callerId: number): Array<string> {
	const texts = new Array<string>();
	for (const ticket of deskControl.tickets()) {
		if (ticket.callerId !== callerId) continue;
		for (const m of ticket.messages) if (m.origin === "user") texts.push(m.message);
	}
	return texts;
}

/** Tears a rig down (the specs' `afterEach`). */
export function dropDeskRig(rig: DeskRig): void {
	rig.desk.destroy();
	rig.bridge.destroy();
	serviceControl.clearFaults();
	harness.reset();
}
