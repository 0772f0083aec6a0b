import { HealthLog } from "../../../src/background/log";
import { ConsentPrompts } from "../../../src/server/features/consent/consent";
import { Signal } from "../../../src/shared/signal";
import { FakeScheduler } from "../../support/fakes";
import { deskControl } from "../../support/deskControl";
import { harness } from "../../support/harness";
import { registerSpecServer } from "../../support/referenceClient";
import { serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { cleanUp, freshStart, specClient } from "./support";

// The consent record, where a one-expression bug (issue 33) sent a decision again when the visit's join was answered
// again under the same running game. Counts the decisions that reached the reference service.

export = () => {
	beforeEach(() => freshStart());
	afterEach(() => cleanUp());
	afterAll(() => serviceControl.reset());

	describe("consent (issue 33)", () => {
		it("records a decision once for a running game, though the visit's join is answered again under it", () => {
			serviceControl.reset("deployed");
			const client = specClient();
			const runningGameId = registerSpecServer(client, "job-consent");
			const clock = new FakeScheduler();
			const prompts = new ConsentPrompts({
				client,
				scheduler: clock,
				health: new HealthLog(clock),
				remote: new Instance("RemoteEvent"),
				builtInPrompt: false,
				requested: new Signal<[player: Player]>(),
				guard: (_, fn) => fn(),
			});
			const player = harness.players.add(4401, "Deciding");
			prompts.answered(player, true, runningGameId);
			expect(prompts.answer(player, true)).to.equal(true);
			waitUntil(() => serviceControl.count("consent") === 1, "the decision");
			// The same visit's join answered again under the same server (a re-report after a list left it out).
			prompts.answered(player, true, runningGameId);
			waitSeconds(0.3);
			expect(serviceControl.count("consent")).to.equal(1);
			const recordedFor4401 = deskControl.consents().filter((consent) => consent.userId === "4401");
			expect(recordedFor4401.size()).to.equal(1);
		});
	});
};
