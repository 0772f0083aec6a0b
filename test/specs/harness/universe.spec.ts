import { MemoryStoreService, MessagingService, ServerScriptService } from "@rbxts/services";
import { harness } from "../../support/harness";
import { waitSeconds, waitUntil as waitFor } from "../../support/waits";

// The fakes of lune/roblox/fakes/universe.luau, held to the figures in docs/roblox.md#messagingservice-limits and
// docs/roblox.md#memorystoreservice.

/** Seconds MessagingService takes at most by default: Roblox documents "typically within 1-2 seconds". */
const DOCUMENTED_DELIVERY = 2;

/** Waits (real time, bounded) until `done` holds: longer than the documented delivery, with room for a busy machine. */
function waitUntil(done: () => boolean, what = "the deliveries") {
	waitFor(done, what, DOCUMENTED_DELIVERY + 8);
}

/** A server Script whose source subscribes to `topic`, counting what it hears in `_G.StaffOpsHeard[topic]`. */
function subscribingScript(topic: string): Script {
	const made = new Instance("Script");
	made.Name = `Subscriber-${topic}`;
	(made as unknown as { Source: string }).Source = `
		_G.StaffOpsHeard = _G.StaffOpsHeard or {}
		_G.StaffOpsHeard["${topic}"] = 0
		game:GetService("MessagingService"):SubscribeAsync("${topic}", function()
			_G.StaffOpsHeard["${topic}"] += 1
		end)
	`;
	made.Parent = ServerScriptService;
	return made;
}

function heardBy(topic: string): number | undefined {
	const counts = (_G as unknown as { StaffOpsHeard?: Record<string, number> }).StaffOpsHeard;
	return counts?.[topic];
}

export = () => {
	/** The error `call` throws (TestEZ's expect exists only inside the spec's functions). */
	function errorOf(call: () => unknown): string {
		const [ok, problem] = pcall(call);
		expect(ok).to.equal(false);
		return tostring(problem);
	}

	afterEach(() => harness.reset());

	describe("MessagingService (fake)", () => {
		it("delivers a published message to the subscribers, with Data and Sent", () => {
			const received = new Array<{ Data: unknown; Sent: number }>();
			MessagingService.SubscribeAsync("staffops-test", (message) => {
				received.push(message as { Data: unknown; Sent: number });
			});
			MessagingService.PublishAsync("staffops-test", { userId: 7, action: "kick" });
			waitUntil(() => received.size() >= 1);
			expect(received.size()).to.equal(1);
			expect((received[0].Data as { userId: number }).userId).to.equal(7);
			expect(typeIs(received[0].Sent, "number")).to.equal(true);
			expect(harness.universe.messageCounts().delivered).to.equal(1);
		});

		it("delivers after 1 to 2 s by default, as Roblox documents, never at once", () => {
			const times = new Array<number>();
			MessagingService.SubscribeAsync("staffops-test", () => times.push(os.clock()));
			const started = os.clock();
			for (let index = 0; index < 3; index++) MessagingService.PublishAsync("staffops-test", index);
			// A delivery is never early: nothing at all before a second has passed.
			waitSeconds(0.9);
			expect(times.size()).to.equal(0);
			waitUntil(() => times.size() >= 3);
			for (const at of times) expect(at - started >= 1).to.equal(true);
			// At most 2 s, and a little more on a busy machine.
			for (const at of times) expect(at - started <= DOCUMENTED_DELIVERY + 1).to.equal(true);
		});

		it("stops delivering once the connection is disconnected", () => {
			let received = 0;
			const connection = MessagingService.SubscribeAsync("staffops-test", () => received++);
			connection.Disconnect();
			MessagingService.PublishAsync("staffops-test", "hello");
			waitSeconds(DOCUMENTED_DELIVERY + 0.5);
			expect(received).to.equal(0);
			expect(harness.universe.messageCounts().delivered).to.equal(0);
		});

		it("ends a subscription when the script that made it is destroyed, and only that script's", () => {
			// "Killing the script containing the connections also causes the underlying connect to be unsubscribed"
			// (MessagingService:SubscribeAsync).
			const doomed = subscribingScript("doomed");
			const kept = subscribingScript("kept");
			expect(harness.runScript(doomed)[0]).to.equal(true);
			expect(harness.runScript(kept)[0]).to.equal(true);
			waitUntil(() => harness.universe.subscriptions().held === 2, "both scripts' subscriptions");
			doomed.Destroy();
			expect(harness.universe.subscriptions().held).to.equal(1);
			MessagingService.PublishAsync("doomed", "anyone?");
			MessagingService.PublishAsync("kept", "hello");
			waitUntil(() => heardBy("kept") === 1, "the kept script's message");
			waitSeconds(0.5);
			expect(heardBy("doomed")).to.equal(0);
			expect(harness.universe.messageCounts().delivered).to.equal(1);
			expect(harness.universe.messageCounts().ownerEnded).to.equal(1);
			kept.Destroy();
		});

		it("ends a subscription when the script that made it is disabled", () => {
			const subscriber = subscribingScript("disabled");
			expect(harness.runScript(subscriber)[0]).to.equal(true);
			waitUntil(() => harness.universe.subscriptions().held === 1, "the script's subscription");
			subscriber.Enabled = false;
			MessagingService.PublishAsync("disabled", "anyone?");
			waitSeconds(DOCUMENTED_DELIVERY + 0.5);
			expect(heardBy("disabled")).to.equal(0);
			expect(harness.universe.subscriptions().held).to.equal(0);
			subscriber.Destroy();
		});

		it("refuses a message over 1 kB and sends nothing", () => {
			const problem = errorOf(() => MessagingService.PublishAsync("staffops-test", string.rep("x", 1100)));
			expect(problem.find("larger than 1024 bytes", 1, true)[0]).to.be.ok();
			expect(harness.universe.messageCounts().published).to.equal(0);
		});

		/** Publishes over 20 topics until refused; answers the refusal and how many were accepted. */
		function publishUntilRefused(limit: number): string | undefined {
			for (let index = 0; index < limit; index++) {
				const [ok, problem] = pcall(() => MessagingService.PublishAsync(`topic-${index % 20}`, index));
				if (!ok) return tostring(problem);
			}
			return undefined;
		}

		it("throttles a server past 600 + 240 × players sends a minute, and lets it send a minute later", () => {
			// Four more servers: the game's receive limit (400 + 200 × 5) and each topic's (40 + 80 × 5) are higher.
			harness.universe.setOtherServers(4);
			const refusal = publishUntilRefused(700);
			expect(harness.universe.messageCounts().published).to.equal(600);
			expect((refusal ?? "").find("sent per server", 1, true)[0]).to.be.ok();
			harness.universe.advance(61);
			expect(pcall(() => MessagingService.PublishAsync("topic-0", "again"))[0]).to.equal(true);
		});

		it("throttles the game past 400 + 200 × servers messages received a minute", () => {
			// One player: this server may send 840 a minute, the game (one server) receives 600.
			harness.players.add(1);
			const refusal = publishUntilRefused(900);
			expect(harness.universe.messageCounts().published).to.equal(600);
			expect((refusal ?? "").find("for the game", 1, true)[0]).to.be.ok();
		});

		it("throttles one topic past 40 + 80 × servers messages a minute", () => {
			for (let index = 0; index < 120; index++) MessagingService.PublishAsync("one-topic", index);
			const problem = errorOf(() => MessagingService.PublishAsync("one-topic", "one more"));
			expect(problem.find("per topic", 1, true)[0]).to.be.ok();
			expect(pcall(() => MessagingService.PublishAsync("another-topic", "fine"))[0]).to.equal(true);
		});

		it("loses a message or delivers it twice when the spec says so", () => {
			let received = 0;
			MessagingService.SubscribeAsync("staffops-test", () => received++);
			harness.universe.dropNextMessages(1);
			MessagingService.PublishAsync("staffops-test", "lost");
			waitSeconds(DOCUMENTED_DELIVERY + 0.5);
			expect(received).to.equal(0);
			expect(harness.universe.messageCounts().dropped).to.equal(1);
			harness.universe.duplicateNextMessages(1);
			MessagingService.PublishAsync("staffops-test", "twice");
			waitUntil(() => received >= 2);
			waitSeconds(0.2);
			expect(received).to.equal(2);
		});

		it("delivers after the delay a spec sets instead", () => {
			let received = 0;
			MessagingService.SubscribeAsync("staffops-test", () => received++);
			harness.universe.setMessageDelay(0.3);
			MessagingService.PublishAsync("staffops-test", "late");
			waitSeconds(0.1);
			expect(received).to.equal(0);
			waitFor(() => received >= 1, "the delivery after 0.3 s", 1.5);
			expect(received).to.equal(1);
		});

		/** Publishes to "counted" until refused (at most `most`); answers how many were accepted and the refusal. */
		function publishCounted(most: number): [number, string] {
			for (let index = 0; index < most; index++) {
				const [ok, problem] = pcall(() => MessagingService.PublishAsync("counted", index));
				if (!ok) return [index, tostring(problem)];
			}
			return [most, ""];
		}

		it("counts received messages once per publish or once per receiving server, both by default", () => {
			// Two servers hold a subscription on the topic: 40 + 80 × 2 = 200 receipts a minute. Counted once per
			// publish, 200 publishes fit; counted once per receiving server, 100.
			const other = harness.universe.addServer("server-2");
			MessagingService.SubscribeAsync("counted", () => undefined);
			other.messaging.SubscribeAsync("counted", () => undefined);
			harness.universe.setMessageDelay(0);
			const accepted = new Map<string, number>();
			for (const reading of ["once", "perServer", "both"] as const) {
				harness.universe.setReceiveReading(reading);
				const [count, refusal] = publishCounted(300);
				accepted.set(reading, count);
				expect(refusal.find("per topic", 1, true)[0]).to.be.ok();
				harness.universe.advance(61);
			}
			expect(accepted.get("once")).to.equal(200);
			expect(accepted.get("perServer")).to.equal(100);
			expect(accepted.get("both")).to.equal(100);
		});

		it("refuses a subscription past 20 + 8 × players held by a server, and takes one again once one is cut", () => {
			const connections = new Array<RBXScriptConnection>();
			for (let index = 0; index < 20; index++) {
				connections.push(MessagingService.SubscribeAsync(`topic-${index}`, () => undefined));
			}
			expect(harness.universe.subscriptions().held).to.equal(20);
			const problem = errorOf(() => MessagingService.SubscribeAsync("topic-20", () => undefined));
			expect(problem.find("subscriptions allowed per server", 1, true)[0]).to.be.ok();
			// One player: 8 more.
			harness.players.add(1);
			for (let index = 20; index < 28; index++)
				MessagingService.SubscribeAsync(`topic-${index}`, () => undefined);
			expect(harness.universe.subscriptions().limit).to.equal(28);
			errorOf(() => MessagingService.SubscribeAsync("topic-28", () => undefined));
			connections[0].Disconnect();
			// The same topic twice is two subscriptions: the freed place goes to a second one on topic-1.
			expect(pcall(() => MessagingService.SubscribeAsync("topic-1", () => undefined))[0]).to.equal(true);
			expect(harness.universe.subscriptions().held).to.equal(28);
			errorOf(() => MessagingService.SubscribeAsync("topic-1", () => undefined));
			expect(harness.universe.subscriptions().refused).to.equal(3);
		});

		it("throttles a server past 240 subscribe requests a minute, and lets it subscribe a minute later", () => {
			for (let index = 0; index < 240; index++) {
				MessagingService.SubscribeAsync("staffops-test", () => undefined).Disconnect();
			}
			const problem = errorOf(() => MessagingService.SubscribeAsync("staffops-test", () => undefined));
			expect(problem.find("subscribe requests per server", 1, true)[0]).to.be.ok();
			expect(harness.universe.subscriptions().requests).to.equal(240);
			expect(harness.universe.subscriptions().held).to.equal(0);
			harness.universe.advance(61);
			expect(pcall(() => MessagingService.SubscribeAsync("staffops-test", () => undefined))[0]).to.equal(true);
		});
	});

	describe("several servers in one universe (fake)", () => {
		it("gives another server its own players: its signals fire, this game's do not, and Kick removes there", () => {
			const other = harness.universe.addServer("server-2");
			const seen = new Array<string>();
			other.players.PlayerAdded.Connect((player) => seen.push(`added ${player.UserId}`));
			other.players.PlayerRemoving.Connect((player) => seen.push(`removing ${player.UserId}`));
			const player = other.add(4001);
			waitUntil(() => seen.size() >= 1);
			expect(other.players.GetPlayers().size()).to.equal(1);
			expect(other.players.GetPlayerByUserId(4001)).to.equal(player);
			expect(game.GetService("Players").GetPlayers().size()).to.equal(0);
			player.Kick("bye");
			waitUntil(() => seen.size() >= 2);
			expect(seen.join(",")).to.equal("added 4001,removing 4001");
			expect(other.players.GetPlayers().size()).to.equal(0);
			expect(harness.players.kickMessage(player)).to.equal("bye");
		});

		it("carries a message from another server to every subscriber, and counts that server in the game's limits", () => {
			const other = harness.universe.addServer("server-2");
			const heard = new Array<string>();
			MessagingService.SubscribeAsync("staffops-test", (message) => heard.push(`here ${message.Data}`));
			other.messaging.SubscribeAsync("staffops-test", (message) => heard.push(`there ${message.Data}`));
			other.messaging.PublishAsync("staffops-test", "hi");
			waitUntil(() => heard.size() >= 2);
			table.sort(heard);
			expect(heard.join(",")).to.equal("here hi,there hi");
			// Two servers, both receiving: the topic takes 40 + 80 × 2 = 200 receipts a minute, 100 publishes when each
			// counts once per receiving server (checked by default beside once per publish).
			for (let index = 1; index < 100; index++) other.messaging.PublishAsync("staffops-test", index);
			const problem = errorOf(() => MessagingService.PublishAsync("staffops-test", "one more"));
			expect(problem.find("per topic", 1, true)[0]).to.be.ok();
		});
	});

	// The rules below and their sources: lune/roblox/fakes/universe.luau (above newMemory), docs/roblox.md#memorystoreservice.
	describe("MemoryStoreService hash map (fake)", () => {
		it("stores, reads, updates and removes an item; SetAsync answers whether it overwrote a value", () => {
			const map = MemoryStoreService.GetHashMap("staffops-test");
			expect(map.SetAsync("ban-7", { until: 100 }, 60)).to.equal(false);
			expect(map.SetAsync("ban-7", { until: 100 }, 60)).to.equal(true);
			expect((map.GetAsync("ban-7") as { until: number }).until).to.equal(100);
			const updated = map.UpdateAsync("ban-7", (old) => ({ until: (old as { until: number }).until + 1 }), 60);
			expect((updated as { until: number }).until).to.equal(101);
			expect((map.GetAsync("ban-7") as { until: number }).until).to.equal(101);
			map.RemoveAsync("ban-7");
			expect(map.GetAsync("ban-7")).to.equal(undefined);
			expect(map.SetAsync("ban-7", 1, 60)).to.equal(false);
		});

		it("UpdateAsync: a transform answering nil writes nothing and UpdateAsync answers nil", () => {
			const map = MemoryStoreService.GetHashMap("staffops-test");
			map.SetAsync("k", "kept", 60);
			expect(map.UpdateAsync("k", () => undefined, 60)).to.equal(undefined);
			expect(map.GetAsync("k")).to.equal("kept");
		});

		it("charges UpdateAsync two request units, other calls one", () => {
			const map = MemoryStoreService.GetHashMap("staffops-test");
			const before = harness.universe.memoryUsage();
			map.SetAsync("k", 1, 60);
			map.GetAsync("k");
			map.UpdateAsync("k", (old) => (old as number) + 1, 60);
			map.RemoveAsync("k");
			const after = harness.universe.memoryUsage();
			expect(after.requests - before.requests).to.equal(4);
			expect(after.units - before.units).to.equal(5);
		});

		it("runs an UpdateAsync transform again, at two more units, when another write lands between its read and write", () => {
			const map = MemoryStoreService.GetHashMap("staffops-test");
			map.SetAsync("k", 1, 60);
			harness.universe.setMemoryUpdateDelay(0.3);
			const seen = new Array<number>();
			let result: unknown = "not yet";
			const before = harness.universe.memoryUsage();
			task.spawn(() => {
				result = map.UpdateAsync(
					"k",
					(old) => {
						seen.push(old as number);
						return (old as number) * 10;
					},
					60,
				);
			});
			waitUntil(() => seen.size() >= 1);
			// Another server's write lands while the first run's write is on its way.
			harness.universe.setMemoryUpdateDelay(0);
			MemoryStoreService.GetHashMap("staffops-test").SetAsync("k", 5, 60);
			waitUntil(() => result !== "not yet", "the update");
			expect(seen.size()).to.equal(2);
			expect(seen[0]).to.equal(1);
			expect(seen[1]).to.equal(5);
			expect(result).to.equal(50);
			expect(map.GetAsync("k")).to.equal(50);
			const after = harness.universe.memoryUsage();
			expect(after.updateRuns - before.updateRuns).to.equal(2);
			// Two runs of UpdateAsync (2 units each), the SetAsync and the GetAsync.
			expect(after.units - before.units).to.equal(6);
		});

		it("is shared: another handle of the same name sees the item", () => {
			MemoryStoreService.GetHashMap("staffops-test").SetAsync("k", "v", 60);
			expect(MemoryStoreService.GetHashMap("staffops-test").GetAsync("k")).to.equal("v");
		});

		it("refuses a client: MemoryStoreService is for server scripts only", () => {
			const client = harness.clients.join(7301);
			const memory = client.game().GetService("MemoryStoreService");
			const problem = errorOf(() => memory.GetHashMap("staffops-test"));
			expect(problem.find("server scripts", 1, true)[0]).to.be.ok();
			expect(harness.universe.memoryUsage().requests).to.equal(0);
		});

		it("forgets an item once its expiration has passed", () => {
			const map = MemoryStoreService.GetHashMap("staffops-test");
			map.SetAsync("ban-7", true, 30);
			harness.universe.advance(29);
			expect(map.GetAsync("ban-7")).to.equal(true);
			harness.universe.advance(2);
			expect(map.GetAsync("ban-7")).to.equal(undefined);
			expect(harness.universe.memoryUsage().usedBytes).to.equal(0);
		});

		it("refuses an expiration over 45 days, a key over 128 characters and an item over 32 kB", () => {
			const map = MemoryStoreService.GetHashMap("staffops-test");
			expect(errorOf(() => map.SetAsync("k", 1, 3888001)).find("3888000", 1, true)[0]).to.be.ok();
			expect(pcall(() => map.SetAsync("k", 1, 3888000))[0]).to.equal(true);
			expect(pcall(() => map.SetAsync(string.rep("k", 128), 1, 60))[0]).to.equal(true);
			expect(errorOf(() => map.SetAsync(string.rep("k", 129), 1, 60)).find("128", 1, true)[0]).to.be.ok();
			const big = string.rep("x", 33 * 1024);
			expect(errorOf(() => map.SetAsync("big", big, 60)).find("ItemValueSizeTooLarge", 1, true)[0]).to.be.ok();
			const updateProblem = errorOf(() => map.UpdateAsync("big", () => big, 60));
			expect(updateProblem.find("ItemValueSizeTooLarge", 1, true)[0]).to.be.ok();
		});

		it("refuses a write past the game's memory quota (64 kB + 1.2 kB per user) with TotalMemoryOverLimit until an item expires", () => {
			const map = MemoryStoreService.GetHashMap("staffops-test");
			const item = string.rep("x", 30 * 1024);
			map.SetAsync("a", item, 30);
			map.SetAsync("b", item, 600);
			expect(harness.universe.memoryUsage().quotaBytes).to.equal(64 * 1024);
			const problem = errorOf(() => map.SetAsync("c", item, 600));
			expect(problem.find("TotalMemoryOverLimit", 1, true)[0]).to.be.ok();
			expect(problem.find("StorageOverQuota", 1, true)[0]).to.equal(undefined);
			harness.universe.advance(31);
			expect(pcall(() => map.SetAsync("c", item, 600))[0]).to.equal(true);
		});

		it("gives each user 1.2 kB more quota, kept at the peak after they leave", () => {
			const first = harness.players.add(1);
			harness.players.add(2);
			expect(harness.universe.memoryUsage().quotaBytes).to.equal(64 * 1024 + math.floor(2 * 1.2 * 1024));
			harness.players.remove(first);
			expect(harness.universe.memoryUsage().quotaBytes).to.equal(64 * 1024 + math.floor(2 * 1.2 * 1024));
		});

		it("refuses requests past 1000 + 120 × users request units a minute, UpdateAsync counting two", () => {
			const map = MemoryStoreService.GetHashMap("staffops-test");
			for (let index = 0; index < 1000; index++) map.GetAsync("k");
			expect(errorOf(() => map.GetAsync("k")).find("TotalRequestsOverLimit", 1, true)[0]).to.be.ok();
			harness.universe.advance(61);
			// One user: 1120 units; 559 UpdateAsync leave 2, the next leaves 0, a GetAsync after it is refused.
			harness.players.add(1);
			for (let index = 0; index < 560; index++) map.UpdateAsync("k", () => index, 60);
			expect(errorOf(() => map.GetAsync("k")).find("TotalRequestsOverLimit", 1, true)[0]).to.be.ok();
			expect(
				errorOf(() => map.UpdateAsync("k", () => 1, 60)).find("TotalRequestsOverLimit", 1, true)[0],
			).to.be.ok();
		});
	});
};
