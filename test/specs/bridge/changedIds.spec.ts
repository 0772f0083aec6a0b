import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { liveRig, openStaticCall, pollsAroundRetryAfter, scriptedRig, transcript } from "./support";

// Call polling behaviours that planted bugs once passed (issue 26, points 6 and 8): which messages arrive after a
// transcript's ids all change, and an upper bound on the wait a huge Retry-After may impose.

export = () => {
	afterEach(() => {
		serviceControl.clearFaults();
		harness.reset();
	});

	describe("CallBridge: changed ids and long Retry-After", () => {
		it("after every id of a transcript changes, delivers only its newest 50 messages, each once", () => {
			// Poll 1: 10 messages, all delivered. From poll 2: 100 messages under new ids (an unrecognisable transcript).
			const rig = scriptedRig((poll) => ({
				status: "open",
				messages: poll === 1 ? transcript("a", 10) : transcript("b", 100),
			}));
			const texts = new Array<string>();
			rig.bridge.message.Connect((_, message) => texts.push(message.text));
			rig.bridge.open(harness.players.add(3101), "renumbered");
			rig.clock.advance(60);
			expect(texts.size()).to.equal(60);
			for (let i = 1; i <= 10; i++) expect(texts[i - 1]).to.equal(`text ${i}`);
			// The newest 50 of the changed transcript, in order: texts 51 to 100.
			for (let i = 51; i <= 100; i++) expect(texts[10 + i - 51]).to.equal(`text ${i}`);
			rig.bridge.destroy();
		});

		it("polls again within 10 minutes when the service asks for an hour in Retry-After", () => {
			openStaticCall();
			const rig = liveRig();
			serviceControl.fault({ operation: "getCallMessages", status: 429, retryAfter: 3600, times: 1 });
			// The wait is capped at 10 minutes: the second poll comes 600 s after the first, not 3600 s.
			const { player, before, after } = pollsAroundRetryAfter(rig, 3102, 600);
			expect(before).to.equal(1);
			expect(after).to.equal(2);
			expect(rig.bridge.getChats(player)[0].getState()).to.equal("open");
			rig.bridge.destroy();
		});
	});
};
