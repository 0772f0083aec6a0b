import { GroupService, TextChatService } from "@rbxts/services";
import { harness } from "../../support/harness";
import { waitUntil } from "../../support/waits";

// The chat and group-role fakes against what Roblox's reference says (docs/roblox.md#textchatservice-chat-on-the-server,
// docs/roblox.md#getrolesingroupasync, docs/roblox.md#getgroupinfoasync).

interface RolesAnswer {
	IsMember: boolean;
	Roles: Array<{ Id: number; Name: string; Rank: number }>;
}

function rolesOf(userId: number, groupId: number): RolesAnswer {
	return GroupService.GetRolesInGroupAsync(userId as never, groupId) as RolesAnswer;
}

function general(): TextChannel {
	return TextChatService.FindFirstChild("TextChannels")!.FindFirstChild("RBXGeneral") as TextChannel;
}

export = () => {
	afterEach(() => harness.reset());

	describe("GroupService:GetRolesInGroupAsync (fake)", () => {
		it("lists public roles only, in no fixed order; a member with no public role has none", () => {
			harness.players.setRoles(31, 7, [1, 100, 200, 255]);
			const firsts = new Set<number>();
			for (let i = 0; i < 30; i++) {
				const answer = rolesOf(31, 7);
				expect(answer.IsMember).to.equal(true);
				expect(answer.Roles.size()).to.equal(4);
				firsts.add(answer.Roles[0].Rank);
			}
			expect(firsts.size() > 1).to.equal(true);
			harness.players.setRoles(32, 7, [], [250]);
			const hidden = rolesOf(32, 7);
			expect(hidden.IsMember).to.equal(true);
			expect(hidden.Roles.size()).to.equal(0);
			expect(rolesOf(33, 7).IsMember).to.equal(false);
		});

		it("is missing on an engine without it: indexing it throws", () => {
			harness.players.setRolesApi(false);
			const [ok, problem] = pcall(
				() => (GroupService as unknown as Record<string, unknown>).GetRolesInGroupAsync,
			);
			expect(ok).to.equal(false);
			expect(tostring(problem).find("is not a valid member", 1, true)[0] !== undefined).to.equal(true);
		});
	});

	describe("GroupService:GetGroupInfoAsync (fake)", () => {
		it("lists every role of the group as { Name, Rank }, ascending by rank; an unknown group or a failed read throws", () => {
			harness.players.setGroupRoles(7, [
				{ Name: "Owner", Rank: 255 },
				{ Name: "Guest", Rank: 0 },
				{ Name: "Moderator", Rank: 150 },
			]);
			const info = GroupService.GetGroupInfoAsync(7) as unknown as {
				Id: number;
				Roles: Array<{ Name: string; Rank: number }>;
			};
			expect(info.Id).to.equal(7);
			expect(info.Roles.map((role) => `${role.Name}=${role.Rank}`).join(",")).to.equal(
				"Guest=0,Moderator=150,Owner=255",
			);
			expect(pcall(() => GroupService.GetGroupInfoAsync(8))[0]).to.equal(false);
			harness.players.failNextRankReads(1);
			expect(pcall(() => GroupService.GetGroupInfoAsync(7))[0]).to.equal(false);
			expect(pcall(() => GroupService.GetGroupInfoAsync(7))[0]).to.equal(true);
			expect(harness.players.groupInfoCalls()).to.equal(4);
		});
	});

	describe("TextChatService (fake)", () => {
		it("defaults to TextChatService with the RBXGeneral and RBXSystem channels; the legacy chat has none", () => {
			expect(TextChatService.ChatVersion).to.equal(Enum.ChatVersion.TextChatService);
			expect(general()).to.be.ok();
			expect(TextChatService.FindFirstChild("TextChannels")!.FindFirstChild("RBXSystem")).to.be.ok();
			harness.chat.setVersion("LegacyChatService");
			expect(TextChatService.ChatVersion).to.equal(Enum.ChatVersion.LegacyChatService);
			expect(TextChatService.FindFirstChild("TextChannels")).to.equal(undefined);
		});

		it("calls ShouldDeliverCallback once per receiver, the sender's included; a falsy answer withholds it", () => {
			const sender = harness.players.add(41, "Sender");
			harness.players.add(42, "Friend");
			harness.players.add(43, "Far");
			const calls = new Array<string>();
			general().ShouldDeliverCallback = (message, receiver) => {
				calls.push(`${message.TextSource!.UserId}>${receiver.UserId}:${message.Text}`);
				return receiver.UserId !== 43;
			};
			expect(harness.chat.send(sender, "hi")).to.equal(2);
			expect(calls.size()).to.equal(3);
			expect(calls.includes("41>41:hi")).to.equal(true);
			expect(calls.includes("41>43:hi")).to.equal(true);
			// A callback can be set, not read.
			expect(pcall(() => general().ShouldDeliverCallback)[0]).to.equal(false);
		});

		it("fires a TextChatCommand's Triggered on the sender's client for a line starting with an alias; that line reaches neither the channel nor Chatted", () => {
			const client = harness.clients.join(45, "Typist");
			const sender = client.player();
			harness.players.add(46, "Reader");
			const command = new Instance("TextChatCommand");
			command.PrimaryAlias = "/hello";
			command.SecondaryAlias = "/hi";
			command.Parent = client.game().GetService("TextChatService");
			const triggered = new Array<string>();
			command.Triggered.Connect((source, text) => triggered.push(`${source.UserId}:${text}`));
			const delivered = new Array<string>();
			general().ShouldDeliverCallback = (message) => {
				delivered.push(message.Text);
				return true;
			};
			const chatted = new Array<string>();
			const connection = sender.Chatted.Connect((text) => chatted.push(text));
			expect(harness.chat.send(sender, "/hello there")).to.equal(0);
			expect(harness.chat.send(sender, "/hi")).to.equal(0);
			// Not an alias: the first word must be one, whole; a line of chat is delivered as ever.
			expect(harness.chat.send(sender, "/hellothere")).to.equal(2);
			command.Enabled = false;
			expect(harness.chat.send(sender, "/hello again")).to.equal(2);
			waitUntil(() => triggered.size() >= 2, "Triggered");
			connection.Disconnect();
			expect(triggered.join("|")).to.equal("45:/hello there|45:/hi");
			// Once per receiver (the typist and the reader).
			expect(delivered.join("|")).to.equal("/hellothere|/hellothere|/hello again|/hello again");
			expect(chatted.join("|")).to.equal("/hellothere|/hello again");
			expect(harness.chat.counts().commandsTriggered).to.equal(2);
			// Another player's line with the same words reaches no command: it is on the typist's client only.
			expect(harness.chat.send(harness.players.add(47, "Other"), "/hello there")).to.equal(3);
		});

		it("counts a callback that yields as not delivering", () => {
			const sender = harness.players.add(44);
			general().ShouldDeliverCallback = () => {
				task.wait();
				return true;
			};
			expect(harness.chat.send(sender, "slow")).to.equal(0);
			expect(harness.chat.counts().yieldingCallbacks).to.equal(1);
		});

		it("gives a user who may not chat no TextSource, so their message goes nowhere", () => {
			const quiet = harness.players.add(45);
			harness.text.setCanChat(45, false);
			let calls = 0;
			general().ShouldDeliverCallback = () => {
				calls += 1;
				return true;
			};
			expect(harness.chat.send(quiet, "hello")).to.equal(0);
			expect(calls).to.equal(0);
		});

		it("fires Player.Chatted under the legacy chat", () => {
			harness.chat.setVersion("LegacyChatService");
			const player = harness.players.add(46);
			const heard = new Array<string>();
			const connection = player.Chatted.Connect((message) => heard.push(message));
			harness.chat.send(player, "old school");
			// Deferred handlers run at the next resumption point; on a busy machine that can be a later frame.
			waitUntil(() => heard.size() > 0, "the Chatted event");
			connection.Disconnect();
			expect(heard.join(",")).to.equal("old school");
		});
	});
};
