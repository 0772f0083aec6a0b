import { StaffOpsApiClient } from "../../../src/api/apiClient";
import { OperationId } from "../../../src/api/routes";
import { RequestBudget } from "../../../src/transport/budget";
import { StaffOpsErrorKind } from "../../../src/transport/staffOpsError";
import { ANY_SERVER } from "../../support/fakeClient";
import { harness } from "../../support/harness";
import { failure, referenceClient } from "../../support/referenceClient";
import { FaultSpec, serviceControl } from "../../support/serviceControl";
import { must } from "../../support/waits";

// Every operation against the reference service over real HTTP, then under every fault it can inject.

interface Fixture {
	client: StaffOpsApiClient;
	internalGameId: string;
	runningGameId: string;
}

function makeClient(retry: { maxAttempts?: number; baseDelay?: number; maxDelay?: number }, timeout = 5) {
	return referenceClient({ retry, timeout });
}

function register(client: StaffOpsApiClient): Fixture {
	const server = must(
		client.activity.registerServer({
			gameId: 4500000001,
			placeId: 9200000001,
			jobId: "job-live-spec",
			privateServerId: "",
			privateServerOwnerId: 0,
			placeVersion: "12",
		}),
	);
	return { client, internalGameId: server.gameId, runningGameId: server.runningGameId };
}

const orderArgs = {
	customerId: "2001",
	cashierId: "1004",
	items: [{ item: "Latte", quantity: 2 }],
	placeId: "9200000001",
	gameId: "4500000001",
};

/** One call of each operation; releaseOrder creates a fresh order first (without faults applying to it). */
const CALLS: ReadonlyArray<[OperationId, (fixture: Fixture) => Promise<unknown>]> = [
	[
		"recordHistory",
		({ client }) =>
			client.history.record({
				actioningUser: "1002",
				userId: "1005",
				reason: "Live spec",
				type: "writeup",
				approval_required: false,
			}),
	],
	["listHistory", ({ client }) => client.history.list()],
	["createServer", ({ client }) => client.activity.registerServer(ANY_SERVER)],
	[
		"playerJoin",
		({ client, runningGameId }) =>
			client.activity.reportJoin({
				playerId: 1003,
				safechat: false,
				username: "ModMarco",
				tzOffset: "-05:00",
				platform: "Tablet",
				gameId: runningGameId,
			}),
	],
	["getActivity", ({ client }) => client.activity.getUserActivity("1001")],
	["getRunningGame", ({ client, internalGameId }) => client.games.getRunning(internalGameId)],
	["createOrder", ({ client }) => client.orders.create(orderArgs)],
	["releaseOrder", ({ client }) => client.orders.release(prepared.orderId, { actorId: "1004" })],
	["listTimeOff", ({ client }) => client.timeOff.list()],
	["getTimeOff", ({ client }) => client.timeOff.get("665a00000000000000000001")],
	["getCallMessages", ({ client }) => client.calls.getMessages("call-demo")],
	["getUserTeams", ({ client }) => client.teams.forUser("1005")],
];

/** Values prepared before a case runs (an unreleased order for releaseOrder). */
const prepared = { orderId: "" };

interface FaultCase {
	readonly name: string;
	readonly fault: Omit<FaultSpec, "operation">;
	readonly kind: StaffOpsErrorKind;
	readonly status: number;
	readonly reason?: string;
	/**
	 * Operations whose answer stays usable under this fault: the tolerant reader leaves out the fields it cannot
	 * use, and nothing these operations need is among them.
	 */
	readonly usableFor?: ReadonlyArray<string>;
}

const FAULTS = new Array<FaultCase>();
for (const status of [400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 503, 504]) {
	FAULTS.push({ name: `status ${status}`, fault: { status }, kind: "service", status, reason: "Injected failure" });
}
FAULTS.push(
	{
		name: "success:false with 200",
		fault: { kind: "success-false" },
		kind: "service",
		status: 200,
		reason: "Injected failure",
	},
	{ name: "malformed JSON", fault: { kind: "malformed" }, kind: "decode", status: 200 },
	{ name: "malformed JSON with 503", fault: { kind: "malformed", status: 503 }, kind: "http", status: 503 },
	{ name: "truncated JSON", fault: { kind: "truncated" }, kind: "decode", status: 200 },
	{
		name: "wrong-typed fields",
		fault: { kind: "wrong-types" },
		kind: "decode",
		status: 200,
		usableFor: ["listHistory", "playerJoin", "getActivity", "getRunningGame", "listTimeOff", "getUserTeams"],
	},
	{ name: "a dropped connection", fault: { kind: "drop" }, kind: "network", status: 0 },
	{ name: "latency past the timeout", fault: { latencyMs: 1500 }, kind: "timeout", status: 0 },
);

export = () => {
	describe("client against the reference service", () => {
		beforeAll(() => serviceControl.reset());
		afterAll(() => serviceControl.reset());
		afterEach(() => harness.reset());

		it("runs every operation and checks each answer", () => {
			serviceControl.reset();
			const client = makeClient({ maxAttempts: 1 });
			const fixture = register(client);
			expect(fixture.internalGameId.size() > 0).to.equal(true);

			const recorded = must(
				client.history.record({
					actioningUser: "1002",
					userId: "1005",
					reason: "Left a shift without notice",
					type: "writeup",
					approval_required: false,
					notify: true,
					expiresInDays: 30,
				}),
			);
			expect(recorded.history.type).to.equal("writeup");
			expect(recorded.history.reason).to.equal("Left a shift without notice");

			const listed = must(client.history.list());
			expect(listed.history).to.be.ok();
			expect(listed.history!.size() >= 3).to.equal(true);

			const join = must(
				client.activity.reportJoin({
					playerId: 1001,
					safechat: false,
					username: "CafeOwner",
					tzOffset: "+02:00",
					platform: "Desktop",
					gameId: fixture.runningGameId,
				}),
			);
			expect(join.banned).to.equal(false);
			expect(join.isStaff).to.equal(true);
			expect(join.sessionId!.size() > 0).to.equal(true);

			const banned = must(
				client.activity.reportJoin({
					playerId: 666,
					safechat: true,
					username: "Exploiter",
					tzOffset: "-05:00",
					platform: "unknown",
					gameId: fixture.runningGameId,
				}),
			);
			expect(banned.banned).to.equal(true);
			expect(banned.reason).to.equal("Exploiting");

			const activity = must(client.activity.getUserActivity("1001"));
			expect(activity.summary!._id.size() > 0).to.equal(true);
			expect(activity.sessions.size() >= 1).to.equal(true);

			const running = must(client.games.getRunning(fixture.internalGameId));
			expect(running.runningGame!._id).to.equal(fixture.runningGameId);
			expect(running.players!.size()).to.equal(1);
			expect(running.players![0].platform).to.equal("Desktop");

			const created = must(client.orders.create(orderArgs));
			expect(created.order.status).never.to.be.ok();
			const released = must(client.orders.release(created.order._id, { actorId: "1004" }));
			expect(released.order.status!.size() > 0).to.equal(true);
			const again = failure(client.orders.release(created.order._id, { actorId: "1004" }));
			expect(again.kind).to.equal("service");
			expect(again.status).to.equal(409);
			expect(again.operation).to.equal("releaseOrder");

			const timeOff = must(client.timeOff.list());
			expect(timeOff.requests.size() >= 3).to.equal(true);
			const one = must(client.timeOff.get("665a00000000000000000001"));
			expect(one.request.approvalChain!.size()).to.equal(2);

			const call = must(client.calls.getMessages("call-demo"));
			expect(call.status).to.equal("open");
			expect(call.messages.size() >= 1).to.equal(true);
			expect(call.messages[0].id).to.equal("call-demo-1");

			const teams = must(client.teams.forUser("1005"));
			expect(teams.teams.size()).to.equal(2);
		});

		it("turns the service's refusals into service errors with reason and status", () => {
			const client = makeClient({ maxAttempts: 1 });
			const missing = failure(client.timeOff.get("does-not-exist"));
			expect(missing.kind).to.equal("service");
			expect(missing.status).to.equal(404);
			expect(missing.reason.size() > 0).to.equal(true);
			expect(failure(client.calls.getMessages("no-such-call")).status).to.equal(404);
			expect(failure(client.games.getRunning("no-such-game")).kind).to.equal("service");
		});

		it("refuses a wrong key without ever showing a key", () => {
			const wrong = "not-the-key-1234567";
			const client = new StaffOpsApiClient({
				baseUrl: harness.serviceUrl,
				apiKey: wrong,
				retry: { maxAttempts: 1 },
				budget: new RequestBudget({ perMinute: 1000, burst: 100 }),
			});
			const err = failure(client.timeOff.list());
			expect(err.kind).to.equal("service");
			expect(err.status).to.equal(401);
			expect(tostring(err).find(wrong, 1, true)[0]).never.to.be.ok();
		});

		it("sends the key from a Secret", () => {
			harness.http.defineSecret("staffops_live", harness.serviceKey);
			const secret = game.GetService("HttpService").GetSecret("staffops_live");
			const client = new StaffOpsApiClient({
				baseUrl: harness.serviceUrl,
				apiKey: secret,
				retry: { maxAttempts: 1 },
				budget: new RequestBudget({ perMinute: 1000, burst: 100 }),
			});
			expect(client.configError).never.to.be.ok();
			expect(must(client.teams.forUser("1001")).teams.size()).to.equal(1);
		});

		it("reports a network error when nothing listens", () => {
			const client = new StaffOpsApiClient({
				// A port Roblox allows (it refuses 9) on which nothing listens.
				baseUrl: "http://127.0.0.1:65531",
				apiKey: "k",
				retry: { maxAttempts: 1 },
				budget: new RequestBudget({ perMinute: 1000, burst: 100 }),
			});
			const err = failure(client.timeOff.list());
			expect(err.kind).to.equal("network");
			expect(err.status).to.equal(0);
		});
	});

	describe("client under every injected fault (no retries)", () => {
		let fixture: Fixture;
		beforeAll(() => {
			serviceControl.reset();
			fixture = register(makeClient({ maxAttempts: 1 }, 0.5));
		});
		afterAll(() => serviceControl.reset());

		for (const [operation, call] of CALLS) {
			describe(operation, () => {
				for (const faultCase of FAULTS) {
					const usable = faultCase.usableFor?.includes(operation) === true;
					const outcome = usable ? "a usable answer" : `${faultCase.kind} ${faultCase.status}`;
					it(`${faultCase.name} → ${outcome}`, () => {
						serviceControl.clearFaults();
						if (operation === "releaseOrder")
							prepared.orderId = must(fixture.client.orders.create(orderArgs)).order._id;
						serviceControl.fault({ operation, times: 1, ...faultCase.fault });
						if (usable) {
							const answer = must(call(fixture)) as { success: boolean };
							expect(answer.success).to.equal(true);
							return;
						}
						const err = failure(call(fixture));
						// A 2xx answer means the service acted, whatever its body; nothing else says so.
						expect(err.acted).to.equal(faultCase.status === 200 && faultCase.kind === "decode");
						if (
							err.kind !== faultCase.kind ||
							err.status !== faultCase.status ||
							err.operation !== operation
						) {
							error(
								`expected ${faultCase.kind} ${faultCase.status} for ${operation}, got ${tostring(err)}`,
							);
						}
						if (faultCase.reason !== undefined) expect(err.reason).to.equal(faultCase.reason);
					});
				}
				it("then succeeds once the fault is used up", () => {
					serviceControl.clearFaults();
					if (operation === "releaseOrder")
						prepared.orderId = must(fixture.client.orders.create(orderArgs)).order._id;
					must(call(fixture));
				});
			});
		}
	});

	describe("client retries against the reference service", () => {
		let fixture: Fixture;
		beforeAll(() => {
			serviceControl.reset();
			fixture = register(makeClient({ maxAttempts: 3, baseDelay: 0.05, maxDelay: 0.2 }, 0.5));
		});
		beforeEach(() => {
			serviceControl.clearFaults();
			serviceControl.clearRequests();
		});
		afterAll(() => serviceControl.reset());

		it("retries a 503 of a read and succeeds", () => {
			serviceControl.fault({ operation: "getTimeOff", status: 503, times: 1 });
			must(fixture.client.timeOff.get("665a00000000000000000001"));
			expect(serviceControl.count("getTimeOff")).to.equal(2);
		});

		it("honours Retry-After on a 429", () => {
			serviceControl.fault({ operation: "listTimeOff", status: 429, retryAfter: 0.4, times: 1 });
			const started = os.clock();
			must(fixture.client.timeOff.list());
			expect(os.clock() - started >= 0.4).to.equal(true);
			expect(serviceControl.count("listTimeOff")).to.equal(2);
		});

		it("does not repeat a join report after a dropped connection: its outcome is unknown", () => {
			serviceControl.fault({ operation: "playerJoin", kind: "drop", times: 1 });
			const err = failure(
				fixture.client.activity.reportJoin({
					playerId: 1002,
					safechat: false,
					username: "HeadModHana",
					tzOffset: "+00:00",
					platform: "Console",
					gameId: fixture.runningGameId,
				}),
			);
			expect(err.kind).to.equal("network");
			expect(err.mayHaveActed).to.equal(true);
			expect(serviceControl.count("playerJoin")).to.equal(1);
		});

		it("does not repeat recordHistory after a dropped connection", () => {
			serviceControl.fault({ operation: "recordHistory", kind: "drop", times: 1 });
			const err = failure(
				fixture.client.history.record({
					actioningUser: "1002",
					userId: "1005",
					reason: "drop",
					type: "writeup",
					approval_required: false,
				}),
			);
			expect(err.kind).to.equal("network");
			expect(serviceControl.count("recordHistory")).to.equal(1);
		});

		it("does not repeat createOrder after a timeout, so the order exists once", () => {
			serviceControl.fault({ operation: "createOrder", latencyMs: 1500, times: 1 });
			const err = failure(fixture.client.orders.create({ ...orderArgs, customerId: "3003" }));
			expect(err.kind).to.equal("timeout");
			task.wait(1.2);
			expect(serviceControl.count("createOrder")).to.equal(1);
			const state = serviceControl.state() as {
				workspaces: Array<{ orders: Array<{ customerId: string }> }>;
			};
			let orders = 0;
			for (const workspace of state.workspaces) {
				for (const order of workspace.orders) if (order.customerId === "3003") orders += 1;
			}
			expect(orders).to.equal(1);
		});

		it("does not repeat createOrder after a 500, but does after a 503", () => {
			serviceControl.fault({ operation: "createOrder", status: 500, times: 1 });
			const err = failure(fixture.client.orders.create(orderArgs));
			expect(err.kind).to.equal("service");
			expect(err.status).to.equal(500);
			expect(serviceControl.count("createOrder")).to.equal(1);
			serviceControl.fault({ operation: "createOrder", status: 503, times: 1 });
			must(fixture.client.orders.create(orderArgs));
			expect(serviceControl.count("createOrder")).to.equal(3);
		});

		it("repeats a release whose answer timed out, and says so when the repeat is refused", () => {
			const order = must(fixture.client.orders.create(orderArgs)).order;
			serviceControl.fault({ operation: "releaseOrder", latencyMs: 1500, times: 1 });
			const err = failure(fixture.client.orders.release(order._id, { actorId: "1004" }));
			expect(err.kind).to.equal("service");
			expect(err.status).to.equal(409);
			expect(err.message.find("earlier attempt", 1, true)[0]).to.be.ok();
			// The service logs a request when it answers: wait for the delayed first answer.
			task.wait(1.2);
			expect(serviceControl.count("releaseOrder")).to.equal(2);
		});
	});
};
