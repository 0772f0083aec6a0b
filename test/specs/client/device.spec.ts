import type { DeviceFacts } from "../../../src/client/report/platform";
import { clientPart, importOnClient } from "../../support/clientLibrary";
import { ClientDevice, HarnessClient, harness } from "../../support/harness";

interface ReportModule {
	readDeviceFacts: () => DeviceFacts;
	detectPlatform: (facts: DeviceFacts) => string;
	measureTzOffset: () => string | undefined;
}

/** The real `readDeviceFacts`, run in a client of the two-sided harness, so it reads the client's own services. */
function reportIn(client: HarnessClient, library: Instance): ReportModule {
	return importOnClient(client, library, "report") as ReportModule;
}

export = () => {
	let library: Instance | undefined;

	beforeEach(() => {
		library = clientPart("DeviceSpecLibrary");
	});
	afterEach(() => {
		library?.Destroy();
		harness.reset();
	});

	const facts = (device: ClientDevice, userId: number) => {
		const client = harness.clients.join(userId, undefined, device);
		const report = reportIn(client, library!);
		const read = report.readDeviceFacts();
		return { read, platform: report.detectPlatform(read), offset: report.measureTzOffset() };
	};

	describe("readDeviceFacts on a client", () => {
		// UserInputService.PreferredInput: "the primary input type a player is likely using"; GuiService's
		// ViewportDisplaySize Large "applies to most TVs or larger".
		it("reads PreferredInput and ViewportDisplaySize, not the deprecated IsTenFootInterface", () => {
			const phone = facts(
				{ touchEnabled: true, preferredInput: "Touch", displaySize: "Small", viewport: { x: 390, y: 844 } },
				2401,
			);
			expect(phone.read.preferredInput).to.equal("Touch");
			expect(phone.read.displaySize).to.equal("Small");
			expect(phone.read.touchEnabled).to.equal(true);
			expect(phone.read.viewport!.X).to.equal(390);
			expect(phone.read.tenFootInterface).to.equal(undefined);
			expect(phone.platform).to.equal("Phone");

			// The ten-foot flag says nothing here; PreferredInput and the display size decide.
			const console = facts(
				{ gamepadEnabled: true, preferredInput: "Gamepad", displaySize: "Large", tenFootInterface: false },
				2402,
			);
			expect(console.platform).to.equal("Console");
			const tablet = facts(
				{ touchEnabled: true, preferredInput: "Touch", displaySize: "Small", viewport: { x: 820, y: 1180 } },
				2403,
			);
			expect(tablet.platform).to.equal("Tablet");
			const pcWithPad = facts(
				{
					keyboardEnabled: true,
					mouseEnabled: true,
					gamepadEnabled: true,
					preferredInput: "Gamepad",
					displaySize: "Medium",
				},
				2404,
			);
			expect(pcWithPad.platform).to.equal("Desktop");
		});

		it("falls back to IsTenFootInterface on an engine without PreferredInput", () => {
			const old = facts({ gamepadEnabled: true, tenFootInterface: true }, 2405);
			expect(old.read.preferredInput).to.equal(undefined);
			expect(old.read.displaySize).to.equal(undefined);
			expect(old.read.tenFootInterface).to.equal(true);
			expect(old.platform).to.equal("Console");
			const oldPc = facts({ keyboardEnabled: true, mouseEnabled: true }, 2406);
			expect(oldPc.read.tenFootInterface).to.equal(false);
			expect(oldPc.platform).to.equal("Desktop");
		});

		it("measures the client's own timezone", () => {
			expect(facts({ keyboardEnabled: true, tzOffsetMinutes: 330 }, 2407).offset).to.equal("+05:30");
			expect(facts({ keyboardEnabled: true, tzOffsetMinutes: -300 }, 2408).offset).to.equal("-05:00");
		});
	});
};
