import type { StaffOpsApiClient } from "../../../src/api/apiClient";
import type { ActivityApi, PlayerJoinAnswer } from "../../../src/api/resources/activity";
import { mountConsentPrompt } from "../../../src/client/consent";
import { StaffOps } from "../../../src/server";
import type { SessionEvent } from "../../../src/server/features/presence/sessionEvents";
import { ensureRemote } from "../../../src/shared/remotes";
import { Signal } from "../../../src/shared/signal";
import { HarnessClient, harness } from "../../support/harness";
import { LoggedRequest, serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { cleanUp, freshStart, specClient, startRegistered } from "./support";

// Consent, tracking modes and staff activity (issue 22, items 3 to 5) against the reference service's deployed
// profile. The privacy fields of a join answer are set per player by wrapping the client (the service's own privacy
// modes are modelled elsewhere); every count below is of requests the service received.

const ABSENT = "absent";
type Privacy = Partial<Record<"tracked" | "needsConsent" | "sessionId" | "runningPlayerId" | "banned", unknown>>;

/** A client whose join answers carry `modes[userId]` on top of what the service answered. */
function privacyClient(modes: Map<number, Privacy>): StaffOpsApiClient {
	const client = specClient();
	const activity = client.activity;
	(client as unknown as { activity: ActivityApi }).activity = {
		registerServer(args, options) {
			return activity.registerServer(args, options);
		},
		getUserActivity(userId, options) {
			return activity.getUserActivity(userId, options);
		},
		reportJoin(args, options) {
			return activity.reportJoin(args, options).andThen((answer) => {
				const changed = { ...answer } as Record<string, unknown>;
				// "absent" removes a field, as the deployed service leaves it out.
				for (const [key, value] of pairs(modes.get(args.playerId) ?? {})) {
					changed[key] = value === ABSENT ? undefined : value;
				}
				return changed as unknown as PlayerJoinAnswer;
			});
		},
	};
	return client;
}

/** A consent-denied answer (docs/service-contract.md#privacy-and-consent): tracked false, no banned, no session. */
const DENIED: Privacy = { tracked: false, banned: ABSENT, sessionId: ABSENT, runningPlayerId: ABSENT };

function consentRequests(): Array<LoggedRequest> {
	return serviceControl.requests().requests.filter((request) => request.path === "/activity/consent");
}

function answered(player: Player): boolean {
	return StaffOps.getServer()?.getSession(player) !== undefined || StaffOps.isTracked(player);
}

/** The client's copy of a StaffOps remote, once replicated. */
function clientRemote(client: HarnessClient, name: string): RemoteEvent {
	waitUntil(() => {
		client.sync();
		return (
			client.game().GetService("ReplicatedStorage").FindFirstChild("StaffOpsRemotes")?.FindFirstChild(name) !==
			undefined
		);
	}, `the ${name} remote on the client`);
	return client
		.game()
		.GetService("ReplicatedStorage")
		.FindFirstChild("StaffOpsRemotes")!
		.FindFirstChild(name) as RemoteEvent;
}

function playerGui(client: HarnessClient): Instance {
	return client.localPlayer().FindFirstChildOfClass("PlayerGui")!;
}

function promptOf(client: HarnessClient): Instance | undefined {
	return playerGui(client).FindFirstChild("StaffOpsConsent");
}

export = () => {
	const events = new Array<SessionEvent>();
	const emitSessionEvent = (event: SessionEvent) => events.push(event);

	beforeEach(() => {
		freshStart("deployed");
		events.clear();
	});
	afterEach(() => cleanUp());
	afterAll(() => serviceControl.reset());

	describe("consent", () => {
		it("shows the prompt on that player's client only, and sends one consent request with the choice", () => {
			const modes = new Map<number, Privacy>([[2301, { needsConsent: true }]]);
			const started = startRegistered(
				{ clientReportTimeoutSeconds: 0, sessions: { reportLeaves: true } },
				{ client: privacyClient(modes) },
			);
			const requested = new Array<Player>();
			const connection = StaffOps.consentRequested.Connect((player) => requested.push(player));
			const asked = harness.clients.join(2301, "Asked");
			const other = harness.clients.join(2302, "NotAsked");
			const mounts = [asked, other].map((client) =>
				mountConsentPrompt(clientRemote(client, "Consent"), playerGui(client)),
			);
			waitUntil(() => promptOf(asked) !== undefined, "the prompt on the asked client");
			waitUntil(() => answered(other.player()), "the other join");
			waitSeconds(0.2);
			expect(promptOf(other)).to.equal(undefined);
			expect(requested.size()).to.equal(1);
			expect(requested[0]).to.equal(asked.player());
			// Nothing waits for the answer: the player is in and tracked, and nothing was sent yet.
			expect(StaffOps.isTracked(asked.player())).to.equal(true);
			expect(consentRequests().size()).to.equal(0);

			const prompt = promptOf(asked)!;
			const gui = prompt as ScreenGui;
			expect(gui.ResetOnSpawn).to.equal(false);
			const allow = prompt.FindFirstChild("Prompt")!.FindFirstChild("Allow") as TextButton;
			const decline = prompt.FindFirstChild("Prompt")!.FindFirstChild("Decline") as TextButton;
			// docs/deployed-service.md "Consent": two buttons 48 px tall that a gamepad can select.
			for (const button of [allow, decline]) {
				expect(button.IsA("TextButton")).to.equal(true);
				expect(button.Size.Y.Scale).to.equal(0);
				expect(button.Size.Y.Offset).to.equal(48);
				expect(button.Selectable).to.equal(true);
			}
			harness.gui.activate(allow);
			waitUntil(() => consentRequests().size() === 1, "the consent request");
			waitSeconds(0.3);
			const sent = consentRequests();
			expect(sent.size()).to.equal(1);
			const body = sent[0].body as { gameId: string; playerId: unknown; granted: unknown };
			expect(body.gameId).to.equal(started.server.getRunningGameId());
			expect(tostring(body.playerId)).to.equal("2301");
			expect(body.granted).to.equal(true);
			expect(promptOf(asked)).to.equal(undefined);
			// A second click or answer finds no open question.
			expect(StaffOps.answerConsent(asked.player(), false)).to.equal(false);
			waitSeconds(0.2);
			expect(consentRequests().size()).to.equal(1);
			connection.Disconnect();
			for (const mount of mounts) mount.destroy();
		});

		it("sends nothing for a hostile client: twice, not a boolean, or without a prompt", () => {
			const modes = new Map<number, Privacy>([[2311, { needsConsent: true }]]);
			const started = startRegistered({ clientReportTimeoutSeconds: 0 }, { client: privacyClient(modes) });
			const remote = ensureRemote("Consent");
			const asked = harness.players.add(2311, "Asked");
			const unasked = harness.players.add(2312, "Unasked");
			waitUntil(() => answered(asked) && answered(unasked), "both joins");
			const fire = (player: Player, ...args: Array<unknown>) => {
				harness.players.client(player).fire(remote, ...args);
				started.clock.advance(10); // refills the rate bucket: only the checks below refuse
				waitSeconds(0.05);
			};
			fire(unasked, true);
			fire(asked, "yes");
			fire(asked, { playerId: 2312, granted: true });
			fire(asked, true, false);
			fire(asked);
			expect(consentRequests().size()).to.equal(0);
			fire(asked, false);
			fire(asked, true);
			fire(unasked, false);
			waitSeconds(0.3);
			const sent = consentRequests();
			expect(sent.size()).to.equal(1);
			expect((sent[0].body as { granted: unknown }).granted).to.equal(false);
			expect(tostring((sent[0].body as { playerId: unknown }).playerId)).to.equal("2311");
			expect(started.server.diagnostics().consent.refused).to.equal(7);
		});

		it("lets game code replace the prompt: no built-in prompt, the game's answer is sent once", () => {
			const modes = new Map<number, Privacy>([[2321, { needsConsent: true }]]);
			startRegistered({ clientReportTimeoutSeconds: 0, consentPrompt: false }, { client: privacyClient(modes) });
			const asked = new Array<Player>();
			const connection = StaffOps.consentRequested.Connect((player) => asked.push(player));
			const player = harness.players.add(2321, "OwnPrompt");
			waitUntil(() => asked.size() === 1, "consentRequested");
			// The client was not told to show anything, and its answer is not taken.
			expect(harness.players.client(player).received(ensureRemote("Consent")).size()).to.equal(0);
			harness.players.client(player).fire(ensureRemote("Consent"), true);
			waitSeconds(0.2);
			expect(consentRequests().size()).to.equal(0);
			expect(StaffOps.answerConsent(player, false)).to.equal(true);
			waitUntil(() => consentRequests().size() === 1, "the game's answer");
			expect((consentRequests()[0].body as { granted: unknown }).granted).to.equal(false);
			connection.Disconnect();
		});
	});

	// Issue 42, "Consent and settings".
	describe("consent: the prompt and game code", () => {
		it("closes the built-in prompt when game code answers: the prompt leaves the player's screen, one request", () => {
			const modes = new Map<number, Privacy>([[2331, { needsConsent: true }]]);
			startRegistered({ clientReportTimeoutSeconds: 0 }, { client: privacyClient(modes) });
			const asked = harness.clients.join(2331, "AnsweredByGame");
			const mount = mountConsentPrompt(clientRemote(asked, "Consent"), playerGui(asked));
			waitUntil(() => promptOf(asked) !== undefined, "the prompt on the asked client");
			// The game answers for the player (its own rules), while the built-in prompt is showing.
			expect(StaffOps.answerConsent(asked.player(), true)).to.equal(true);
			waitUntil(() => consentRequests().size() === 1, "the game's answer");
			waitUntil(() => promptOf(asked) === undefined, "the prompt gone from the player's screen");
			expect((consentRequests()[0].body as { granted: unknown }).granted).to.equal(true);
			// A click on a prompt left open would have found no question: nothing more goes out.
			waitSeconds(0.2);
			expect(consentRequests().size()).to.equal(1);
			mount.destroy();
		});

		it("never asks a banned player, also with kickBanned off: no prompt, no signal, no consent request", () => {
			// A service asking consent of a banned player (the reference service never does): the player is not
			// tracked, so nothing is asked, and with kickBanned off they play on.
			const modes = new Map<number, Privacy>([
				[2341, { needsConsent: true, banned: true }],
				[2342, { needsConsent: true }],
			]);
			startRegistered({ clientReportTimeoutSeconds: 0, kickBanned: false }, { client: privacyClient(modes) });
			const requested = new Array<Player>();
			const connection = StaffOps.consentRequested.Connect((player) => requested.push(player));
			const found = new Array<Player>();
			const bans = StaffOps.playerBanned.Connect((player) => found.push(player));
			const banned = harness.players.add(2341, "BannedStays");
			const asked = harness.players.add(2342, "Asked");
			waitUntil(() => requested.size() === 1, "the other player's consentRequested");
			waitUntil(() => found.size() === 1, "playerBanned for the banned player");
			waitSeconds(0.2);
			expect(requested[0]).to.equal(asked);
			expect(requested.size()).to.equal(1);
			expect(harness.players.client(banned).received(ensureRemote("Consent")).size()).to.equal(0);
			expect(harness.players.client(asked).received(ensureRemote("Consent")).size()).to.equal(1);
			expect(harness.players.kickMessage(banned)).to.equal(undefined);
			expect(StaffOps.answerConsent(banned, true)).to.equal(false);
			waitSeconds(0.2);
			expect(consentRequests().size()).to.equal(0);
			connection.Disconnect();
			bans.Disconnect();
		});
	});

	describe("tracking modes", () => {
		it("tracked:false sends no leave and no events, and a consent-denied player is not kicked", () => {
			const modes = new Map<number, Privacy>([[1003, DENIED]]);
			startRegistered(
				{ clientReportTimeoutSeconds: 0, sessions: { reportLeaves: true }, activity: { everyone: true } },
				{ client: privacyClient(modes), emitSessionEvent },
			);
			const denied = harness.players.add(1003, "ModMarco");
			const tracked = harness.players.add(2331, "Tracked");
			waitUntil(() => StaffOps.isTracked(tracked) && answered(denied), "both joins");
			waitSeconds(0.2);
			expect(StaffOps.isTracked(denied)).to.equal(false);
			expect(harness.players.kickMessage(denied)).to.equal(undefined);
			expect(denied.Parent).to.be.ok();
			// No activity was asked of the untracked client, and what it sends is dropped.
			const remote = ensureRemote("Activity");
			expect(harness.players.client(denied).received(remote).size()).to.equal(0);
			expect(harness.players.client(tracked).received(remote).size()).to.equal(1);
			harness.players.client(denied).fire(remote, "idle");
			waitSeconds(0.1);
			expect(events.size()).to.equal(0);
			// No support call for them either.
			expect(StaffOps.openCall(denied, "call-closed")).to.equal(undefined);

			harness.players.remove(denied);
			harness.players.remove(tracked);
			waitUntil(() => serviceControl.count("playerLeave") === 1, "the tracked player's leave");
			waitSeconds(0.3);
			const leaves = serviceControl.requests().requests.filter((request) => request.operation === "playerLeave");
			expect(leaves.size()).to.equal(1);
			expect((leaves[0].body as { playerId: string }).playerId).to.equal("2331");
		});
	});

	describe("staff activity", () => {
		it("turns idle, typing and active into session events with the sessionId, for staff only", () => {
			const started = startRegistered(
				{ clientReportTimeoutSeconds: 0 },
				{
					emitSessionEvent,
					registrationAnswer: () => ({ afkReportingSettings: { altTab: true, movement: 120 } }),
				},
			);
			const staff = harness.players.add(1002, "HeadModHana");
			const player = harness.players.add(2341, "Player");
			waitUntil(() => StaffOps.isStaff(staff) && answered(player), "both joins");
			waitSeconds(0.1);
			const remote = ensureRemote("Activity");
			const told = harness.players.client(staff).received(remote);
			expect(told.size()).to.equal(1);
			const settings = told[0][0] as { altTab: boolean; movement: boolean; idleSeconds: number };
			expect(settings.altTab).to.equal(true);
			expect(settings.movement).to.equal(true);
			expect(settings.idleSeconds).to.equal(120);
			expect(harness.players.client(player).received(remote).size()).to.equal(0);

			const sessionId = StaffOps.getSession(staff)!.sessionId!;
			expect(typeIs(sessionId, "string")).to.equal(true);
			for (const state of ["idle", "idle", "typing", "active", "sleeping"]) {
				harness.players.client(staff).fire(remote, state);
				started.clock.advance(5);
				waitSeconds(0.03);
			}
			harness.players.client(player).fire(remote, "idle");
			waitSeconds(0.1);
			expect(events.map((event) => event.type).join(",")).to.equal("idle,typing,active");
			for (const event of events) {
				expect(event.sessionId).to.equal(sessionId);
				expect(event.userId).to.equal(1002);
				// The spec's clock moved 15 s ahead of the wall clock: event times follow the scheduler's clock.
				expect(math.abs(event.datetime - DateTime.now().UnixTimestampMillis) <= 30_000).to.equal(true);
				expect(event.message).to.equal(undefined);
			}
			// In milliseconds, on the scheduler's clock: the changes were 10 s and 5 s apart on it.
			expect(events[1].datetime - events[0].datetime).to.equal(10_000);
			expect(events[2].datetime - events[1].datetime).to.equal(5_000);
			// Nothing of this went to the service by itself: the events went to the seam, so no sync carried any.
			const carried = serviceControl
				.requests()
				.requests.filter((request) => request.path === "/activity/sendData")
				.filter((request) => ((request.body as { events?: Array<unknown> }).events ?? []).size() > 0);
			expect(carried.size()).to.equal(0);
		});

		it("rate-limits a client that spams state changes", () => {
			const started = startRegistered({ clientReportTimeoutSeconds: 0 }, { emitSessionEvent });
			const staff = harness.players.add(1002, "HeadModHana");
			waitUntil(() => StaffOps.isStaff(staff), "the staff join");
			waitSeconds(0.1);
			const remote = ensureRemote("Activity");
			for (let i = 0; i < 50; i++) harness.players.client(staff).fire(remote, i % 2 === 0 ? "idle" : "active");
			waitSeconds(0.2);
			expect(events.size()).to.equal(5);
			expect(started.server.diagnostics().staffActivity.rateLimited).to.equal(45);
			// Five changes got through (idle, active, idle, active, idle); a second later the bucket has a token again.
			started.clock.advance(2);
			harness.players.client(staff).fire(remote, "active");
			waitSeconds(0.1);
			expect(events.size()).to.equal(6);
		});

		it("logs chat messages only when the game turns it on", () => {
			const chats = new Signal<[player: Player, message: string]>();
			const chatted = (player: Player, handler: (message: string) => void) =>
				chats.Connect((who, message) => who === player && handler(message)) as unknown as RBXScriptConnection;
			for (const on of [false, true]) {
				events.clear();
				startRegistered(
					{ clientReportTimeoutSeconds: 0, activity: { chatMessages: on } },
					{ emitSessionEvent, chatted },
				);
				const staff = harness.players.add(1002, "HeadModHana");
				waitUntil(() => StaffOps.isStaff(staff), "the staff join");
				chats.Fire(staff, "hello team");
				waitSeconds(0.1);
				expect(events.size()).to.equal(on ? 1 : 0);
				if (on) expect(events[0].message).to.equal("hello team");
				cleanUp();
				serviceControl.reset("deployed");
			}
		});
	});
};
