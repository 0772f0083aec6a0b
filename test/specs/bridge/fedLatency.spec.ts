import { HttpService } from "@rbxts/services";
import { StaffOps } from "../../../src/server";
import { SYNC_FAST_SECONDS } from "../../../src/server/features/presence/sync";
import { FakeScheduler } from "../../support/fakes";
import { waitUntil } from "../../support/waits";
import { DeployedFake, ONE_SYNC, run, startOnFake } from "../server/deployedFake";
import { cleanUp, join } from "../server/support";

// Issue 23: while a call is open, an agent's message reaches the player within the sync's cadence. A transcript the
// sync brings is delivered as soon as the game's text filter has passed it: the only time between the sync answer
// and the player's chat is the filter's, on the same clock as everything else.

/** Simulated seconds the spec's text filter takes per text (the sender's name, then the message). */
const FILTER_SECONDS = 0.5;

/** The deployed fake, whose sync answers also hand over `ongoing` as `ongoingChats`. */
class FeedingFake extends DeployedFake {
	ongoing = new Array<object>();
	/** Simulated times of the sync answers that carried a transcript. */
	readonly feeds = new Array<number>();

	constructor(private readonly time: FakeScheduler) {
		super(time);
	}

	RequestAsync(options: RequestAsyncRequest): RequestAsyncResponse {
		const response = super.RequestAsync(options);
		const [path] = (options.Url as string).gsub("^https?://[^/]+", "");
		if (path !== "/activity/sendData" || !response.Success) return response;
		const body = HttpService.JSONDecode(response.Body) as Record<string, unknown>;
		body.ongoingChats = this.ongoing;
		this.feeds.push(this.time.now());
		return { ...response, Body: HttpService.JSONEncode(body) };
	}
}

export = () => {
	afterEach(() => cleanUp());

	describe("CallBridge: a transcript the sync feeds", () => {
		it("is filtered with the game's text filter and delivered when the filter is done, not later", () => {
			const clock = new FakeScheduler();
			const fake = new FeedingFake(clock);
			const filtered = new Array<string>();
			const started = startOnFake(
				fake,
				clock,
				{},
				{
					// Yields on the spec's clock, as a filter call takes time in a game.
					textFilter: (text) => {
						filtered.push(text);
						const thread = coroutine.running();
						clock.delay(FILTER_SECONDS, () => task.spawn(thread));
						coroutine.yield();
						return `[${text}]`;
					},
				},
			);
			const caller = join(4301, "Caller");
			const ticket = { _id: "0123456789abcdef01234567", status: "claimed", callerId: 4301, messages: [] };
			fake.ongoing = [ticket];
			const calls = StaffOps.getCalls()!;
			const shown = new Array<[text: string, at: number]>();
			const connection = calls.message.Connect((_, message) => shown.push([message.text, clock.now()]));

			// A staff-started chat opens from a sync answer (the first idle sync, with room to open); the sync then runs fast.
			run(started, ONE_SYNC + 2);
			waitUntil(() => calls.getChats(caller).size() === 1, "the staff-started chat");
			const agentMessage = {
				id: "m-1",
				userId: 1,
				username: "AgentKim",
				message: "How can I help?",
				origin: "agent",
				sentFrom: "website",
				created: "2024-06-01T12:00:00.000Z",
			};
			fake.ongoing = [{ ...ticket, messages: [agentMessage] }];
			const feedsBefore = fake.feeds.size();
			run(started, SYNC_FAST_SECONDS + 3 * FILTER_SECONDS + 1);
			connection.Disconnect();

			expect(fake.feeds.size() > feedsBefore).to.equal(true);
			const fedAt = fake.feeds[feedsBefore];
			expect(shown.size()).to.equal(1);
			// The sender's name, then the text: two filter calls, nothing else in between.
			expect(shown[0][1] - fedAt).to.be.near(2 * FILTER_SECONDS, 1e-6);
			expect(filtered.includes("AgentKim")).to.equal(true);
			expect(filtered.includes("How can I help?")).to.equal(true);
			expect(shown[0][0]).to.equal("[How can I help?]");
		});
	});
};
