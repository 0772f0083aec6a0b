import { harness } from "../../support/harness";

// Remotes carry copies of values with Roblox's rules; exploit specs rely on this being faithful.
export = () => {
	afterEach(() => harness.reset());

	const makeRemote = () => {
		const remote = new Instance("RemoteEvent");
		remote.Name = "HarnessRemote";
		return remote;
	};

	describe("RemoteEvent (fake)", () => {
		it("gives OnServerEvent the firing player first, then copies of the values", () => {
			const remote = makeRemote();
			const player = harness.players.add(10);
			let received = new Array<unknown>();
			remote.OnServerEvent.Connect((from, ...args) => {
				received = [from, ...args];
			});
			const sent = { nested: { value: 1 } };
			harness.players.client(player).fire(remote, "hello", sent, 0 / 0);
			task.wait();
			expect(received[0]).to.equal(player);
			expect(received[1]).to.equal("hello");
			const copy = received[2] as typeof sent;
			expect(copy).never.to.equal(sent);
			expect(copy.nested.value).to.equal(1);
			const nan = received[3] as number;
			expect(nan !== nan).to.equal(true);
		});

		it("drops functions and metatables, and turns non-string keys of dictionaries into strings", () => {
			const remote = makeRemote();
			const player = harness.players.add(11);
			let got: Record<string, unknown> | undefined;
			remote.OnServerEvent.Connect((_, value) => {
				got = value as Record<string, unknown>;
			});
			const withMeta = setmetatable({ a: 1 }, { __index: () => "meta" });
			const mixed = new Map<unknown, unknown>([
				[1, "one"],
				["key", "value"],
				[true, "yes"],
			]);
			harness.players.client(player).fire(remote, { fn: () => 1, meta: withMeta, mixed });
			task.wait();
			expect(got).to.be.ok();
			expect(got!.fn).to.equal(undefined);
			const meta = got!.meta as { a: number; b?: unknown };
			expect(meta.a).to.equal(1);
			expect(meta.b).to.equal(undefined);
			const copied = got!.mixed as Record<string, unknown>;
			expect(copied["1"]).to.equal("one");
			expect(copied["key"]).to.equal("value");
			expect(copied["true"]).to.equal("yes");
		});

		it("keeps events that arrive before anything listens and delivers them to the first listener", () => {
			const remote = makeRemote();
			const player = harness.players.add(12);
			harness.players.client(player).fire(remote, "early", 1);
			harness.players.client(player).fire(remote, "early", 2);
			task.wait();
			const got = new Array<number>();
			remote.OnServerEvent.Connect((_, label, n) => {
				if (label === "early") got.push(n as number);
			});
			task.wait();
			expect(got.join(",")).to.equal("1,2");
		});

		it("delivers FireClient only to that player and FireAllClients to everyone", () => {
			const remote = makeRemote();
			const first = harness.players.add(21);
			const second = harness.players.add(22);
			remote.FireClient(first, "just you");
			remote.FireAllClients("everyone");
			const firstInbox = harness.players.client(first).received(remote);
			const secondInbox = harness.players.client(second).received(remote);
			expect(firstInbox.size()).to.equal(2);
			expect(firstInbox[0][0]).to.equal("just you");
			expect(secondInbox.size()).to.equal(1);
			expect(secondInbox[0][0]).to.equal("everyone");
		});
	});
};
