import { TextChatService, TextService } from "@rbxts/services";
import { harness } from "../../support/harness";

export = () => {
	afterEach(() => harness.reset());

	describe("TextService filtering (fake)", () => {
		it("hashes blocked words for the receiving player", () => {
			harness.players.add(1);
			harness.text.block(["darn"]);
			const result = TextService.FilterStringAsync("well darn it", 1);
			expect(result.GetNonChatStringForUserAsync(2)).to.equal("well #### it");
			expect(result.GetNonChatStringForBroadcastAsync()).to.equal("well #### it");
		});

		// TextFilterResult reference page: GetChatForUserAsync is deprecated and returns an empty string.
		it("answers the deprecated GetChatForUserAsync with an empty string, as Roblox does", () => {
			harness.players.add(1);
			const result = TextService.FilterStringAsync("hello", 1);
			expect(result.GetChatForUserAsync(2)).to.equal("");
		});

		it("can fail, as Roblox's filter can", () => {
			harness.players.add(1);
			harness.text.failNextFilters(1);
			expect(pcall(() => TextService.FilterStringAsync("hello", 1))[0]).to.equal(false);
			expect(pcall(() => TextService.FilterStringAsync("hello", 1))[0]).to.equal(true);
		});

		// Roblox (docs/roblox.md#text-calls-need-the-user-in-the-server): "TextService:FilterStringAsync ... throws when fromUserId is not in
		// the server".
		it("throws for a fromUserId that is not in the server", () => {
			const [ok, problem] = pcall(() => TextService.FilterStringAsync("hello", 31));
			expect(ok).to.equal(false);
			expect(tostring(problem).find("not in this server", 1, true)[0]).to.be.ok();
			const player = harness.players.add(31);
			expect(pcall(() => TextService.FilterStringAsync("hello", 31))[0]).to.equal(true);
			harness.players.remove(player);
			expect(pcall(() => TextService.FilterStringAsync("hello", 31))[0]).to.equal(false);
		});
	});

	describe("TextChatService:CanUserChatAsync (fake)", () => {
		it("answers true unless a spec says otherwise", () => {
			harness.players.add(5);
			expect(TextChatService.CanUserChatAsync(5 as unknown as User)).to.equal(true);
			harness.text.setCanChat(5, false);
			expect(TextChatService.CanUserChatAsync(5 as unknown as User)).to.equal(false);
		});

		// "TextChatService:CanUserChatAsync errors for a user not in the server" (docs/roblox.md#text-calls-need-the-user-in-the-server).
		it("errors for a user who is not in the server", () => {
			const [ok, problem] = pcall(() => TextChatService.CanUserChatAsync(6 as unknown as User));
			expect(ok).to.equal(false);
			expect(tostring(problem).find("not in this server", 1, true)[0]).to.be.ok();
		});
	});
};
