import { StaffOps } from "../../../src/server";
import { SYNC_IDLE_SECONDS } from "../../../src/server/features/presence/sync";
import { harness } from "../../support/harness";
import { LoggedRequest, serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { deskControl } from "../../support/deskControl";
import { cleanUp, freshStart, join, startDeployed, Started } from "./support";

// A consent decision and a server the service forgot (the soak's deployed mode, seed 5, found it): the service
// deleted the visit of a player who had granted consent. The decision went to the forgotten server (404), the
// server registered again and the player's join was answered again with `needsConsent` under the new server, and
// nothing was sent for it: the new session was deleted at the leave. Against the reference service's deployed
// profile, whose consent is per workspace and user (the last decision counts).

function consentRequests(): Array<LoggedRequest> {
	return serviceControl.requests().requests.filter((request) => request.operation === "consent");
}

/** Started on the deployed profile, with the workspace asking for consent and game code answering it. */
function deployedWithConsent(): Started {
	deskControl.settings({ privacy: { requireConsent: true } });
	return startDeployed({ consentPrompt: false });
}

/** The service forgets the server; the next sync finds out and the server registers again under a new id. */
function forgetAndRegisterAgain(started: Started): string {
	const before = started.server.getRunningGameId()!;
	serviceControl.forget(started.server.getInternalGameId()!);
	started.clock.advance(SYNC_IDLE_SECONDS);
	waitUntil(() => {
		const now = started.server.getRunningGameId();
		return now !== undefined && now !== before;
	}, "the registration under a new running game id");
	return started.server.getRunningGameId()!;
}

export = () => {
	beforeEach(() => freshStart("deployed"));
	afterEach(() => cleanUp());
	afterAll(() => serviceControl.reset());

	describe("a consent decision when the service forgot the server", () => {
		it("a grant lost with the forgotten server (404) is sent for the new server once its join is answered again", () => {
			const started = deployedWithConsent();
			const asked = new Array<Player>();
			const connection = StaffOps.consentRequested.Connect((player) => asked.push(player));
			const player = join(2501, "Granted");
			waitUntil(() => asked.size() === 1, "consentRequested");
			const first = started.server.getRunningGameId()!;
			// The service forgets the server before the player answers: the grant names the forgotten server.
			serviceControl.forget(started.server.getInternalGameId()!);
			expect(StaffOps.answerConsent(player, true)).to.equal(true);
			waitUntil(() => consentRequests().size() === 1, "the first consent request");
			waitSeconds(0.2);
			expect(consentRequests()[0].status).to.equal(404);
			// The sync finds the server gone; the player's join is answered again with needsConsent.
			started.clock.advance(SYNC_IDLE_SECONDS);
			waitUntil(() => {
				const now = started.server.getRunningGameId();
				return now !== undefined && now !== first;
			}, "the registration under a new running game id");
			const second = started.server.getRunningGameId()!;
			waitUntil(() => consentRequests().size() === 2, "the grant for the new server");
			waitSeconds(0.3);
			const sent = consentRequests();
			expect(sent.size()).to.equal(2);
			expect(sent[1].status).to.equal(200);
			const body = sent[1].body as { gameId: unknown; playerId: unknown; granted: unknown };
			expect(body.gameId).to.equal(second);
			expect(tostring(body.playerId)).to.equal("2501");
			expect(body.granted).to.equal(true);
			// Asked once: the player is not prompted again for the same visit.
			expect(asked.size()).to.equal(1);
			const stored = deskControl.consents().filter((consent) => consent.userId === "2501");
			expect(stored.size()).to.equal(1);
			expect(stored[0].runningGameId).to.equal(second);
			// The leave keeps the visit: the service has the grant.
			harness.players.remove(player);
			waitUntil(() => serviceControl.count("playerLeave") === 1, "the leave");
			waitSeconds(0.2);
			const sessions = serviceControl.records().sessions.filter((session) => session.userId === "2501");
			const current = sessions.filter((session) => session.runningGameId === second);
			expect(current.size()).to.equal(1);
			expect(current[0].deleted).to.equal(false);
			connection.Disconnect();
		});

		it("a question still open when the server is forgotten sends the decision for the new server only", () => {
			const started = deployedWithConsent();
			const asked = new Array<Player>();
			const connection = StaffOps.consentRequested.Connect((player) => asked.push(player));
			const player = join(2511, "Undecided");
			waitUntil(() => asked.size() === 1, "consentRequested");
			const second = forgetAndRegisterAgain(started);
			// The join answered again (the service asks again) raises no second prompt.
			waitUntil(
				() => serviceControl.records().sessions.some((session) => session.runningGameId === second),
				"the join reported again",
			);
			waitSeconds(0.2);
			expect(asked.size()).to.equal(1);
			expect(StaffOps.answerConsent(player, true)).to.equal(true);
			waitUntil(() => consentRequests().size() === 1, "the consent request");
			waitSeconds(0.3);
			const sent = consentRequests();
			expect(sent.size()).to.equal(1);
			expect(sent[0].status).to.equal(200);
			expect((sent[0].body as { gameId: unknown }).gameId).to.equal(second);
			connection.Disconnect();
		});

		it("a grant the service stored is not sent again when nothing was forgotten", () => {
			const started = deployedWithConsent();
			const player = join(2521, "Once");
			waitUntil(() => started.server.diagnostics().consent.prompted === 1, "the consent question");
			expect(StaffOps.answerConsent(player, true)).to.equal(true);
			waitUntil(() => consentRequests().size() === 1, "the consent request");
			for (let i = 0; i < 3; i++) started.clock.advance(SYNC_IDLE_SECONDS);
			waitSeconds(0.3);
			expect(consentRequests().size()).to.equal(1);
		});
	});
};
