import type { Platform } from "../../api/types";

/**
 * What a client knows about its device: input kinds from `UserInputService`, `GuiService:IsTenFootInterface()` and
 * the camera's viewport. {@link detectPlatform} turns these into a platform.
 *
 * @example
 * ```ts
 * detectPlatform({ touchEnabled: true, keyboardEnabled: false, mouseEnabled: false, gamepadEnabled: false,
 * 	tenFootInterface: false, viewport: new Vector2(390, 844) }); // "Phone"
 * ```
 * @see README#game-integration
 */
export interface DeviceFacts {
	readonly touchEnabled: boolean;
	readonly keyboardEnabled: boolean;
	readonly mouseEnabled: boolean;
	readonly gamepadEnabled: boolean;
	/** `GuiService:IsTenFootInterface()`: true on consoles. */
	readonly tenFootInterface: boolean;
	/** The camera's viewport size in pixels; undefined when there is no camera yet. */
	readonly viewport?: { readonly X: number; readonly Y: number };
}

/**
 * The shorter side of the viewport, in pixels, from which a touch-only device counts as a tablet (phones in either
 * orientation stay under it; an iPad mini's shorter side is 744).
 * @internal
 */
export const TABLET_MIN_SHORT_SIDE = 600;

/**
 * The platform the Staff Operations Service expects, from a device's facts:
 *
 * - a ten-foot interface is a `Console`;
 * - touch without keyboard or mouse is a `Tablet` when the viewport's shorter side is at least 600 pixels, else a
 *   `Phone` (`unknown` without a usable viewport);
 * - a keyboard or a mouse is a `Desktop`;
 * - a gamepad alone is a `Console`;
 * - anything else is `unknown`.
 *
 * @example
 * ```ts
 * const platform = detectPlatform(readDeviceFacts());
 * ```
 * @see README#game-integration
 */
export function detectPlatform(facts: DeviceFacts): Platform {
	if (facts.tenFootInterface) return "Console";
	if (facts.touchEnabled && !facts.keyboardEnabled && !facts.mouseEnabled) {
		const viewport = facts.viewport;
		// A camera that has not sized itself yet reports 1x1; NaN fails both comparisons.
		if (viewport === undefined || !(viewport.X > 1 && viewport.Y > 1)) return "unknown";
		if (viewport.X === math.huge || viewport.Y === math.huge) return "unknown";
		return math.min(viewport.X, viewport.Y) >= TABLET_MIN_SHORT_SIDE ? "Tablet" : "Phone";
	}
	if (facts.keyboardEnabled || facts.mouseEnabled) return "Desktop";
	if (facts.gamepadEnabled) return "Console";
	return "unknown";
}
