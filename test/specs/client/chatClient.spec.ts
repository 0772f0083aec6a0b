import { CallChatClient, ChatChannel, ChatInfo, ChatMessage } from "../../../src/client/chat/callChatClient";

/** A channel driven by the spec: `serverFires` stands in for the server, `sent` records what the client fired. */
function fakeChannel() {
	const handlers = new Array<(...args: Array<unknown>) => void>();
	const sent = new Array<Array<unknown>>();
	const channel: ChatChannel = {
		connect: (handler) => {
			handlers.push(handler);
			return {
				Disconnect() {
					const index = handlers.indexOf(handler);
					if (index >= 0) handlers.remove(index);
				},
			};
		},
		send: (...args) => sent.push(args),
	};
	const serverFires = (...args: Array<unknown>) => {
		for (const handler of [...handlers]) handler(...args);
	};
	return { channel, sent, serverFires, handlers };
}

function message(chatId: string, seq: number, text = `text ${seq}`) {
	return { chatId, seq, sender: "HeadModHana", text, sentAt: 1717228800, origin: "agent" };
}

// The client API for games that draw their own UI: signals fed by the CallEvents remote, every payload checked.
export = () => {
	describe("CallChatClient", () => {
		it("asks the server for a replay once when started", () => {
			const { channel, sent, handlers } = fakeChannel();
			const client = new CallChatClient(channel);
			expect(sent.size()).to.equal(0);
			client.start();
			client.start();
			expect(sent.size()).to.equal(1);
			expect(sent[0][0]).to.equal("ready");
			expect(sent[0].size()).to.equal(1);
			expect(handlers.size()).to.equal(1);
		});

		it("keeps the newest 200 messages of a chat", () => {
			const { channel, serverFires } = fakeChannel();
			const client = new CallChatClient(channel).start();
			serverFires("opened", { chatId: "c1", title: "Support" });
			for (let seq = 1; seq <= 250; seq++) serverFires("message", message("c1", seq));
			const kept = client.getMessages("c1");
			expect(kept.size()).to.equal(200);
			expect(kept[0].seq).to.equal(51);
			expect(kept[199].seq).to.equal(250);
		});

		it("fires opened, message (in order) and closed", () => {
			const { channel, serverFires } = fakeChannel();
			const client = new CallChatClient(channel).start();
			const events = new Array<string>();
			client.opened.Connect((chat) => events.push(`opened ${chat.title}`));
			client.message.Connect((chat, m) => events.push(`message ${m.seq} ${m.sender}: ${m.text}`));
			client.closed.Connect((_, reason) => events.push(`closed ${reason}`));
			serverFires("opened", { chatId: "c1", title: "Support" });
			serverFires("message", message("c1", 1, "Hi"));
			serverFires("message", message("c1", 2, "How can I help?"));
			expect(client.getChats().size()).to.equal(1);
			expect(client.getMessages("c1").size()).to.equal(2);
			serverFires("closed", { chatId: "c1", reason: "ended" });
			expect(events.join(";")).to.equal(
				"opened Support;message 1 HeadModHana: Hi;message 2 HeadModHana: How can I help?;closed ended",
			);
			expect(client.getChats().size()).to.equal(0);
		});

		it("shows each message once: a replay repeats nothing", () => {
			const { channel, serverFires } = fakeChannel();
			const client = new CallChatClient(channel).start();
			const seen = new Array<number>();
			let opened = 0;
			client.opened.Connect(() => (opened += 1));
			client.message.Connect((_, m) => seen.push(m.seq));
			serverFires("opened", { chatId: "c1", title: "Support" });
			serverFires("message", message("c1", 1));
			serverFires("message", message("c1", 2));
			// The server's answer to "ready": the chat and all its messages again, then a new one.
			serverFires("opened", { chatId: "c1", title: "Support" });
			serverFires("message", message("c1", 1));
			serverFires("message", message("c1", 2));
			serverFires("message", message("c1", 3));
			expect(opened).to.equal(1);
			expect(seen.join(",")).to.equal("1,2,3");
		});

		it("ignores messages of chats it does not know and payloads that fail the checks", () => {
			const { channel, serverFires } = fakeChannel();
			const client = new CallChatClient(channel).start();
			const events = new Array<string>();
			client.opened.Connect(() => events.push("opened"));
			client.message.Connect(() => events.push("message"));
			client.closed.Connect(() => events.push("closed"));
			serverFires("message", message("unknown", 1));
			serverFires("opened", { chatId: "c1" });
			serverFires("opened", { chatId: "c1", title: 5 });
			serverFires("opened", { chatId: "", title: "x" });
			serverFires("opened", { chatId: "c1", title: "x", extra: true });
			serverFires("opened", "c1");
			expect(events.size()).to.equal(0);
			serverFires("opened", { chatId: "c1", title: "Support" });
			serverFires("message", { ...message("c1", 1), seq: 0 / 0 });
			serverFires("message", { ...message("c1", 1), seq: 1.5 });
			serverFires("message", { ...message("c1", 1), text: string.rep("x", 5000) });
			serverFires("message", { ...message("c1", 1), origin: "hacker" });
			serverFires("message", { ...message("c1", 1), sentAt: math.huge });
			serverFires("closed", { chatId: "c1", reason: "because" });
			serverFires("unknown", {});
			expect(events.join(",")).to.equal("opened");
		});

		it("dismisses a chat: tells the server, closes it here, and ignores the server's late close", () => {
			const { channel, sent, serverFires } = fakeChannel();
			const client = new CallChatClient(channel).start();
			const reasons = new Array<string>();
			client.closed.Connect((_, reason) => reasons.push(reason));
			serverFires("opened", { chatId: "c1", title: "Support" });
			client.dismiss("c1");
			client.dismiss("c1");
			expect(sent.size()).to.equal(2);
			expect(sent[1][0]).to.equal("dismiss");
			expect(sent[1][1]).to.equal("c1");
			serverFires("closed", { chatId: "c1", reason: "dismissed" });
			expect(reasons.join(",")).to.equal("dismissed");
			expect(client.getChats().size()).to.equal(0);
		});

		it("keeps several chats apart, oldest first", () => {
			const { channel, serverFires } = fakeChannel();
			const client = new CallChatClient(channel).start();
			const got = new Array<[ChatInfo, ChatMessage]>();
			client.message.Connect((chat, m) => got.push([chat, m]));
			serverFires("opened", { chatId: "zz", title: "First" });
			serverFires("opened", { chatId: "aa", title: "Second" });
			serverFires("message", message("aa", 1, "to second"));
			serverFires("message", message("zz", 1, "to first"));
			expect(
				client
					.getChats()
					.map((chat) => chat.title)
					.join(","),
			).to.equal("First,Second");
			expect(got[0][0].title).to.equal("Second");
			expect(got[1][0].title).to.equal("First");
			expect(client.getMessages("aa")[0].text).to.equal("to second");
		});

		it("stops listening when destroyed", () => {
			const { channel, handlers } = fakeChannel();
			const client = new CallChatClient(channel).start();
			client.destroy();
			expect(handlers.size()).to.equal(0);
		});
	});
};
