import type { Platform } from "../../shared/reportPayload";

/**
 * What a client knows about its device: input kinds from `UserInputService` (with `PreferredInput`), the viewport's
 * size class from `GuiService.ViewportDisplaySize`, and the camera's viewport. {@link detectPlatform} turns these
 * into a platform. `tenFootInterface` (the deprecated `GuiService:IsTenFootInterface()`) is read only where the newer
 * members are missing.
 *
 * @example
 * ```ts
 * detectPlatform({ touchEnabled: true, keyboardEnabled: false, mouseEnabled: false, gamepadEnabled: false,
 * 	preferredInput: "Touch", viewport: new Vector2(390, 844) }); // "Phone"
 * ```
 * @see README#game-integration
 */
export interface DeviceFacts {
	readonly touchEnabled: boolean;
	readonly keyboardEnabled: boolean;
	readonly mouseEnabled: boolean;
	readonly gamepadEnabled: boolean;
	/**
	 * `UserInputService.PreferredInput` by name (`KeyboardAndMouse`, `Gamepad`, `Touch`, `MicroGamepad`); undefined
	 * where the engine has no such member.
	 */
	readonly preferredInput?: string;
	/** `GuiService.ViewportDisplaySize` by name (`Small`, `Medium`, `Large`); undefined where missing. */
	readonly displaySize?: string;
	/** `GuiService:IsTenFootInterface()` (deprecated): the fallback when `preferredInput` is missing. */
	readonly tenFootInterface?: boolean;
	/** The camera's viewport size in pixels; undefined when there is no camera yet. */
	readonly viewport?: { readonly X: number; readonly Y: number };
}

/**
 * The shorter side of the viewport, in pixels, from which a touch-only device counts as a tablet (phones in either
 * orientation stay under it; an iPad mini's shorter side is 744).
 * @internal
 */
export const TABLET_MIN_SHORT_SIDE = 600;

function touchPlatform(facts: DeviceFacts): Platform {
	const viewport = facts.viewport;
	// A camera that has not sized itself yet reports 1x1; NaN fails both comparisons.
	if (viewport === undefined || !(viewport.X > 1 && viewport.Y > 1)) return "unknown";
	if (viewport.X === math.huge || viewport.Y === math.huge) return "unknown";
	return math.min(viewport.X, viewport.Y) >= TABLET_MIN_SHORT_SIDE ? "Tablet" : "Phone";
}

/**
 * The platform the Staff Operations Service expects, from a device's facts. With `PreferredInput` (current
 * engines):
 *
 * - `Touch` is a `Tablet` when the viewport's shorter side is at least 600 pixels, else a `Phone` (`unknown` without a
 *   usable viewport);
 * - `Gamepad` or `MicroGamepad` on a `Large` display ("most TVs or larger") is a `Console`; a gamepad on a smaller
 *   display is a `Desktop` when a keyboard or mouse is there too, else a `Console`;
 * - `KeyboardAndMouse` is a `Desktop`.
 *
 * Without it (older engines), the deprecated ten-foot flag decides: a ten-foot interface is a `Console`; touch
 * without keyboard or mouse is a tablet or phone as above; a keyboard or a mouse is a `Desktop`; a gamepad alone is a
 * `Console`. Anything else is `unknown`.
 *
 * @example
 * ```ts
 * const platform = detectPlatform(readDeviceFacts());
 * ```
 * @see README#game-integration
 */
export function detectPlatform(facts: DeviceFacts): Platform {
	const preferred = facts.preferredInput;
	if (preferred === "Touch") return touchPlatform(facts);
	if (preferred === "Gamepad" || preferred === "MicroGamepad") {
		if (facts.displaySize === "Large") return "Console";
		return facts.keyboardEnabled || facts.mouseEnabled ? "Desktop" : "Console";
	}
	if (preferred === "KeyboardAndMouse") return "Desktop";
	if (facts.tenFootInterface === true) return "Console";
	if (facts.touchEnabled && !facts.keyboardEnabled && !facts.mouseEnabled) return touchPlatform(facts);
	if (facts.keyboardEnabled || facts.mouseEnabled) return "Desktop";
	if (facts.gamepadEnabled) return "Console";
	return "unknown";
}
