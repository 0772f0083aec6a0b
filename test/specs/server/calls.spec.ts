import { StaffOps } from "../../../src/server";
import { ensureRemote } from "../../../src/shared/remotes";
import { serviceControl } from "../../support/serviceControl";
import { kindsOf, textsOf } from "../bridge/support";
import { cleanUp, freshStart, join, linesWith, startRegistered, warnings } from "./support";
import { waitUntil } from "../../support/waits";

// The call bridge as the integration wires it: StaffOps.openCall uses the integration's client, clock,
// players and CallEvents remote, and StaffOps.stop ends every chat.
export = () => {
	beforeEach(() => freshStart());
	afterEach(() => cleanUp());

	describe("StaffOps.openCall (support calls through the integration)", () => {
		it("shows the call's messages to that player only, then closes with the call", () => {
			const started = startRegistered();
			const caller = join(2001);
			const bystander = join(2002);
			const events = ensureRemote("CallEvents");
			const chat = StaffOps.openCall(caller, "call-demo", { title: "Cafe support" });
			expect(chat).to.be.ok();
			expect(StaffOps.getCalls()).to.be.ok();

			waitUntil(() => kindsOf(caller, events) === "opened,message", "the first agent message");
			serviceControl.addCallMessage("call-demo", {
				username: "HeadModHana",
				userId: 1001,
				message: "Still there?",
			});
			started.clock.advance(2);
			waitUntil(() => textsOf(caller, events).find("Still there?", 1, true)[0] !== undefined, "the new message");

			serviceControl.setCallStatus("call-demo", "closed");
			started.clock.advance(10);
			waitUntil(() => kindsOf(caller, events).sub(-6) === "closed", "the chat to close");
			expect(kindsOf(bystander, events)).to.equal("");
			expect(serviceControl.count("getCallMessages") >= 3).to.equal(true);
		});

		it("ends every open chat when StaffOps stops", () => {
			startRegistered();
			const caller = join(2001);
			const events = ensureRemote("CallEvents");
			StaffOps.openCall(caller, "call-demo");
			waitUntil(() => kindsOf(caller, events).find("opened", 1, true)[0] !== undefined, "the chat to open");
			StaffOps.stop();
			waitUntil(() => kindsOf(caller, events).sub(-6) === "closed", "the chat to close");
			expect(StaffOps.getCalls()).to.equal(undefined);
		});

		it("warns and answers undefined when StaffOps is not running, or for a bad call id", () => {
			const player = join(2001);
			expect(StaffOps.openCall(player, "call-demo")).to.equal(undefined);
			expect(linesWith(warnings(), "openCall: StaffOps is not running").size()).to.equal(1);
			startRegistered();
			expect(StaffOps.openCall(player, "")).to.equal(undefined);
			expect(linesWith(warnings(), "openCall:").size()).to.equal(2);
		});
	});
};
