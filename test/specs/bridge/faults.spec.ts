import { CallCloseReason } from "../../../src/shared/chatProtocol";
import { harness } from "../../support/harness";
import { FaultSpec, serviceControl } from "../../support/serviceControl";
import {
	dropLiveRig,
	kindsOf,
	LiveRig,
	liveRig,
	messagesOf,
	openStaticCall,
	pollsAroundRetryAfter,
	STATIC_CALL,
	textsOf,
} from "./support";

const FIRST = "Hello, how can I help?";
const SECOND = "Glad that is sorted. Closing this call now.";

// Transient failures back a chat off and it recovers without losing or repeating a message; refusals end it.
export = () => {
	let rig: LiveRig | undefined;
	let reasons: Array<CallCloseReason>;

	const start = (retry?: { maxAttempts?: number; baseDelay?: number }, random = 0.5) => {
		const made = liveRig({ random: () => random }, retry ?? { maxAttempts: 1 });
		reasons = [];
		made.bridge.closed.Connect((_, reason) => reasons.push(reason));
		rig = made;
		return made;
	};

	beforeEach(() => {
		openStaticCall();
		// The captured output is the whole run's (harness.reset keeps it): a spec that counts log lines counts only
		// its own. bridge/changedIds runs just before this file and leaves a poll outage's two lines there.
		harness.clearOutput();
	});

	afterEach(() => (rig = dropLiveRig(rig)));

	describe("CallBridge: faults (reference service)", () => {
		it("prints one warning for a flapping service and its recovery line only after a quiet minute", () => {
			const { bridge, clock, waitForPolls } = start(undefined, 0.999);
			const player = harness.players.add(2309);
			bridge.open(player, STATIC_CALL);
			waitForPolls();
			// Three spells of a failing poll then working ones, 40 s apart: one outage on the log.
			for (let spell = 0; spell < 3; spell++) {
				serviceControl.fault({ operation: "getCallMessages", status: 503, times: 1 });
				clock.advance(20);
				waitForPolls();
				clock.advance(20);
				waitForPolls();
			}
			const lines = () =>
				harness
					.output()
					.filter((line) => line.text.find("support calls: polls", 1, true)[0] !== undefined)
					.map((line) => line.text);
			expect(lines().size()).to.equal(1);
			expect(lines()[0].find("are failing", 1, true)[0]).to.be.ok();
			// A minute without a failure: the one recovery line.
			for (let i = 0; i < 4; i++) {
				clock.advance(20);
				waitForPolls();
			}
			expect(lines().size()).to.equal(2);
			expect(lines()[1].find("work again", 1, true)[0]).to.be.ok();
		});

		it("backs off after failed polls (full jitter: up to 5 s, then up to 10 s) and recovers, delivering each message once", () => {
			// The highest draw: the waits are their ceilings, just under 5 s and 10 s.
			const { bridge, clock, remote, waitForPolls } = start(undefined, 0.999);
			serviceControl.fault({ operation: "getCallMessages", status: 503, times: 2 });
			const player = harness.players.add(2301);
			const chat = bridge.open(player, STATIC_CALL);
			waitForPolls();
			expect(chat.getState()).to.equal("connecting");
			expect(bridge.getStats().failedPolls).to.equal(1);
			clock.advance(4.9);
			waitForPolls();
			expect(bridge.getStats().polls).to.equal(1);
			clock.advance(0.2);
			waitForPolls();
			expect(bridge.getStats().polls).to.equal(2);
			expect(bridge.getStats().failedPolls).to.equal(2);
			clock.advance(9.9);
			waitForPolls();
			expect(bridge.getStats().polls).to.equal(2);
			clock.advance(0.2);
			waitForPolls();
			expect(bridge.getStats().polls).to.equal(3);
			expect(chat.getState()).to.equal("open");
			expect(kindsOf(player, remote)).to.equal("opened,message,message");
		});

		for (const [name, fault] of [
			["a dropped connection", { kind: "drop" }],
			["a malformed answer", { kind: "malformed" }],
			["a truncated answer", { kind: "truncated" }],
			["answers of the wrong types", { kind: "wrong-types" }],
			["a 500", { status: 500 }],
			["a 429", { status: 429 }],
		] as Array<[string, Omit<FaultSpec, "operation">]>) {
			it(`keeps a chat open through ${name} in mid-conversation and delivers what it missed once`, () => {
				const { bridge, remote, pollAgain, waitForPolls } = start();
				const player = harness.players.add(2302);
				const chat = bridge.open(player, STATIC_CALL);
				waitForPolls();
				serviceControl.addCallMessage(STATIC_CALL, { username: "ModMarco", userId: 1003, message: "During" });
				serviceControl.fault({ operation: "getCallMessages", times: 3, ...fault });
				pollAgain();
				pollAgain();
				pollAgain();
				expect(bridge.getStats().failedPolls).to.equal(3);
				expect(chat.getState()).to.equal("open");
				expect(textsOf(player, remote)).to.equal(`${FIRST}|${SECOND}`);
				pollAgain();
				pollAgain();
				expect(textsOf(player, remote)).to.equal(`${FIRST}|${SECOND}|During`);
				expect(
					messagesOf(player, remote)
						.map((message) => message.seq)
						.join(","),
				).to.equal("1,2,3");
			});
		}

		it("waits at least as long as Retry-After asks", () => {
			const made = start();
			serviceControl.fault({ operation: "getCallMessages", status: 429, retryAfter: 20, times: 1 });
			const { player, before, after } = pollsAroundRetryAfter(made, 2303, 20);
			expect(before).to.equal(1);
			expect(after).to.equal(2);
			expect(made.bridge.getChats(player)[0].getState()).to.equal("open");
		});

		it("lets the transport's own retries absorb a single failure", () => {
			const { bridge, remote, waitForPolls } = start({ maxAttempts: 3, baseDelay: 0.05 });
			serviceControl.fault({ operation: "getCallMessages", status: 503, times: 1 });
			const player = harness.players.add(2304);
			bridge.open(player, STATIC_CALL);
			waitForPolls();
			expect(bridge.getStats().polls).to.equal(1);
			expect(bridge.getStats().failedPolls).to.equal(0);
			expect(kindsOf(player, remote)).to.equal("opened,message,message");
		});

		// The one failure policy: a refusal (a 4xx, or success:false whatever the status) ends the chat for good.
		for (const [name, fault] of [
			["400", { status: 400 }],
			["a refusal with status 200", { kind: "success-false" }],
		] as Array<[string, Omit<FaultSpec, "operation">]>) {
			it(`ends the chat with reason error when the service refuses with ${name}`, () => {
				const { bridge, remote, pollAgain, waitForPolls } = start();
				const player = harness.players.add(2305);
				const chat = bridge.open(player, STATIC_CALL);
				waitForPolls();
				serviceControl.fault({ operation: "getCallMessages", times: 1, ...fault });
				pollAgain();
				expect(chat.getState()).to.equal("closed");
				expect(reasons.join(",")).to.equal("error");
				expect(kindsOf(player, remote)).to.equal("opened,message,message,closed");
			});
		}

		for (const status of [401, 403]) {
			it(`keeps the chat open when the service refuses the key (${status}) and resumes when it works`, () => {
				const { bridge, remote, pollAgain, waitForPolls } = start();
				const player = harness.players.add(2306);
				const chat = bridge.open(player, STATIC_CALL);
				waitForPolls();
				serviceControl.fault({ operation: "getCallMessages", status, times: 2 });
				serviceControl.addCallMessage(STATIC_CALL, { username: "ModMarco", userId: 1003, message: "After" });
				pollAgain(90);
				pollAgain(90);
				expect(bridge.getStats().failedPolls).to.equal(2);
				expect(chat.getState()).to.equal("open");
				pollAgain(90);
				expect(textsOf(player, remote)).to.equal(`${FIRST}|${SECOND}|After`);
				expect(reasons.size()).to.equal(0);
			});
		}
	});
};
