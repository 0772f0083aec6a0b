import { HttpService } from "@rbxts/services";
import { decodeSections } from "../../../src/api/jsonSections";
import { Slicer } from "../../../src/shared/slicer";

// A large answer read piece by piece (docs/api-client.md#how-answers-are-read, src/api/jsonSections.ts): the sync's
// answer, up to 32 MB, read in slices that give the frame back, `queuedActions` first. Counted: what each piece
// decoded to, what was lost, and the frames given back.

const decode = (text: string) => HttpService.JSONDecode(text);

/** A work clock that moves 1 ms each time it is read: a slice (2 ms) runs long after a few looks at it. */
function tickingClock(): () => number {
	let time = 0;
	return () => {
		time += 0.001;
		return time;
	};
}

export = () => {
	describe("a large answer read piece by piece", () => {
		it("reads a string ending in an escaped backslash, and every member after it", () => {
			// The JSON text of "C:\" is "C:\\": its closing quote follows two backslashes, an even run.
			const text =
				'{"queuedActions":[{"type":"kick","userId":"1","message":"C:\\\\"},' +
				'{"type":"notify","userId":"2","message":"hi"}],"ongoingChats":[{"_id":"\\\\\\\\"}],"success":true}';
			const { value, lost } = decodeSections(decode, text, ["queuedActions", "ongoingChats"]);
			expect(lost.size()).to.equal(0);
			const actions = value!.queuedActions as Array<{ type: string; message: string }>;
			expect(actions.size()).to.equal(2);
			expect(actions[0].message).to.equal("C:\\");
			expect(actions[1].type).to.equal("notify");
			expect(actions[1].message).to.equal("hi");
			expect((value!.ongoingChats as Array<{ _id: string }>)[0]._id).to.equal("\\\\");
			expect(value!.success).to.equal(true);
		});

		it("gives the frame back while it scans a large answer, not only between the pieces it decodes", () => {
			// One member of 20,000 numbers, decoded whole: the scan for its end walks every comma, and must yield on the
			// way; decoding it is one piece (at most one yield after it).
			const numbers = new Array<string>();
			for (let i = 0; i < 20_000; i++) numbers.push(tostring(i));
			const text = `{"success":true,"big":[${numbers.join(",")}]}`;
			let frames = 0;
			const slicer = new Slicer(() => (frames += 1), tickingClock());
			const { value, lost } = decodeSections(decode, text, ["queuedActions"], slicer);
			expect(lost.size()).to.equal(0);
			expect((value!.big as Array<number>).size()).to.equal(20_000);
			expect(frames >= 10).to.equal(true);
			expect(slicer.yields).to.equal(frames);
		});
	});
};
