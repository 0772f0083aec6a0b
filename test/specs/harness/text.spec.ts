import { TextChatService, TextService } from "@rbxts/services";
import { harness } from "../../support/harness";

export = () => {
	afterEach(() => harness.reset());

	describe("TextService filtering (fake)", () => {
		it("hashes blocked words for the receiving player", () => {
			harness.text.block(["darn"]);
			const result = TextService.FilterStringAsync("well darn it", 1);
			expect(result.GetChatForUserAsync(2)).to.equal("well #### it");
			expect(result.GetNonChatStringForBroadcastAsync()).to.equal("well #### it");
		});

		it("can fail, as Roblox's filter can", () => {
			harness.text.failNextFilters(1);
			expect(pcall(() => TextService.FilterStringAsync("hello", 1))[0]).to.equal(false);
			expect(pcall(() => TextService.FilterStringAsync("hello", 1))[0]).to.equal(true);
		});
	});

	describe("TextChatService:CanUserChatAsync (fake)", () => {
		it("answers true unless a spec says otherwise", () => {
			expect(TextChatService.CanUserChatAsync(5 as unknown as User)).to.equal(true);
			harness.text.setCanChat(5, false);
			expect(TextChatService.CanUserChatAsync(5 as unknown as User)).to.equal(false);
		});
	});
};
