import { HttpService } from "@rbxts/services";
import { decodeAnswer, OperationId } from "../../../src/api/operations";
import { StaffOpsError } from "../../../src/transport/StaffOpsError";
import { SAMPLE } from "../../support/fakes";

const item = SAMPLE.history.history;

function decode(operation: OperationId, body: unknown, status = 200) {
	const text = typeIs(body, "string") ? body : HttpService.JSONEncode(body);
	return decodeAnswer<unknown>(HttpService, operation, status, text);
}

function accepted(operation: OperationId, body: unknown) {
	const outcome = decode(operation, body);
	if (!outcome.ok)
		error(`expected ${operation} to accept ${HttpService.JSONEncode(body)}: ${tostring(outcome.error)}`);
}

function refused(operation: OperationId, body: unknown, kind: string, status = 200): StaffOpsError {
	const outcome = decode(operation, body, status);
	if (outcome.ok)
		error(`expected ${operation} to refuse ${typeIs(body, "string") ? body : HttpService.JSONEncode(body)}`);
	if (outcome.error.kind !== kind || outcome.error.status !== status) {
		error(`expected ${kind}/${status}, got ${tostring(outcome.error)}`);
	}
	if (outcome.error.operation !== operation) error(`wrong operation ${outcome.error.operation}`, 2);
	return outcome.error;
}

export = () => {
	describe("answers: what the interface allows", () => {
		it("accepts userId as a boolean or a string", () => {
			accepted("recordHistory", { success: true, history: item });
			accepted("recordHistory", { success: true, history: { ...item, userId: false } });
			accepted("recordHistory", { success: true, history: { ...item, evidence: ["a"], distribution: 3 } });
		});

		it("accepts the list form of history without type, and success:true with only a reason", () => {
			const withoutType = { ...item, type: undefined };
			accepted("listHistory", { success: true, history: [withoutType, item] });
			accepted("listHistory", { success: true, history: [] });
			accepted("listHistory", { success: true, reason: "No history yet" });
		});

		it("accepts a banned join with empty ids, and extra fields the service may add", () => {
			accepted("playerJoin", {
				success: true,
				banned: true,
				reason: "Exploiting",
				isStaff: false,
				sessionId: "",
				runningPlayerId: "",
			});
			accepted("getTimeOff", { success: true, request: { _id: "t1", newField: 1 }, extra: true });
		});

		it("accepts an order without status on create, and requires status on release", () => {
			accepted("createOrder", { success: true, order: { _id: "o1", items: [{ item: "Latte", quantity: 1 }] } });
			accepted("releaseOrder", { success: true, order: { _id: "o1", status: "released" } });
			refused("releaseOrder", { success: true, order: { _id: "o1" } }, "decode");
		});
	});

	describe("answers: nothing looser", () => {
		it("refuses wrong types at any depth", () => {
			refused("recordHistory", { success: true, history: { ...item, userId: 1005 } }, "decode");
			refused("recordHistory", { success: true, history: { ...item, type: "demotion" } }, "decode");
			refused("recordHistory", { success: true, history: { ...item, evidence: [1] } }, "decode");
			refused("listHistory", { success: true, history: [{ ...item, ended: "false" }] }, "decode");
			refused("createServer", { success: true, gameId: 1, runningGameId: "r", workspace: {} }, "decode");
			refused(
				"createServer",
				{ success: true, gameId: "g", runningGameId: "r", workspace: { premium: { is: "true" } } },
				"decode",
			);
			refused(
				"getCallMessages",
				{ success: true, status: "open", messages: [{ id: "m", userId: "1002" }] },
				"decode",
			);
			refused(
				"getRunningGame",
				{ success: true, runningGame: { _id: "r" }, players: [{ _id: "p", platform: "PC" }] },
				"decode",
			);
			refused(
				"getActivity",
				{ success: true, summary: { _id: "s", minutes: { total: "3" } }, sessions: [] },
				"decode",
			);
			refused("getUserTeams", { success: true, teams: [{ teamId: 5 }] }, "decode");
			refused("listTimeOff", { success: true, requests: [{ _id: "t", starts: "yesterday" }] }, "decode");
		});

		it("refuses missing required or identifying fields", () => {
			const noRankFrom = { ...item, rankFrom: undefined };
			refused("recordHistory", { success: true, history: noRankFrom }, "decode");
			refused("recordHistory", { success: true }, "decode");
			refused("listHistory", { success: true }, "decode");
			refused("createServer", { success: true, gameId: "g", workspace: {} }, "decode");
			refused("getCallMessages", { success: true, status: "open", messages: [{ message: "no id" }] }, "decode");
			refused("getTimeOff", { success: true, request: { status: "pending" } }, "decode");
		});

		it("refuses a success other than true, and answers that are not JSON objects", () => {
			refused("listTimeOff", { success: "true", requests: [] }, "decode");
			refused("listTimeOff", { requests: [] }, "decode");
			refused("listTimeOff", "[1, 2]", "decode");
			refused("listTimeOff", '{"success": true, "requ', "decode");
			refused("listTimeOff", "<html>502</html>", "decode");
			refused("listTimeOff", { success: false }, "decode");
			const err = refused("listTimeOff", { success: true, requests: { "0": 1 } }, "decode");
			expect(err.message.find("requests", 1, true)[0]).to.be.ok();
		});
	});

	describe("answers: failures", () => {
		it("turns success:false into a service error with the reason and the status", () => {
			const err = refused(
				"releaseOrder",
				{ success: false, reason: "Order o1 was already released" },
				"service",
				409,
			);
			expect(err.reason).to.equal("Order o1 was already released");
			const ok200 = refused("getCallMessages", { success: false, reason: "closed" }, "service", 200);
			expect(ok200.reason).to.equal("closed");
		});

		it("turns other non-2xx answers into an http error", () => {
			refused("getTimeOff", "<html>oops</html>", "http", 502);
			refused("getTimeOff", { success: true, request: { _id: "t" } }, "http", 500);
			refused("getTimeOff", "", "http", 404);
		});
	});
};
