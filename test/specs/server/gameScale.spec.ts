import { SYNC_IDLE_SECONDS } from "../../../src/server/features/presence/sync";
import { harness } from "../../support/harness";
import { serviceControl } from "../../support/serviceControl";
import { waitSeconds, waitUntil } from "../../support/waits";
import { cleanUp, freshStart, join, startStaffOps } from "./support";
import { run, startAgainstFake } from "./deployedFake";

// Issue 34, item 4: the settings a game of many servers turns (docs/many-servers.md#figures-for-a-whole-game). `startJitterSeconds`
// spreads the registrations of servers that a game update restarts together (the spec's random source answers 0.5,
// so the wait is half the setting); `syncSeconds` slows the idle sync.

export = () => {
	beforeEach(() => freshStart());
	afterEach(() => cleanUp());

	it("waits random() x startJitterSeconds before the first registration; joins wait for it, then go out", () => {
		const started = startStaffOps({ startJitterSeconds: 20, clientReportTimeoutSeconds: 0 });
		join(4242, "Early");
		started.clock.advance(9.9);
		waitSeconds(0.3);
		expect(serviceControl.count("createServer")).to.equal(0);
		expect(serviceControl.count("playerJoin")).to.equal(0);
		started.clock.advance(0.2);
		waitUntil(() => started.server.isRegistered(), "the registration after the wait");
		waitUntil(() => serviceControl.count("playerJoin") === 1, "the waiting join");
		expect(serviceControl.count("createServer")).to.equal(1);
	});

	it("registers at once by default and in Studio playtests whatever the setting", () => {
		const started = startStaffOps({ clientReportTimeoutSeconds: 0 });
		waitUntil(() => started.server.isRegistered(), "the registration");
		cleanUp();
		freshStart();
		const studio = startStaffOps({ startJitterSeconds: 120 }, { isStudio: () => true });
		waitUntil(() => studio.server.isRegistered(), "the registration in Studio");
		expect(serviceControl.count("createServer")).to.equal(1);
	});

	it("syncs every 19 s by default while no call is open, the figure the README's fifth of the requests rests on", () => {
		// Written out, not read from SYNC_IDLE_SECONDS: a changed default must fail here (README, docs/many-servers.md).
		const started = startAgainstFake();
		run(started, 18.5);
		expect(started.fake.to("/activity/sendData").size()).to.equal(0);
		run(started, 1);
		expect(started.fake.to("/activity/sendData").size()).to.equal(1);
		run(started, 18);
		expect(started.fake.to("/activity/sendData").size()).to.equal(1);
		run(started, 1);
		expect(started.fake.to("/activity/sendData").size()).to.equal(2);
	});

	it("syncs every syncSeconds while no call is open", () => {
		harness.clearOutput();
		// Slower than the default, whatever the default is: a setting left unread fails the first count.
		const syncSeconds = SYNC_IDLE_SECONDS + 10;
		const started = startAgainstFake({ syncSeconds });
		// The first sync is one interval after the registration, then one every interval.
		run(started, syncSeconds - 1);
		expect(started.fake.to("/activity/sendData").size()).to.equal(0);
		run(started, 2);
		expect(started.fake.to("/activity/sendData").size()).to.equal(1);
		run(started, syncSeconds - 2);
		expect(started.fake.to("/activity/sendData").size()).to.equal(1);
		run(started, 2);
		expect(started.fake.to("/activity/sendData").size()).to.equal(2);
	});
};
