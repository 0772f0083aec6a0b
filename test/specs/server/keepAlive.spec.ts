import { serviceControl } from "../../support/serviceControl";
import {
	allOutput,
	cleanUp,
	freshStart,
	heartbeatsLanded,
	joinAnswered,
	linesWith,
	startRegistered,
	warnings,
} from "./support";
import { waitSeconds, waitUntil } from "../../support/waits";

// Presence on the deployed service (issue 14): its reads do not keep a server alive, and a silent server is
// deleted with its sessions. The silence limit here is 2 s of real time; heartbeats run on the fake clock.

const KEEP_ALIVE = { method: "POST", path: "/activity/getServer" } as const;
const SILENCE_SECONDS = 2;

/** Runs `beats` heartbeats (5 s each on the fake clock), one every 0.6 s of real time. */
function heartbeats(clock: { advance(seconds: number): void }, beats: number): void {
	for (let beat = 0; beat < beats; beat++) {
		clock.advance(5);
		waitSeconds(0.6);
	}
}

export = () => {
	beforeEach(() => {
		freshStart("deployed");
		serviceControl.configure({ forgetAfterSeconds: SILENCE_SECONDS });
	});
	afterEach(() => cleanUp());
	afterAll(() => serviceControl.reset());

	describe("presence keep-alive (deployed service)", () => {
		// The heartbeat's own paths: with the deployed profile the sync would keep the server present instead.
		it("keeps a quiet server alive: never deleted, no player reported again", () => {
			const started = startRegistered({ heartbeatSeconds: 5, keepAlive: KEEP_ALIVE, sync: false });
			joinAnswered(started, [1001, 2001, 2002]);
			heartbeats(started.clock, 8); // about 5 s of real time: the silence limit more than twice over
			const records = serviceControl.records();
			expect(records.servers.size()).to.equal(1);
			expect(records.servers[0].deleted).to.equal(false);
			expect(serviceControl.count("createServer")).to.equal(1);
			expect(serviceControl.count("playerJoin")).to.equal(3);
			expect(serviceControl.count("getServer") >= 7).to.equal(true);
			expect(serviceControl.count("getRunningGame")).to.equal(0);
		});

		it("without it (and without the sync), the quiet server is deleted and registered again, every player reported again", () => {
			const started = startRegistered({ heartbeatSeconds: 5, sync: false });
			joinAnswered(started, [1001, 2001, 2002]);
			waitSeconds(SILENCE_SECONDS + 0.5);
			heartbeats(started.clock, 2);
			waitUntil(() => serviceControl.count("playerJoin") === 6, "the players reported again");
			const records = serviceControl.records();
			expect(records.servers.size()).to.equal(2);
			expect(records.servers[0].removal).to.equal("silence");
			expect(serviceControl.count("createServer")).to.equal(2);
			expect(records.sessionsByUser["2001"]).to.equal(2);
			expect(linesWith(allOutput(), "no longer knows this server").size()).to.equal(1);
		});

		it("confirms a route the service lacks over a minute, with one warning, reads instead and probes once a minute", () => {
			serviceControl.reset("default");
			const started = startRegistered({ heartbeatSeconds: 5, keepAlive: KEEP_ALIVE });
			// Each beat lands before the next (a fixed 0.15 s lost a beat on a busy machine).
			heartbeatsLanded(started, 30, 5);
			// Every beat until the route is confirmed missing (t = 5 ... 65 s), then one probe a minute (t = 125 s).
			expect(linesWith(warnings(), "keep-alive route POST /activity/getServer is not there").size()).to.equal(1);
			expect(serviceControl.count("getServer")).to.equal(14);
			expect(serviceControl.count("getRunningGame") >= 29).to.equal(true);
			expect(serviceControl.count("createServer")).to.equal(1);
		});
	});
};
