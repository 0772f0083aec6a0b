import {
	buildClientReport,
	detectPlatform,
	DeviceFacts,
	formatOffset,
	measureTzOffset,
	offsetMinutes,
	sendClientReport,
} from "../../../src/client/report";
import { resetClientPartsForTests } from "../../../src/client/clientPart";
import { isClientReportPayload, isTzOffset } from "../../../src/shared/reportPayload";
import { harness } from "../../support/harness";

function device(overrides: Partial<DeviceFacts>): DeviceFacts {
	return {
		touchEnabled: false,
		keyboardEnabled: false,
		mouseEnabled: false,
		gamepadEnabled: false,
		tenFootInterface: false,
		...overrides,
	};
}

const touch = { touchEnabled: true };

// The client's platform + timezone reporter: pure functions with injected inputs, every branch.
export = () => {
	afterEach(() => resetClientPartsForTests());

	describe("detectPlatform", () => {
		it("calls a ten-foot interface a Console, whatever else it has", () => {
			expect(detectPlatform(device({ tenFootInterface: true, gamepadEnabled: true }))).to.equal("Console");
			expect(detectPlatform(device({ tenFootInterface: true, keyboardEnabled: true }))).to.equal("Console");
		});

		it("tells phones from tablets by the viewport's shorter side, in either orientation", () => {
			expect(detectPlatform(device({ ...touch, viewport: new Vector2(390, 844) }))).to.equal("Phone");
			expect(detectPlatform(device({ ...touch, viewport: new Vector2(844, 390) }))).to.equal("Phone");
			expect(detectPlatform(device({ ...touch, viewport: new Vector2(599, 1000) }))).to.equal("Phone");
			expect(detectPlatform(device({ ...touch, viewport: new Vector2(600, 1000) }))).to.equal("Tablet");
			expect(detectPlatform(device({ ...touch, viewport: new Vector2(1024, 768) }))).to.equal("Tablet");
			expect(
				detectPlatform(device({ ...touch, gamepadEnabled: true, viewport: new Vector2(390, 844) })),
			).to.equal("Phone");
		});

		it("says unknown for a touch device without a usable viewport", () => {
			expect(detectPlatform(device({ ...touch }))).to.equal("unknown");
			expect(detectPlatform(device({ ...touch, viewport: new Vector2(1, 1) }))).to.equal("unknown");
			expect(detectPlatform(device({ ...touch, viewport: { X: 0 / 0, Y: 800 } }))).to.equal("unknown");
			expect(detectPlatform(device({ ...touch, viewport: { X: math.huge, Y: 800 } }))).to.equal("unknown");
		});

		it("calls keyboard or mouse a Desktop, touch laptops included", () => {
			expect(detectPlatform(device({ keyboardEnabled: true, mouseEnabled: true }))).to.equal("Desktop");
			expect(detectPlatform(device({ mouseEnabled: true }))).to.equal("Desktop");
			expect(detectPlatform(device({ keyboardEnabled: true }))).to.equal("Desktop");
			expect(
				detectPlatform(
					device({ ...touch, keyboardEnabled: true, mouseEnabled: true, viewport: new Vector2(1366, 768) }),
				),
			).to.equal("Desktop");
			expect(detectPlatform(device({ keyboardEnabled: true, gamepadEnabled: true }))).to.equal("Desktop");
		});

		it("calls a gamepad on a large display a Console, keyboard or not; on a smaller one with a keyboard, a Desktop", () => {
			const pad = { gamepadEnabled: true, preferredInput: "Gamepad" };
			expect(detectPlatform(device({ ...pad, displaySize: "Large" }))).to.equal("Console");
			expect(detectPlatform(device({ ...pad, displaySize: "Large", keyboardEnabled: true }))).to.equal("Console");
			expect(detectPlatform(device({ ...pad, displaySize: "Medium", keyboardEnabled: true }))).to.equal(
				"Desktop",
			);
			expect(detectPlatform(device({ ...pad, displaySize: "Medium" }))).to.equal("Console");
		});

		it("calls a gamepad alone a Console, and nothing at all unknown", () => {
			expect(detectPlatform(device({ gamepadEnabled: true }))).to.equal("Console");
			expect(detectPlatform(device({}))).to.equal("unknown");
		});
	});

	describe("timezone offset", () => {
		it("measures the offset from the local and UTC fields of one moment", () => {
			const utc = { year: 2024, month: 6, day: 1, hour: 12, min: 0 };
			expect(offsetMinutes({ year: 2024, month: 6, day: 1, hour: 7, min: 0 }, utc)).to.equal(-300);
			expect(offsetMinutes({ year: 2024, month: 6, day: 1, hour: 17, min: 45 }, utc)).to.equal(345);
			expect(offsetMinutes({ year: 2024, month: 6, day: 1, hour: 12, min: 0 }, utc)).to.equal(0);
		});

		it("crosses day, month, year and leap-day boundaries", () => {
			expect(
				offsetMinutes(
					{ year: 2025, month: 1, day: 1, hour: 0, min: 30 },
					{ year: 2024, month: 12, day: 31, hour: 19, min: 30 },
				),
			).to.equal(300);
			expect(
				offsetMinutes(
					{ year: 2024, month: 2, day: 29, hour: 22, min: 0 },
					{ year: 2024, month: 3, day: 1, hour: 10, min: 0 },
				),
			).to.equal(-720);
			expect(
				offsetMinutes(
					{ year: 2024, month: 3, day: 1, hour: 13, min: 0 },
					{ year: 2024, month: 2, day: 29, hour: 23, min: 0 },
				),
			).to.equal(840);
			expect(
				offsetMinutes(
					{ year: 2023, month: 4, day: 1, hour: 4, min: 0 },
					{ year: 2023, month: 3, day: 31, hour: 23, min: 0 },
				),
			).to.equal(300);
		});

		it("refuses offsets beyond ±14:00 and unusable fields", () => {
			const utc = { year: 2024, month: 6, day: 1, hour: 0, min: 0 };
			expect(offsetMinutes({ year: 2024, month: 6, day: 1, hour: 14, min: 1 }, utc)).to.equal(undefined);
			expect(offsetMinutes({ year: 2024, month: 6, day: 3, hour: 0, min: 0 }, utc)).to.equal(undefined);
			expect(offsetMinutes({ year: 0 / 0, month: 6, day: 1 }, utc)).to.equal(undefined);
			expect(offsetMinutes({ year: 2024, month: 6, day: 1.5 }, utc)).to.equal(undefined);
		});

		it("formats ±HH:MM", () => {
			expect(formatOffset(0)).to.equal("+00:00");
			expect(formatOffset(-300)).to.equal("-05:00");
			expect(formatOffset(345)).to.equal("+05:45");
			expect(formatOffset(-30)).to.equal("-00:30");
			expect(formatOffset(-570)).to.equal("-09:30");
			expect(formatOffset(840)).to.equal("+14:00");
			expect(formatOffset(-720)).to.equal("-12:00");
			expect(formatOffset(841)).to.equal(undefined);
			expect(formatOffset(1.5)).to.equal(undefined);
			expect(formatOffset(0 / 0)).to.equal(undefined);
			expect(formatOffset(undefined)).to.equal(undefined);
		});

		it("measures this machine's offset in the form the server accepts", () => {
			const offset = measureTzOffset();
			expect(offset).to.be.ok();
			expect(isTzOffset(offset)).to.equal(true);
			expect(isTzOffset(measureTzOffset(0))).to.equal(true);
		});
	});

	describe("the report", () => {
		it("builds a payload the server accepts, with fallbacks when reading fails", () => {
			const payload = buildClientReport({
				readDevice: () => device({ ...touch, viewport: new Vector2(390, 844) }),
				measureOffset: () => "+05:30",
			});
			expect(payload.platform).to.equal("Phone");
			expect(payload.tzOffset).to.equal("+05:30");
			expect(isClientReportPayload(payload)).to.equal(true);

			const fallback = buildClientReport({
				readDevice: () => error("no UserInputService"),
				measureOffset: () => error("no clock"),
			});
			expect(fallback.platform).to.equal("unknown");
			expect(fallback.tzOffset).to.equal("-00:00");

			const odd = buildClientReport({
				readDevice: () => device({ keyboardEnabled: true }),
				measureOffset: () => "+99:00",
			});
			expect(odd.platform).to.equal("Desktop");
			expect(odd.tzOffset).to.equal("-00:00");
		});

		it("sends once per client", () => {
			const sent = new Array<defined>();
			const options = {
				send: (payload: defined) => sent.push(payload),
				readDevice: () => device({ keyboardEnabled: true }),
				measureOffset: () => "-04:00",
			};
			expect(sendClientReport(options)).to.equal(true);
			expect(sendClientReport(options)).to.equal(false);
			expect(sent.size()).to.equal(1);
			const payload = sent[0] as { platform: string; tzOffset: string };
			expect(payload.platform).to.equal("Desktop");
			expect(payload.tzOffset).to.equal("-04:00");
		});

		it("never throws: a failing send warns and returns false", () => {
			harness.clearOutput();
			const result = sendClientReport({ send: () => error("remote gone") });
			expect(result).to.equal(false);
			const warned = harness.output().filter((line) => line.kind === "warn");
			expect(warned.size()).to.equal(1);
			expect(warned[0].text.find("[StaffOps] the client report could not be sent", 1, true)[0]).to.equal(1);
		});

		it("gives up with a warning when the server's remotes never appear", () => {
			harness.clearOutput();
			const empty = new Instance("Folder");
			expect(sendClientReport({ remotesParent: empty, remotesTimeout: 0.05 })).to.equal(false);
			const warned = harness.output().filter((line) => line.kind === "warn");
			expect(warned.size()).to.equal(1);
		});
	});

	describe("the server's check of a payload", () => {
		it("accepts exactly { platform, tzOffset } with allowed values", () => {
			for (const platform of ["Phone", "Tablet", "Console", "Desktop", "unknown"]) {
				expect(isClientReportPayload({ platform, tzOffset: "+00:00" })).to.equal(true);
			}
			expect(isClientReportPayload({ platform: "Phone", tzOffset: "-14:00" })).to.equal(true);
			expect(isClientReportPayload({ platform: "Phone", tzOffset: "+05:45" })).to.equal(true);
			expect(isClientReportPayload({ platform: "Phone", tzOffset: "+14:01" })).to.equal(false);
			expect(isClientReportPayload({ platform: "Phone", tzOffset: "+00:00", x: 1 })).to.equal(false);
			expect(isClientReportPayload({ platform: "Phone" })).to.equal(false);
			expect(isClientReportPayload(setmetatable({ platform: "Phone", tzOffset: "+00:00" }, {}))).to.equal(false);
		});
	});
};
