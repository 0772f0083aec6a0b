import { GuiService, ReplicatedStorage, UserInputService, Workspace } from "@rbxts/services";
import { waitForRemote } from "../../shared/remotes";
import { ClientReportPayload, isClientReportPayload, isTzOffset, UNKNOWN_TZ_OFFSET } from "../../shared/reportPayload";
import { detectPlatform, DeviceFacts } from "./platform";
import { measureTzOffset } from "./timezone";
import { ClientPart } from "../clientPart";

export type { ClientReportPayload } from "../../shared/reportPayload";
export { UNKNOWN_TZ_OFFSET } from "../../shared/reportPayload";
export { detectPlatform } from "./platform";
export type { DeviceFacts } from "./platform";
export { formatOffset, measureTzOffset, offsetMinutes } from "./timezone";
export type { ClockFields } from "./timezone";

/**
 * Seams of the client reporter; every field defaults to the real thing. Specs pass fakes.
 *
 * @example
 * ```ts
 * sendClientReport({ send: (payload) => print(payload.platform) });
 * ```
 * @see README#game-integration
 */
export interface ClientReportOptions {
	/** Where the server's remotes folder is; default `ReplicatedStorage`. */
	readonly remotesParent?: Instance;
	/** Seconds to wait for the server's remotes; default 60. */
	readonly remotesTimeout?: number;
	/** Sends the payload; default fires the `ClientReport` remote. */
	readonly send?: (payload: ClientReportPayload) => void;
	/** Reads the device's facts; default reads `UserInputService`, `GuiService` and the current camera. */
	readonly readDevice?: () => DeviceFacts;
	/** Measures the timezone offset; default {@link measureTzOffset}. */
	readonly measureOffset?: () => string | undefined;
}

/** The name of an EnumItem-valued member read in `pcall`; undefined when the member is missing (older engines). */
function enumName(read: () => unknown): string | undefined {
	const [ok, item] = pcall(read);
	if (!ok || item === undefined) return undefined;
	const [named, name] = pcall(() => (item as EnumItem).Name);
	return named && typeIs(name, "string") ? name : undefined;
}

/**
 * Reads this client's {@link DeviceFacts} from `UserInputService` (input kinds, `PreferredInput`), `GuiService`
 * (`ViewportDisplaySize`) and `Workspace.CurrentCamera`. `GuiService:IsTenFootInterface()`, deprecated for console
 * detection, is asked only when `PreferredInput` is missing.
 *
 * @example
 * ```ts
 * const platform = detectPlatform(readDeviceFacts());
 * ```
 * @see README#game-integration
 */
export function readDeviceFacts(): DeviceFacts {
	const camera = Workspace.CurrentCamera;
	const preferredInput = enumName(() => UserInputService.PreferredInput);
	let tenFootInterface: boolean | undefined;
	if (preferredInput === undefined) {
		const [ok, tenFoot] = pcall(() => GuiService.IsTenFootInterface());
		tenFootInterface = ok && tenFoot === true;
	}
	return {
		touchEnabled: UserInputService.TouchEnabled,
		keyboardEnabled: UserInputService.KeyboardEnabled,
		mouseEnabled: UserInputService.MouseEnabled,
		gamepadEnabled: UserInputService.GamepadEnabled,
		preferredInput,
		displaySize: enumName(() => GuiService.ViewportDisplaySize),
		tenFootInterface,
		viewport: camera !== undefined ? camera.ViewportSize : undefined,
	};
}

/**
 * Builds this client's report: platform from the device (see `detectPlatform`), offset from the clock; both fall
 * back (`unknown`, {@link UNKNOWN_TZ_OFFSET}) rather than fail.
 *
 * @example
 * ```ts
 * const { platform, tzOffset } = buildClientReport();
 * ```
 * @see README#game-integration
 */
export function buildClientReport(options: ClientReportOptions = {}): ClientReportPayload {
	const [deviceOk, facts] = pcall(options.readDevice ?? readDeviceFacts);
	const [platformOk, platform] = pcall(() => (deviceOk ? detectPlatform(facts) : "unknown"));
	const [offsetOk, offset] = pcall(options.measureOffset ?? (() => measureTzOffset()));
	const payload: ClientReportPayload = {
		platform: platformOk ? platform : "unknown",
		tzOffset: offsetOk && isTzOffset(offset) ? offset : UNKNOWN_TZ_OFFSET,
	};
	return isClientReportPayload(payload) ? payload : { platform: "unknown", tzOffset: UNKNOWN_TZ_OFFSET };
}

// Once per client, sent or not: a report that found no remotes is not tried again.
const part = new ClientPart(
	(options: ClientReportOptions): [started: boolean, result: boolean] => {
		const payload = buildClientReport(options);
		let send = options.send;
		if (send === undefined) {
			const [ok, remote] = pcall(() =>
				waitForRemote("ClientReport", options.remotesParent ?? ReplicatedStorage, options.remotesTimeout ?? 60),
			);
			if (!ok || remote === undefined) {
				warn("[StaffOps] the server's remotes never appeared; the client report was not sent");
				return [true, false];
			}
			send = (value) => remote.FireServer(value);
		}
		const [sent, problem] = pcall(send, payload);
		if (!sent) warn(`[StaffOps] the client report could not be sent: ${tostring(problem)}`);
		return [true, sent];
	},
	() => false,
);

/**
 * Sends this client's platform and timezone offset to the server, once per client: later calls do nothing and
 * return false. Yields while it waits for the server's remotes (up to `remotesTimeout`); returns whether the
 * report went out. Never throws. Most games call {@link startClientReport} instead, which does not yield.
 *
 * @example
 * ```ts
 * // in a LocalScript
 * const sent = sendClientReport();
 * ```
 * @see README#game-integration
 */
export function sendClientReport(options: ClientReportOptions = {}): boolean {
	return part.start(options);
}

/**
 * Starts the client reporter in its own thread and returns at once: the client's platform and timezone offset go
 * to the server once the server's remotes exist. roblox-ts games call it from their client code; the drop-in model
 * delivers a LocalScript that calls it.
 *
 * @example
 * ```ts
 * // src/client/main.client.ts
 * import { startClientReport } from "@rbxts/staffops";
 * startClientReport();
 * ```
 * @see README#game-integration
 */
export function startClientReport(options: ClientReportOptions = {}): void {
	task.spawn(() => sendClientReport(options));
}
