import { harness } from "../../support/harness";
import { ScriptedMessage, scriptedRig, textsOf } from "./support";

/** A message `text` at `second` seconds past 08:00 (ISO, as the service writes it). */
function at(id: string, text: string, second?: number): ScriptedMessage {
	const created =
		second === undefined
			? undefined
			: string.format("2024-06-01T08:%02d:%02d.000Z", math.floor(second / 60), second % 60);
	return { id, username: "Agent", message: text, origin: "agent", created };
}

/** `count` messages `prefix1..`, one second apart from `first` on, oldest first. */
function run(prefix: string, textPrefix: string, count: number, first = 1): Array<ScriptedMessage> {
	const out = new Array<ScriptedMessage>();
	for (let i = first; i < first + count; i++) out.push(at(`${prefix}${i}`, `${textPrefix}${i}`, i));
	return out;
}

/** The same messages, newest first. */
function newestFirst(messages: ReadonlyArray<ScriptedMessage>): Array<ScriptedMessage> {
	const out = new Array<ScriptedMessage>();
	for (let i = messages.size() - 1; i >= 0; i--) out.push(messages[i]);
	return out;
}

// A transcript that is not append-only (issue 24, point 4): what reaches the player, by text.
export = () => {
	afterEach(() => harness.reset());

	describe("CallBridge: a transcript that is not append-only (scripted)", () => {
		it("delivers a message inserted before the last delivered one, and one inserted before the first", () => {
			let messages = [at("a", "one", 1), at("b", "two", 2), at("c", "four", 4)];
			const rig = scriptedRig(() => ({ status: "open", messages }));
			const player = harness.players.add(3201);
			rig.bridge.open(player, "inserted");
			rig.clock.advance(3);
			expect(textsOf(player, rig.remote)).to.equal("one|two|four");
			// The service files a late message by its time, before the last one delivered.
			messages = [at("a", "one", 1), at("b", "two", 2), at("x", "three", 3), at("c", "four", 4)];
			rig.clock.advance(15);
			// And one before every delivered message.
			messages = [at("w", "zero", 0), ...messages];
			rig.clock.advance(15);
			print(`[bridge reordered] inserted: ${textsOf(player, rig.remote)}`);
			expect(textsOf(player, rig.remote)).to.equal("one|two|four|three|zero");
			expect(rig.bridge.getStats().delivered).to.equal(5);
			rig.bridge.destroy();
		});

		it("delivers every message of a newest-first transcript, oldest first, and each new one once", () => {
			let messages = newestFirst(run("m", "t", 5));
			const rig = scriptedRig(() => ({ status: "open", messages }));
			const player = harness.players.add(3202);
			rig.bridge.open(player, "newest-first");
			rig.clock.advance(3);
			expect(textsOf(player, rig.remote)).to.equal("t1|t2|t3|t4|t5");
			messages = newestFirst(run("m", "t", 7));
			rig.clock.advance(15);
			rig.clock.advance(15);
			print(`[bridge reordered] newest first: ${textsOf(player, rig.remote)}`);
			expect(textsOf(player, rig.remote)).to.equal("t1|t2|t3|t4|t5|t6|t7");
			rig.bridge.destroy();
		});

		it("reads a newest-first transcript longer than the backlog from its newest end", () => {
			// 80 messages newest first: the newest 50 are shown (t31..t80), then a new one at the front.
			let messages = newestFirst(run("m", "t", 80));
			const rig = scriptedRig(() => ({ status: "open", messages }));
			const player = harness.players.add(3203);
			rig.bridge.open(player, "newest-first-long");
			for (let i = 0; i < 5; i++) rig.clock.advance(3);
			messages = newestFirst(run("m", "t", 81));
			for (let i = 0; i < 5; i++) rig.clock.advance(15);
			const texts = textsOf(player, rig.remote).split("|");
			expect(texts.size()).to.equal(51);
			expect(texts[0]).to.equal("t31");
			expect(texts[49]).to.equal("t80");
			expect(texts[50]).to.equal("t81");
			rig.bridge.destroy();
		});

		it("orders the new messages of one answer by created; one without a time stays after its predecessor", () => {
			let messages = [at("a", "first", 1)];
			const rig = scriptedRig(() => ({ status: "open", messages }));
			const player = harness.players.add(3204);
			rig.bridge.open(player, "created-order");
			rig.clock.advance(3);
			messages = [
				at("a", "first", 1),
				at("d", "fourth", 40),
				at("e", "fifth, no time"),
				at("b", "second", 20),
				at("c", "third", 30),
				{ ...at("f", "sixth, bad time"), created: "yesterday" },
			];
			// "fifth" follows "fourth" in the service's list, "sixth" follows "third": each stays right after it.
			rig.clock.advance(15);
			print(`[bridge reordered] created order: ${textsOf(player, rig.remote)}`);
			expect(textsOf(player, rig.remote)).to.equal("first|second|third|sixth, bad time|fourth|fifth, no time");
			rig.bridge.destroy();
		});

		it("delivers a duplicated id once, also when its copies differ", () => {
			let messages = [at("a", "one", 1), at("b", "two", 2), at("b", "two again", 2), at("c", "three", 3)];
			const rig = scriptedRig(() => ({ status: "open", messages }));
			const player = harness.players.add(3205);
			rig.bridge.open(player, "duplicates");
			rig.clock.advance(3);
			messages = [...messages, at("a", "one again", 4), at("d", "four", 5), at("d", "four again", 5)];
			rig.clock.advance(15);
			rig.clock.advance(15);
			print(`[bridge reordered] duplicates: ${textsOf(player, rig.remote)}`);
			expect(textsOf(player, rig.remote)).to.equal("one|two|three|four");
			rig.bridge.destroy();
		});

		it("replays only the newest 50 when every id changes, then nothing more", () => {
			let messages = run("m", "t", 60);
			const rig = scriptedRig(() => ({ status: "open", messages }));
			const player = harness.players.add(3206);
			rig.bridge.open(player, "renamed");
			for (let i = 0; i < 4; i++) rig.clock.advance(3);
			expect(rig.bridge.getStats().delivered).to.equal(50);
			// The service renames every message and adds 5: nothing is recognisable.
			messages = run("renamed-", "t", 65);
			for (let i = 0; i < 10; i++) rig.clock.advance(15);
			const texts = textsOf(player, rig.remote).split("|");
			print(`[bridge reordered] every id changed: ${texts.size()} delivered (50 before the change)`);
			expect(texts.size()).to.equal(100);
			expect(texts[50]).to.equal("t16");
			expect(texts[99]).to.equal("t65");
			rig.bridge.destroy();
		});

		it("delivers an insertion into a 700-message transcript once the window forgot its oldest ids", () => {
			// 700 messages delivered over many polls (the window holds 500 ids), then one inserted in the middle of
			// what the window still remembers, and one far behind it (older than anything remembered).
			let messages = run("m", "t", 50);
			const rig = scriptedRig(() => ({ status: "open", messages }));
			const player = harness.players.add(3207);
			rig.bridge.open(player, "long");
			for (let i = 0; i < 5; i++) rig.clock.advance(3);
			for (let size = 60; size <= 700; size += 20) {
				messages = run("m", "t", size);
				rig.clock.advance(3);
			}
			for (let i = 0; i < 5; i++) rig.clock.advance(15);
			expect(rig.bridge.getStats().delivered).to.equal(700);
			const inserted = [...messages];
			inserted.insert(600, at("late", "late reply", 40));
			inserted.insert(10, at("ancient", "ancient", 10));
			messages = inserted;
			for (let i = 0; i < 3; i++) rig.clock.advance(15);
			const texts = textsOf(player, rig.remote).split("|");
			expect(texts.size()).to.equal(701);
			expect(texts[700]).to.equal("late reply");
			expect(rig.bridge.getMemory().deliveredIds).to.equal(500);
			rig.bridge.destroy();
		});
	});

	describe("CallBridge: a transcript the sync feeds that is not append-only", () => {
		it("delivers an inserted message and a newest-first transcript's new one", () => {
			const rig = scriptedRig(() => ({ status: "open", messages: [] }));
			const player = harness.players.add(3208);
			const chat = rig.bridge.attach(player, "fed", { fed: true });
			rig.bridge.feed(chat, "open", [at("a", "one", 1), at("c", "three", 3)]);
			rig.bridge.feed(chat, "claimed", [at("a", "one", 1), at("b", "two", 2), at("c", "three", 3)]);
			rig.bridge.feed(chat, "claimed", [at("d", "four", 4), at("c", "three", 3), at("b", "two", 2)]);
			print(`[bridge reordered] fed: ${textsOf(player, rig.remote)}`);
			expect(textsOf(player, rig.remote)).to.equal("one|three|two|four");
			expect(rig.calls.polls).to.equal(0);
			rig.bridge.destroy();
		});
	});
};
