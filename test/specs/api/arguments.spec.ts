import { StaffOpsApiClient } from "../../../src/api/apiClient";
import { RequestBudget } from "../../../src/transport/budget";
import { StaffOpsError } from "../../../src/transport/staffOpsError";
import { FakeHttp, FakeScheduler } from "../../support/fakes";

const goodJoin = {
	playerId: 1001,
	safechat: false,
	username: "CafeOwner",
	tzOffset: "+02:00",
	platform: "Desktop" as const,
	gameId: "r1",
};
const goodOrder = {
	customerId: "1",
	cashierId: "2",
	items: [{ item: "Latte", quantity: 2 }],
	placeId: "10",
	gameId: "20",
};
const goodHistory = {
	actioningUser: "1002",
	userId: "1005",
	reason: "late",
	type: "writeup" as const,
	approval_required: false,
};
const goodServer = {
	gameId: 0,
	placeId: 1,
	jobId: "",
	privateServerId: "",
	privateServerOwnerId: 0,
	placeVersion: "7",
};

export = () => {
	describe("client: arguments are checked before sending", () => {
		const clock = new FakeScheduler();
		const http = new FakeHttp(clock);
		const client = new StaffOpsApiClient(
			{ baseUrl: "https://staff.example.com", apiKey: "k", budget: new RequestBudget({}, clock) },
			{ http, scheduler: clock },
		);

		/** Calls `run` and asserts an `invalid` error for `operation` whose message mentions `field`. */
		function refused(operation: string, field: string, run: () => Promise<unknown>) {
			const before = http.seen.size();
			const [ok, err] = run().await();
			expect(ok).to.equal(false);
			expect(StaffOpsError.is(err)).to.equal(true);
			const typed = err as StaffOpsError;
			if (
				typed.kind !== "invalid" ||
				typed.operation !== operation ||
				typed.message.find(field, 1, true)[0] === undefined
			) {
				error(`expected invalid ${operation} naming ${field}, got ${tostring(err)}`);
			}
			expect(typed.status).to.equal(0);
			expect(http.seen.size()).to.equal(before);
		}

		const cast = <T>(value: unknown) => value as T;

		it("recordHistory", () => {
			refused("recordHistory", "type", () => client.history.record({ ...goodHistory, type: cast("demotion") }));
			refused("recordHistory", "actioningUser", () =>
				client.history.record({ ...goodHistory, actioningUser: "" }),
			);
			refused("recordHistory", "approval_required", () =>
				client.history.record(cast({ ...goodHistory, approval_required: undefined })),
			);
			refused("recordHistory", "expiresInDays", () =>
				client.history.record({ ...goodHistory, expiresInDays: 0 / 0 }),
			);
			refused("recordHistory", "expiresInDays", () =>
				client.history.record({ ...goodHistory, expiresInDays: math.huge }),
			);
			refused("recordHistory", "userId", () => client.history.record(cast({ ...goodHistory, userId: 1005 })));
			refused("recordHistory", "approvalRequired", () =>
				client.history.record(cast({ ...goodHistory, approvalRequired: true })),
			);
			refused("recordHistory", "table", () => client.history.record(cast("nope")));
		});

		it("createServer", () => {
			refused("createServer", "gameId", () => client.activity.registerServer({ ...goodServer, gameId: 1.5 }));
			refused("createServer", "placeId", () => client.activity.registerServer({ ...goodServer, placeId: -1 }));
			refused("createServer", "placeVersion", () =>
				client.activity.registerServer(cast({ ...goodServer, placeVersion: 7 })),
			);
		});

		it("playerJoin", () => {
			refused("playerJoin", "platform", () =>
				client.activity.reportJoin({ ...goodJoin, platform: cast("Unknown") }),
			);
			refused("playerJoin", "tzOffset", () => client.activity.reportJoin({ ...goodJoin, tzOffset: "+2:00" }));
			refused("playerJoin", "tzOffset", () => client.activity.reportJoin({ ...goodJoin, tzOffset: "+25:00" }));
			refused("playerJoin", "playerId", () => client.activity.reportJoin({ ...goodJoin, playerId: 0 }));
			refused("playerJoin", "gameId", () => client.activity.reportJoin(cast({ ...goodJoin, gameId: undefined })));
			refused("playerJoin", "safechat", () => client.activity.reportJoin(cast({ ...goodJoin, safechat: "yes" })));
		});

		it("getActivity, getRunningGame, getTimeOff, getCallMessages, getUserTeams (path values)", () => {
			refused("getActivity", "userId", () => client.activity.getUserActivity(""));
			refused("getActivity", "userId", () => client.activity.getUserActivity(cast(1001)));
			refused("getRunningGame", "internalGameId", () => client.games.getRunning(cast(undefined)));
			refused("getTimeOff", "requestId", () => client.timeOff.get(string.rep("x", 1100)));
			refused("getCallMessages", "callId", () => client.calls.getMessages("a\nb"));
			refused("getUserTeams", "userId", () => client.teams.forUser(cast({})));
		});

		it("createOrder and releaseOrder", () => {
			refused("createOrder", "items", () => client.orders.create({ ...goodOrder, items: [] }));
			refused("createOrder", "items", () =>
				client.orders.create({ ...goodOrder, items: [{ item: "Latte", quantity: 0 }] }),
			);
			refused("createOrder", "items", () =>
				client.orders.create(cast({ ...goodOrder, items: [{ item: "Latte" }] })),
			);
			refused("createOrder", "customerId", () => client.orders.create({ ...goodOrder, customerId: "" }));
			refused("releaseOrder", "orderId", () => client.orders.release("", { actorId: "1" }));
			refused("releaseOrder", "actorId", () => client.orders.release("o1", cast({})));
		});

		it("listHistory and listTimeOff refuse a bad priority option", () => {
			refused("listHistory", "priority", () => client.history.list(cast({ priority: "critical" })));
			refused("listTimeOff", "priority", () => client.timeOff.list(cast({ priority: 1 })));
		});
	});
};
