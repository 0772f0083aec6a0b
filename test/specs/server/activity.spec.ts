import { StaffOps } from "../../../src/server";
import { SYNC_IDLE_SECONDS } from "../../../src/server/features/presence/sync";
import { ActivitySettings, isActivitySettings, MAX_IDLE_SECONDS } from "../../../src/shared/privacyProtocol";
import { ensureRemote } from "../../../src/shared/remotes";
import { Signal } from "../../../src/shared/signal";
import { handDrivenDetector } from "../../support/activitySources";
import { deskControl } from "../../support/deskControl";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import {
	alterAnswers,
	cleanUp,
	drainEvents,
	freshStart,
	join,
	linesWith,
	specClient,
	startDeployed,
	Started,
	syncAfter,
	syncsHandled,
	warnings,
} from "./support";

// Staff activity as the deployed service stores it (issue 30), against the reference service's deployed profile,
// which stores only what the deployed service would (docs/service-contract.md#session-events). Every count is of
// what the service stored or what a player's client was told; the sync runs on the spec's clock.

/** A session event as the service stored it (`GET /_control/session-events`). */
interface StoredEvent {
	type: string;
	date: number;
	datetime: number;
	user: string;
	userKey: string;
	sessionIds: { userGameSession: string };
	sessionId: string;
	message?: string;
	encoded?: boolean;
}

function stored(sessionId: string): Array<StoredEvent> {
	return deskControl.sessionEvents(sessionId) as unknown as Array<StoredEvent>;
}

function storedAll(): Array<StoredEvent> {
	return (serviceControl.call("GET", "/_control/session-events") as { events: Array<StoredEvent> }).events;
}

function staffJoin(userId = 1002): [Player, string] {
	const player = join(userId);
	waitUntil(() => StaffOps.getSession(player)?.sessionId !== undefined, "the join");
	return [player, StaffOps.getSession(player)!.sessionId!];
}

/** Waits until the player's join under a new registration gave them a session other than `oldSession`; returns it. */
function newSessionOf(player: Player, oldSession: string): string {
	waitUntil(() => {
		const session = StaffOps.getSession(player)?.sessionId;
		return session !== undefined && session !== oldSession;
	}, "the join under the new registration");
	return StaffOps.getSession(player)!.sessionId!;
}

/** What the server told this player's client to detect, or undefined. */
function toldSettings(player: Player): ActivitySettings | undefined {
	const told = harness.players.client(player).received(ensureRemote("Activity"));
	return told.size() > 0 ? (told[0][0] as ActivitySettings) : undefined;
}

/** The player's client reports a state over the real remote. */
function fire(player: Player, state: string): void {
	harness.players.client(player).fire(ensureRemote("Activity"), state);
}

/** A detector driven by hand (input, TextBox focus, window focus, movement, ticks), sending over the player's real remote. */
function handDetector(player: Player, settings: ActivitySettings) {
	const fake = handDrivenDetector(settings, (changed) => fire(player, changed));
	fake.state.moving = true;
	return fake;
}

/**
 * The staff member's window loses focus for `seconds` on their client's clock: nothing is queued a second before, one
 * event then; after a sync, the types the service stored for the session.
 */
function focusLostUntilIdle(
	started: Started,
	staff: Player,
	sessionId: string,
	settings: ActivitySettings,
	seconds: number,
): string {
	const { focus, pass, detector } = handDetector(staff, settings);
	focus.Fire(false);
	pass(seconds - 1);
	waitSeconds(0.05);
	const early = started.server.features.presence.events.size();
	pass(1);
	waitUntil(() => started.server.features.presence.events.size() === 1, "the idle event queued");
	syncAfter(started, SYNC_IDLE_SECONDS);
	detector.Disconnect();
	return early === 0
		? stored(sessionId)
				.map((event) => event.type)
				.join(",")
		: `${early} event(s) before ${seconds} s`;
}

/** A staff member (1002) reports `states`, `apart` seconds apart on the spec's clock; then one sync. */
function changesSynced(states: Array<string>, apart: number): [Started, string] {
	const started = startDeployed();
	const [staff, sessionId] = staffJoin();
	for (const state of states) {
		fire(staff, state);
		started.clock.advance(apart);
		waitSeconds(0.03);
	}
	syncAfter(started, SYNC_IDLE_SECONDS);
	return [started, sessionId];
}

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUp());
	afterAll(() => serviceControl.reset());

	describe("staff activity as the deployed service stores it", () => {
		it("a staff member's idle, typing and active changes are stored, in the deployed service's shape", () => {
			const [, sessionId] = changesSynced(["idle", "typing", "active"], 2);
			const events = stored(sessionId);
			expect(events.map((event) => event.type).join(",")).to.equal("idle,typing,active");
			for (const event of events) {
				expect(event.user).to.equal("1002");
				expect(event.userKey).to.equal("1002");
				expect(event.sessionIds.userGameSession).to.equal(sessionId);
				expect(event.date).to.equal(math.floor(event.datetime / 1000));
			}
			expect(events[1].datetime - events[0].datetime).to.equal(2000);
		});

		it("an alt-tab flick (idle, active, idle within one second) is stored as three changes, not two", () => {
			const [, sessionId] = changesSynced(["idle", "active", "idle"], 0.3);
			const events = stored(sessionId);
			expect(events.map((event) => event.type).join(",")).to.equal("idle,active,idle");
			expect(events[2].datetime - events[0].datetime).to.equal(600);
			expect(events[2].date - events[0].date <= 1).to.equal(true);
		});

		it("a chat line is stored by its characters, base64, whatever its script, up to 200 characters", () => {
			const chats = new Signal<[player: Player, message: string]>();
			const chatted = (player: Player, handler: (message: string) => void) =>
				chats.Connect((who, message) => who === player && handler(message)) as unknown as RBXScriptConnection;
			const started = startDeployed({ activity: { chatMessages: true } }, { chatted });
			const [staff, sessionId] = staffJoin();
			// 150 Cyrillic characters are 300 bytes; 200 CJK characters 600 bytes; 201 characters are over Roblox's cap.
			const cyrillic = string.rep("я", 150);
			const cjk = string.rep("字", 200);
			chats.Fire(staff, cyrillic);
			chats.Fire(staff, cjk);
			chats.Fire(staff, string.rep("a", 201));
			syncAfter(started, SYNC_IDLE_SECONDS);
			const events = stored(sessionId);
			expect(events.size()).to.equal(2);
			expect(events[0].type).to.equal("message");
			expect(events[0].encoded).to.equal(true);
			// Base64 of the UTF-8 bytes: "яя" is D1 8F D1 8F ("0Y/Rj9GP" per 6 bytes), "字" is E5 AD 97 ("5a2X").
			expect(events[0].message).to.equal(string.rep("0Y/Rj9GP", 50));
			expect(events[1].message).to.equal(string.rep("5a2X", 200));
		});
	});

	describe("afkReportingSettings", () => {
		it("the deployed service's default is read as both signals on, 45 s each: focus loss too", () => {
			startDeployed();
			const [staff] = staffJoin();
			const settings = toldSettings(staff)!;
			expect(settings.altTab).to.equal(true);
			expect(settings.altTabSeconds).to.equal(45); // was 0: idle at once
			expect(settings.movement).to.equal(true);
			expect(settings.idleSeconds).to.equal(45);
		});

		it("with the deployed default an 8 s alt-tab stores no idle; a 50 s one stores one idle, 45 s after focus went", () => {
			const started = startDeployed();
			const [staff, sessionId] = staffJoin();
			const { focus, pass, detector } = handDetector(staff, toldSettings(staff)!);
			// The window is out of focus for `seconds`; the server's clock (which stamps each event) moves with the
			// client's, a second at a time, each change delivered before the next second.
			const away = (seconds: number) => {
				focus.Fire(false);
				waitSeconds(0.02);
				for (let second = 0; second < seconds; second++) {
					started.clock.advance(1);
					pass(1);
					waitSeconds(0.02);
				}
				focus.Fire(true);
				waitSeconds(0.05);
			};
			away(8);
			syncAfter(started, SYNC_IDLE_SECONDS);
			// Was 2: idle at once, active on return.
			expect(stored(sessionId).size()).to.equal(0);
			away(50);
			syncAfter(started, SYNC_IDLE_SECONDS);
			const events = stored(sessionId);
			expect(events.map((event) => event.type).join(",")).to.equal("idle,active");
			// Idle 45 s into the 50 s away, active on return.
			expect(events[1].datetime - events[0].datetime).to.equal(5000);
			detector.Disconnect();
		});

		for (const [label, off] of [
			["false", false],
			["{active: false}", { active: false }],
		] as Array<[string, unknown]>) {
			it(`an afkReportingSettings field set to ${label} is read as off, not as unset: focus loss stores nothing`, () => {
				deskControl.settings({ afkReportingSettings: { altTab: off, movement: off } });
				const started = startDeployed();
				const [staff, sessionId] = staffJoin();
				const settings = toldSettings(staff)!;
				expect(settings.altTab).to.equal(false);
				expect(settings.movement).to.equal(false);
				const { focus, pass, detector } = handDetector(staff, settings);
				focus.Fire(false);
				pass(120);
				waitSeconds(0.1);
				syncAfter(started, SYNC_IDLE_SECONDS);
				expect(stored(sessionId).size()).to.equal(0);
				detector.Disconnect();
			});
		}

		it("a timeUntilIdle past an hour is read as an hour: the client takes the settings and goes idle 3,600 s on", () => {
			// docs/deployed-service.md#staff-activity: the idle time is 0 to 3600 s. A larger one (here in the older
			// number shape, which the service does not bound) is capped, not passed on: a client refuses settings past
			// an hour (it would then report nothing at all).
			deskControl.settings({ afkReportingSettings: { altTab: 7200, movement: false } });
			const started = startDeployed();
			const [staff, sessionId] = staffJoin();
			const settings = toldSettings(staff)!;
			expect(settings.altTabSeconds).to.equal(MAX_IDLE_SECONDS);
			expect(isActivitySettings(settings)).to.equal(true);
			expect(focusLostUntilIdle(started, staff, sessionId, settings, MAX_IDLE_SECONDS)).to.equal("idle");
		});

		it("altTab on with a timeUntilIdle: focus lost that long is stored as idle", () => {
			deskControl.settings({ afkReportingSettings: { altTab: { active: true, timeUntilIdle: 10 } } });
			const started = startDeployed();
			const [staff, sessionId] = staffJoin();
			const settings = toldSettings(staff)!;
			expect(settings.altTabSeconds).to.equal(10);
			expect(focusLostUntilIdle(started, staff, sessionId, settings, 10)).to.equal("idle");
		});
	});

	describe("who reports", () => {
		it("staff activity reporting runs neither for an untracked player nor with no sync running", () => {
			// Untracked: a banned answer that still names a session (everyone's activity on).
			const client = alterAnswers(specClient(), {
				reportJoin: (answer) =>
					answer.sessionId !== undefined && answer.sessionId !== "" && !answer.isStaff
						? { ...answer, banned: true, reason: "spec ban" }
						: answer,
			});
			const started = startDeployed({ activity: { everyone: true } }, { client });
			const banned = join(2501);
			const [staff, sessionId] = staffJoin();
			waitUntil(() => harness.players.kickMessage(banned) !== undefined, "the ban's kick");
			expect(harness.players.client(banned).received(ensureRemote("Activity")).size()).to.equal(0);
			expect(toldSettings(staff)).never.to.equal(undefined);
			fire(banned, "idle");
			fire(staff, "idle");
			waitSeconds(0.1);
			syncAfter(started, SYNC_IDLE_SECONDS);
			expect(storedAll().size()).to.equal(1);
			expect(stored(sessionId).size()).to.equal(1);
			cleanUp();

			// No sync running: nobody is asked to report and nothing waits to be sent.
			serviceControl.reset("deployed");
			const quiet = startDeployed({ sync: false });
			const [other] = staffJoin(1003);
			waitSeconds(0.2);
			expect(toldSettings(other)).to.equal(undefined);
			fire(other, "idle");
			waitSeconds(0.1);
			expect(quiet.server.features.presence.events.size()).to.equal(0);
			quiet.clock.advance(60);
			waitSeconds(0.2);
			expect(storedAll().size()).to.equal(0);
		});

		it("after a re-registration gives new sessions, activity events name the new session, not the old", () => {
			const started = startDeployed();
			const [staff, oldSession] = staffJoin();
			fire(staff, "idle");
			waitSeconds(0.05);
			syncAfter(started, SYNC_IDLE_SECONDS);
			expect(stored(oldSession).size()).to.equal(1);
			const firstRunning = started.server.getRunningGameId()!;
			serviceControl.forget(started.server.getInternalGameId()!);
			started.clock.advance(SYNC_IDLE_SECONDS);
			waitUntil(
				() => started.server.isRegistered() && started.server.getRunningGameId() !== firstRunning,
				"the second registration",
			);
			const newSession = newSessionOf(staff, oldSession);
			waitSeconds(0.1);
			started.clock.advance(1);
			fire(staff, "active");
			waitSeconds(0.1);
			syncAfter(started, SYNC_IDLE_SECONDS);
			// The new session starts active: the idle the player still is goes to it first, then the change.
			expect(
				stored(newSession)
					.map((event) => event.type)
					.join(","),
			).to.equal("idle,active");
			expect(stored(oldSession).size()).to.equal(1);
		});
	});

	describe("a change while the server registers again", () => {
		it("is not sent under the old session: reports wait for the new one", () => {
			const started = startDeployed();
			const [staff, oldSession] = staffJoin();
			const firstRunning = started.server.getRunningGameId()!;
			serviceControl.forget(started.server.getInternalGameId()!);
			// The join under the new registration is slow: the player changes while it is out.
			serviceControl.fault({ operation: "playerJoin", latencyMs: 800, times: 1 });
			started.clock.advance(SYNC_IDLE_SECONDS);
			waitUntil(
				() => started.server.isRegistered() && started.server.getRunningGameId() !== firstRunning,
				"the second registration",
			);
			fire(staff, "idle");
			const newSession = newSessionOf(staff, oldSession);
			waitSeconds(0.1);
			syncAfter(started, SYNC_IDLE_SECONDS);
			expect(stored(oldSession).size()).to.equal(0);
			// The new session starts active: the idle the player is in goes to it.
			expect(
				stored(newSession)
					.map((event) => event.type)
					.join(","),
			).to.equal("idle");
		});
	});

	describe("what the client did, as the service credits it", () => {
		it("a staff member idle, back, unfocused and typing: each change stored within 1 s, no request beyond the sync", () => {
			// Staff commands off: their permission reads for a staff member are their own cost (commands.spec.ts).
			const started = startDeployed({ commands: false });
			const [staff, sessionId] = staffJoin();
			const client = handDetector(staff, toldSettings(staff)!);
			const requestsBefore = serviceControl.requests().requests.size();
			const t0 = started.clock.now();
			// What the client does, second by second (the default settings: 45 s without movement or input, and 45 s out of
			// focus: the 70 s alt-tab is idle from its 45th second).
			const plan = new Map<number, () => void>([
				[30, () => (client.state.moving = false)],
				[
					120,
					() => {
						client.state.moving = true;
						client.input.Fire();
					},
				],
				[150, () => client.focus.Fire(false)],
				[220, () => client.focus.Fire(true)],
				[240, () => client.typing.Fire(true)],
				[270, () => client.typing.Fire(false)],
			]);
			for (let second = 1; second <= 300; second++) {
				started.clock.advance(1);
				client.pass(1);
				plan.get(second)?.();
				task.wait();
				const due = math.floor((started.clock.now() - t0) / SYNC_IDLE_SECONDS);
				waitUntil(() => syncsHandled(started) >= due, "the sync's answer");
			}
			syncAfter(started, SYNC_IDLE_SECONDS);
			client.detector.Disconnect();
			// The client was idle 70 s (from 45 s after it stopped moving until input: 45 s; 25 s of its 70 s unfocused),
			// typed 30 s, active 200 s.
			const did = [
				["idle", 75],
				["active", 120],
				["idle", 195],
				["active", 220],
				["typing", 240],
				["active", 270],
			];
			const events = stored(sessionId);
			expect(events.size()).to.equal(did.size());
			const startMs = events[0].datetime - 75_000;
			const totals = new Map<string, number>([
				["active", 0],
				["idle", 0],
				["typing", 0],
			]);
			let worst = 0;
			for (let i = 0; i < events.size(); i++) {
				const [kind, at] = did[i] as [string, number];
				expect(events[i].type).to.equal(kind);
				worst = math.max(worst, math.abs((events[i].datetime - startMs) / 1000 - at));
				const endMs = i + 1 < events.size() ? events[i + 1].datetime : startMs + 300_000;
				totals.set(kind, totals.get(kind)! + (endMs - events[i].datetime) / 1000);
			}
			totals.set("active", totals.get("active")! + 75);
			const emitted = started.server.diagnostics().staffActivity.emitted!;
			const extra = serviceControl
				.requests()
				.requests.filter((request, index) => index >= requestsBefore && request.operation !== "sendData");
			print(
				`[figure] activity events stored ${events.size()} of ${emitted} sent; idle ${totals.get("idle")} s ` +
					`(client 70), typing ${totals.get("typing")} s (client 30), active ${totals.get("active")} s ` +
					`(client 200); worst change offset ${worst} s; requests beyond the sync: ${extra.size()}`,
			);
			expect(events.size()).to.equal(emitted);
			expect(worst <= 1).to.equal(true);
			expect(math.abs(totals.get("idle")! - 70) <= 2).to.equal(true);
			expect(math.abs(totals.get("typing")! - 30) <= 2).to.equal(true);
			expect(extra.size()).to.equal(0);
		});
	});

	describe("the event queue", () => {
		it("100 players at the per-client maximum, 10 of them staff: every staff change is stored, in order", () => {
			// Ten staff: the seed's five, and five more the join answers name staff.
			const moreStaff = new Set([2700, 2701, 2702, 2703, 2704]);
			const client = alterAnswers(specClient(), {
				reportJoin: (answer, args) => ({ ...answer, isStaff: answer.isStaff || moreStaff.has(args.playerId) }),
			});
			const started = startDeployed({ activity: { everyone: true } }, { client });
			const players = new Array<Player>();
			for (const userId of [1001, 1002, 1003, 1004, 1005]) players.push(harness.players.add(userId));
			for (let i = 0; i < 95; i++) players.push(harness.players.add(2700 + i));
			waitUntil(
				() => players.every((player) => StaffOps.getSession(player)?.sessionId !== undefined),
				"100 joins",
				60,
			);
			const staff = players.filter((player) => StaffOps.isStaff(player));
			expect(staff.size()).to.equal(10);
			const states = new Map<Player, string>();
			const sent = new Map<Player, Array<string>>();
			// One change every 2 s for each player (the most a client may report), for ten minutes of the spec's clock.
			const STEPS = 300;
			const start = started.clock.now();
			for (let step = 0; step < STEPS; step++) {
				for (const player of players) {
					const state = states.get(player) === "idle" ? "active" : "idle";
					states.set(player, state);
					fire(player, state);
					const mine = sent.get(player) ?? [];
					mine.push(state);
					sent.set(player, mine);
				}
				task.wait();
				started.clock.advance(2);
				// The sync runs every SYNC_IDLE_SECONDS on this clock: wait for each one that fell due.
				const due = math.floor((started.clock.now() - start) / SYNC_IDLE_SECONDS);
				waitUntil(() => syncsHandled(started) >= due, "the sync's answer");
			}
			waitSeconds(0.1);
			// Staff first: by now only the changes of the last sync interval (and the one in flight) wait, one every
			// 2 s for each staff member.
			const staffSessions = new Set(staff.map((player) => StaffOps.getSession(player)!.sessionId!));
			const staffBeforeDrain = storedAll()
				.filter((event) => staffSessions.has(event.sessionId))
				.size();
			expect(staffBeforeDrain >= staff.size() * (STEPS - math.ceil(SYNC_IDLE_SECONDS / 2))).to.equal(true);
			for (let drain = 0; drain < 40 && started.server.features.presence.events.size() > 0; drain++)
				syncAfter(started, SYNC_IDLE_SECONDS);
			const all = storedAll();
			let staffStored = 0;
			let staffSent = 0;
			for (const player of staff) {
				const sessionId = StaffOps.getSession(player)!.sessionId!;
				const mine = all.filter((event) => event.sessionId === sessionId).map((event) => event.type);
				staffStored += mine.size();
				staffSent += sent.get(player)!.size();
				expect(mine.join(",")).to.equal(sent.get(player)!.join(","));
			}
			const total = players.size() * STEPS;
			const dropped = started.server.features.presence.events.dropped;
			print(
				`[figure] 100 players (${staff.size()} staff), one change per 2 s for ${STEPS * 2} s: staff ` +
					`${staffStored} of ${staffSent} stored in order; everyone ${all.size()} of ${total} stored, ` +
					`${dropped} dropped, ${syncsHandled(started)} syncs`,
			);
			expect(staffStored).to.equal(staffSent);
			expect(all.size() + dropped).to.equal(total);
			expect(linesWith(warnings(), "session events arrive faster").size()).to.equal(1);
		});

		it("through an outage, busy players lose their own oldest events, never a quiet player's one change", () => {
			const started = startDeployed({ activity: { everyone: true } });
			const quiet = join(2900);
			const busy = new Array<Player>();
			for (let i = 1; i <= 29; i++) busy.push(harness.players.add(2900 + i));
			waitUntil(
				() => [quiet, ...busy].every((player) => StaffOps.getSession(player)?.sessionId !== undefined),
				"30 joins",
				30,
			);
			serviceControl.fault({ operation: "sendData", status: 503, times: 10_000 });
			fire(quiet, "idle");
			// 29 players change every 2 s for 5 minutes while no sync gets through: 4,350 changes, 150 each.
			const STEPS = 150;
			for (let step = 0; step < STEPS; step++) {
				for (const player of busy) fire(player, step % 2 === 0 ? "idle" : "active");
				task.wait();
				started.clock.advance(2);
			}
			waitSeconds(0.1);
			serviceControl.clearFaults();
			drainEvents(started);
			const all = storedAll();
			const quietSession = StaffOps.getSession(quiet)!.sessionId!;
			expect(all.filter((event) => event.sessionId === quietSession).size()).to.equal(1);
			let busiest = 0;
			for (const player of busy) {
				const sessionId = StaffOps.getSession(player)!.sessionId!;
				busiest = math.max(busiest, all.filter((event) => event.sessionId === sessionId).size());
			}
			// Each bounded on their own (100), and the whole queue too (2,000).
			expect(busiest <= 100).to.equal(true);
			expect(all.size() <= 2000 + 1).to.equal(true);
			expect(all.size() + started.server.features.presence.events.dropped).to.equal(busy.size() * STEPS + 1);
			expect(linesWith(warnings(), "session events arrive faster").size()).to.equal(1);
		});
	});
};
