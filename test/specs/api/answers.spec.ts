import { HttpService } from "@rbxts/services";
import { decodeAnswer } from "../../../src/api/codec";
import { OperationId } from "../../../src/api/routes";
import { StaffOpsError } from "../../../src/transport/staffOpsError";
import type { CreateServerAnswer, PlayerJoinAnswer, UserActivityAnswer } from "../../../src/api/resources/activity";
import type { CallMessagesAnswer } from "../../../src/api/resources/calls";
import type { RunningGameAnswer } from "../../../src/api/resources/games";
import type { ListHistoryAnswer, RecordHistoryAnswer } from "../../../src/api/resources/history";
import type { UserTeamsAnswer } from "../../../src/api/resources/teams";
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

		it("accepts an order without status, on create and on release, and refuses one without its id", () => {
			accepted("createOrder", { success: true, order: { _id: "o1", items: [{ item: "Latte", quantity: 1 }] } });
			accepted("releaseOrder", { success: true, order: { _id: "o1", status: "released" } });
			accepted("releaseOrder", { success: true, order: { _id: "o1" } });
			refused("releaseOrder", { success: true, order: { status: "released" } }, "decode");
		});
	});

	describe("answers: a tolerant reader", () => {
		function value<T>(operation: OperationId, body: unknown): T {
			const outcome = decode(operation, body);
			if (!outcome.ok) error(`expected ${operation} to accept the answer: ${tostring(outcome.error)}`, 2);
			return outcome.value as T;
		}

		it("accepts the deployed service's join answer: no reason unless banned, privacy modes, extra fields", () => {
			const plain = value<PlayerJoinAnswer>("playerJoin", {
				success: true,
				banned: false,
				isStaff: true,
				sessionId: "s1",
				runningPlayerId: "r1",
				tracked: true,
				needsConsent: false,
				expiration: 5,
			});
			expect(plain.reason).to.equal(undefined);
			expect(plain.isStaff).to.equal(true);
			expect((plain as unknown as { tracked: boolean }).tracked).to.equal(true);
			const privacy = value<PlayerJoinAnswer>("playerJoin", { success: true, isStaff: false, tracked: false });
			expect(privacy.banned).to.equal(undefined);
			expect(privacy.sessionId).to.equal(undefined);
			expect(privacy.runningPlayerId).to.equal(undefined);
		});

		it("accepts wider types in history: numeric ids, rankTo false, no ended, a typed list", () => {
			const wide = { ...item, userId: 1005, disciplinarianId: 1001, rankTo: false, ended: undefined };
			const record = value<RecordHistoryAnswer>("recordHistory", { success: true, history: wide });
			expect(record.history.userId).to.equal(1005);
			expect(record.history.disciplinarianId).to.equal(1001);
			expect(record.history.rankTo).to.equal(false);
			expect(record.history.ended).to.equal(undefined);
			const list = value<ListHistoryAnswer>("listHistory", { success: true, history: [wide, item] });
			expect(list.history!.size()).to.equal(2);
			expect(list.history![0].type).to.equal(item.type);
		});

		it("reads a null summary as absent, and a missing list as empty", () => {
			const activity = value<UserActivityAnswer>("getActivity", { success: true, summary: undefined });
			expect(activity.summary).to.equal(undefined);
			expect(activity.sessions.size()).to.equal(0);
			const teams = value<UserTeamsAnswer>("getUserTeams", { success: true });
			expect(teams.teams.size()).to.equal(0);
		});

		it("keeps the workspace when owner and managedBy use other field names, and redacts loaderId", () => {
			const answer = value<CreateServerAnswer>("createServer", {
				success: true,
				gameId: "g",
				runningGameId: "65a1b2c3d4e5f60718293a4b",
				workspace: {
					groupId: "7",
					loaderId: "the-api-key-echoed",
					owner: { id: "1", platform: "discord" },
					premium: { is: true, managedBy: { platform: "stripe", customer: "c" } },
				},
				serverName: "extra",
			});
			const workspace = answer.workspace!;
			expect(workspace.loaderId).to.equal("<redacted>");
			expect((workspace.owner as unknown as { id: string }).id).to.equal("1");
			expect(workspace.premium!.is).to.equal(true);
			expect(HttpService.JSONEncode(answer).find("the-api-key-echoed", 1, true)[0]).to.equal(undefined);
		});

		it("leaves out optional fields of a type it cannot use, and list items without their id", () => {
			const record = value<RecordHistoryAnswer>("recordHistory", {
				success: true,
				history: { ...item, evidence: [1, "kept"], notify: "yes" },
			});
			expect(record.history.notify).to.equal(undefined);
			expect(record.history.evidence!.size()).to.equal(1);
			expect(record.history.evidence![0]).to.equal("kept");
			const workspace = value<CreateServerAnswer>("createServer", {
				success: true,
				gameId: "g",
				runningGameId: "r",
				workspace: { premium: { is: "true", planType: "basic" } },
			}).workspace!;
			expect(workspace.premium!.is).to.equal(undefined);
			expect(workspace.premium!.planType).to.equal("basic");
			const running = value<RunningGameAnswer>("getRunningGame", {
				success: true,
				runningGame: { _id: "r" },
				players: [{ _id: "p", platform: "PC", userId: "5" }, { userId: "6" }],
			});
			expect(running.players!.size()).to.equal(1);
			expect(running.players![0].platform).to.equal(undefined);
			expect(running.players![0].userId).to.equal("5");
			const teams = value<UserTeamsAnswer>("getUserTeams", {
				success: true,
				teams: [{ teamId: 5 }, { teamId: "t" }],
			});
			expect(teams.teams.size()).to.equal(1);
			const calls = value<CallMessagesAnswer>("getCallMessages", {
				success: true,
				status: "open",
				messages: [{ message: "no id" }, { id: "m2", message: "hi" }],
			});
			expect(calls.messages.size()).to.equal(1);
			expect(calls.messages[0].id).to.equal("m2");
		});

		it("tells a missing player list apart from an empty one", () => {
			const unlisted = value<RunningGameAnswer>("getRunningGame", { success: true, runningGame: { _id: "r" } });
			expect(unlisted.players).to.equal(undefined);
			const empty = value<RunningGameAnswer>("getRunningGame", { success: true, players: [] });
			expect(empty.players!.size()).to.equal(0);
		});
	});

	describe("answers: what the library cannot do without", () => {
		it("refuses a registration without usable ids, a transcript without status or list, a record without its item", () => {
			refused("createServer", { success: true, gameId: 1, runningGameId: "r" }, "decode");
			refused("createServer", { success: true, gameId: "g", workspace: {} }, "decode");
			refused("getCallMessages", { success: true, messages: [] }, "decode");
			refused("getCallMessages", { success: true, status: "open", messages: "none" }, "decode");
			refused("recordHistory", { success: true }, "decode");
			refused("recordHistory", { success: true, history: { ...item, _id: undefined } }, "decode");
			refused("listHistory", { success: true }, "decode");
			refused("getTimeOff", { success: true, request: { status: "pending" } }, "decode");
		});

		it("refuses a list the service sent as a JSON object or with a hole, however its entries look", () => {
			const message = { id: "m1", username: "Agent", message: "hi", origin: "agent" };
			accepted("getCallMessages", { success: true, status: "open", messages: [message] });
			refused("getCallMessages", { success: true, status: "open", messages: { first: message } }, "decode");
			refused("listTimeOff", { success: true, requests: { only: { _id: "t1" } } }, "decode");
			// A JSON array with a null in it decodes to a table with a hole: not a list either.
			const entry = '{"id":"m1","username":"Agent","message":"hi","origin":"agent"}';
			refused(
				"getCallMessages",
				`{"success":true,"status":"open","messages":[${entry},null,${entry}]}`,
				"decode",
			);
		});

		it("never hands back NaN as a number: an optional number that is NaN is left out", () => {
			// The engine's JSON reads `nan`; a decoder that hands one back stands in for it here.
			const nanHttp = {
				JSONDecode: () => ({
					success: true,
					summary: { _id: "s1", minutes: { total: 0 / 0, active: 3 } },
					sessions: [],
				}),
			};
			const outcome = decodeAnswer<UserActivityAnswer>(nanHttp, "getActivity", 200, "{}");
			expect(outcome.ok).to.equal(true);
			if (!outcome.ok) return;
			expect(outcome.value.summary!.minutes!.total).to.equal(undefined);
			expect(outcome.value.summary!.minutes!.active).to.equal(3);
		});

		it("refuses a success other than true, and answers that are not JSON objects", () => {
			refused("listTimeOff", { success: "true", requests: [] }, "decode");
			refused("listTimeOff", { requests: [] }, "decode");
			refused("listTimeOff", "[1, 2]", "decode");
			refused("listTimeOff", '{"success": true, "requ', "decode");
			refused("listTimeOff", "<html>502</html>", "decode");
			const err = refused("listTimeOff", { success: true, requests: { a: 1 } }, "decode");
			expect(err.message.find("requests", 1, true)[0]).to.be.ok();
		});

		it("says the service acted when a 2xx answer cannot be used, and never otherwise", () => {
			const decoded = refused("playerJoin", "<html>ok</html>", "decode");
			expect(decoded.acted).to.equal(true);
			expect(decoded.mayHaveActed).to.equal(true);
			expect(decoded.message.find("acted", 1, true)[0]).to.be.ok();
			const refusal = refused("playerJoin", { success: false, reason: "no" }, "service", 200);
			expect(refusal.acted).to.equal(false);
			expect(refusal.mayHaveActed).to.equal(false);
			for (const status of [500, 502, 504]) {
				const unknown = refused("playerJoin", "", "http", status);
				expect(unknown.acted).to.equal(false);
				expect(unknown.mayHaveActed).to.equal(true);
			}
			for (const status of [400, 401, 404, 408, 429, 503]) {
				const none = refused("playerJoin", "", "http", status);
				expect(none.mayHaveActed).to.equal(false);
			}
		});

		it("refuses an answer too large to read without decoding it", () => {
			const huge = `{"success":true,"teams":[],"pad":"${string.rep("x", 1_100_000)}"}`;
			const err = refused("getUserTeams", huge, "decode");
			expect(err.acted).to.equal(true);
			expect(err.message.find("too large", 1, true)[0]).to.be.ok();
			refused("getUserTeams", huge, "http", 502);
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

		it("reads the deployed service's other failure bodies: `error` in a 400, NestJS 404s without success", () => {
			const bad = refused("playerJoin", { success: false, error: "leftTime is required" }, "service", 400);
			expect(bad.reason).to.equal("leftTime is required");
			const missing = refused(
				"createOrder",
				{ message: "Cannot POST /orders", error: "Not Found", statusCode: 404 },
				"http",
				404,
			);
			expect(missing.message).to.equal("HTTP 404: Cannot POST /orders");
		});

		it("reads a redirect it was not meant to follow as a refusal: an http error, nothing acted on", () => {
			const redirect = refused("playerJoin", "<html>Moved</html>", "http", 302);
			expect(redirect.acted).to.equal(false);
			expect(redirect.mayHaveActed).to.equal(false);
		});

		it("turns other non-2xx answers into an http error", () => {
			refused("getTimeOff", "<html>oops</html>", "http", 502);
			refused("getTimeOff", { success: true, request: { _id: "t" } }, "http", 500);
			refused("getTimeOff", "", "http", 404);
		});
	});
};
