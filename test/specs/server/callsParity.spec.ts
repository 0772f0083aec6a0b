import { StaffOps } from "../../../src/server";
import { ensureRemote } from "../../../src/shared/remotes";
import { deskControl } from "../../support/deskControl";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { received } from "../bridge/support";
import { cleanUp, freshStart, join, startDeployed, startRegistered } from "./support";

// Issue 31, item 4: calls as the official module makes them. Game code starts a call whatever the workspace's
// `moderation` says (`CallsNeedModeration` is the stricter gate), and at shutdown every call StaffOps knows of, a
// chat the dashboard started included, gets one `support/end` (`serverClosed`) before the players' leaves and the
// server's end. Each spec counts what reached the reference service.

/** The last `state` the server sent `player`'s client on SupportRequests, after the client asked (`hello`). */
function stateOf(player: Player): Record<string, unknown> | undefined {
	const remote = ensureRemote("SupportRequests");
	const before = received(player, remote).size();
	harness.players.client(player).fire(remote, "hello");
	waitUntil(() => received(player, remote).size() > before, "the state the client asked for");
	const states = received(player, remote).filter(([kind]) => kind === "state");
	return states[states.size() - 1]?.[1];
}

function requestSupport(player: Player) {
	return StaffOps.requestCall(player, { type: "support", reason: "I need help" }).await();
}

/** Runs the spec clock until the desk knows `count` calls (a dashboard-started chat arrives with a sync); the count. */
function untilCalls(started: ReturnType<typeof startRegistered>, count: number): number {
	const desk = started.server.getSupportDesk()!;
	for (let step = 0; step < 240 && desk.getCallCount() < count; step++) {
		started.clock.advance(0.5);
		task.wait(0.02);
	}
	return desk.getCallCount();
}

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUp());
	afterAll(() => serviceControl.reset());

	describe("calls whatever the workspace's moderation says (issue 31)", () => {
		it("with moderation off, game code starts a call: one support/create; the built-in entry is not offered", () => {
			deskControl.settings({ moderation: false });
			startDeployed();
			const caller = join(2861, "Caller");
			waitUntil(() => StaffOps.getSession(caller) !== undefined, "the join");
			const state = stateOf(caller)!;
			expect(state.available).to.equal(true);
			expect(state.offered).to.equal(false);
			const [placed] = requestSupport(caller);
			expect(placed).to.equal(true);
			waitUntil(() => serviceControl.count("supportCreate") >= 1, "the support/create in the service's log");
			waitSeconds(0.2);
			expect(serviceControl.count("supportCreate")).to.equal(1);
			const tickets = deskControl.tickets().filter((ticket) => tostring(ticket.callerId) === "2861");
			expect(tickets.size()).to.equal(1);
			expect(tickets[0].status).to.equal("open");
		});

		it("with CallsNeedModeration and moderation off, refuses the call: no support/create", () => {
			deskControl.settings({ moderation: false });
			startDeployed({ callsNeedModeration: true });
			const caller = join(2862, "Caller");
			waitUntil(() => StaffOps.getSession(caller) !== undefined, "the join");
			expect(stateOf(caller)!.available).to.equal(false);
			const [placed, words] = requestSupport(caller);
			expect(placed).to.equal(false);
			expect(words).to.equal("Calling staff is not available right now.");
			waitSeconds(0.3);
			expect(serviceControl.count("supportCreate")).to.equal(0);
		});

		it("with moderation on, offers the built-in entry (CallsNeedModeration or not)", () => {
			startDeployed({ callsNeedModeration: true });
			const caller = join(2863, "Caller");
			waitUntil(() => StaffOps.getSession(caller) !== undefined, "the join");
			const state = stateOf(caller)!;
			expect(state.available).to.equal(true);
			expect(state.offered).to.equal(true);
		});
	});

	describe("the shutdown ends every call once (issue 31)", () => {
		it("ends a player's call and a chat the dashboard started with serverClosed, before the leaves and the server's end", () => {
			// Roblox may remove the players only after the BindToClose callbacks returned: the spec runs the shutdown
			// itself, with both players still in the server.
			let close: (() => void) | undefined;
			const started = startRegistered({ clientReportTimeoutSeconds: 0 }, { bindToClose: (fn) => (close = fn) });
			waitUntil(() => started.server.getProfile() === "deployed", "the deployed profile");
			const caller = join(2871, "Caller");
			const member = join(2872, "Member");
			waitUntil(
				() => StaffOps.getSession(caller) !== undefined && StaffOps.getSession(member) !== undefined,
				"the joins",
			);
			const [placed] = requestSupport(caller);
			expect(placed).to.equal(true);
			deskControl.startChat(started.server.getRunningGameId()!, member.UserId);
			expect(untilCalls(started, 2)).to.equal(2);
			close!();
			// The service's log records a request as it answers: wait for it, with a bound.
			waitUntil(() => serviceControl.count("endServer") >= 1, "the endServer in the service's log");
			waitUntil(() => serviceControl.count("supportEnd") >= 2, "the two support/end in the service's log");
			waitSeconds(0.3);
			const requests = serviceControl.requests().requests;
			const ends = requests.filter((request) => request.operation === "supportEnd");
			expect(ends.size()).to.equal(2);
			const ids = new Set<string>();
			for (const request of ends) {
				const body = request.body as { supportId: string; reason: string };
				expect(request.status).to.equal(200);
				expect(body.reason).to.equal("serverClosed");
				ids.add(body.supportId);
			}
			expect(ids.size()).to.equal(2);
			const operations = requests.map((request) => request.operation);
			let lastEnd = -1;
			operations.forEach((operation, index) => {
				if (operation === "supportEnd") lastEnd = index;
			});
			expect(lastEnd < operations.indexOf("endServer")).to.equal(true);
			const firstLeave = operations.indexOf("playerLeave");
			expect(firstLeave === -1 || lastEnd < firstLeave).to.equal(true);
			for (const userId of [2871, 2872]) {
				const ticket = deskControl.tickets().find((entry) => tostring(entry.callerId) === tostring(userId))!;
				expect(ticket.status).to.equal("closed");
				expect(ticket.closedReason).to.equal("serverClosed");
			}
		});
	});
};
