// The one message cross-server delivery publishes: a dashboard kick or notification for a player on another server.
import { HttpService } from "@rbxts/services";
import {
	DASHBOARD_ACTION_TYPES,
	MAX_ACTION_MESSAGE,
	PlayerActionType,
	QueuedAction,
} from "../../../api/resources/sync";
import { MESSAGING_LIMITS } from "../../../roblox/messaging";
import { cutToBytes } from "../../../shared/cutToBytes";

/** The topic every StaffOps server of a game subscribes to: one subscription each. @internal */
export const CROSS_SERVER_TOPIC = "StaffOpsActions";
/** The largest message published, as JSON text: under MessagingService's 1 kB, with a margin for its own framing. @internal */
export const MAX_CROSS_SERVER_BYTES = MESSAGING_LIMITS.messageBytes - 24;
/** The longest action id read back: a GUID is 36 characters. */
const MAX_ID_LENGTH = 64;

/** A kick or notify on its way to the server where its player is. @internal */
export interface CrossServerMessage {
	/** Marks StaffOps' own messages (the game may use the topic's name for nothing else, but may by mistake). */
	readonly staffops: 1;
	/** Made once by the server that passes it on: every copy the engine delivers carries it. */
	readonly id: string;
	readonly type: PlayerActionType;
	readonly userId: number;
	readonly message?: string;
}

/**
 * The message for `action`, its text shortened, if need be, to the longest start that keeps the whole message within
 * {@link MAX_CROSS_SERVER_BYTES} (a kick message shows far less than that). Undefined for a shutdown, which concerns
 * this server only.
 * @internal
 */
export function crossServerMessage(action: QueuedAction, id: string): CrossServerMessage | undefined {
	if (!DASHBOARD_ACTION_TYPES.of[action.type].forPlayer || action.userId === undefined) return undefined;
	const [kind, userId] = [action.type as PlayerActionType, action.userId];
	const build = (message?: string): CrossServerMessage => ({ staffops: 1, id, type: kind, userId, message });
	const fits = (message?: string) => HttpService.JSONEncode(build(message)).size() <= MAX_CROSS_SERVER_BYTES;
	const text = action.message;
	if (fits(text)) return build(text);
	if (text === undefined || !fits("")) return undefined;
	// Escapes make the JSON of a text longer than the text by an amount that depends on it: search the cut.
	let [low, high] = [0, text.size()];
	while (high - low > 1) {
		const middle = math.floor((low + high) / 2);
		if (fits(cutToBytes(text, middle))) low = middle;
		else high = middle;
	}
	return build(cutToBytes(text, low));
}

const isPositiveInteger = (value: unknown): value is number =>
	typeIs(value, "number") && value > 0 && value % 1 === 0 && value < math.huge;

/**
 * Reads a delivered message's `Data`; undefined when it is not StaffOps' message (another script's, a wrong shape).
 * Tolerant of extra fields.
 * @internal
 */
export function readCrossServerMessage(data: unknown): CrossServerMessage | undefined {
	if (!typeIs(data, "table")) return undefined;
	const fields = data as Partial<Record<string, unknown>>;
	const { id, userId, message } = fields;
	const kind = fields.type;
	if (fields.staffops !== 1 || !typeIs(id, "string") || id.size() === 0 || id.size() > MAX_ID_LENGTH)
		return undefined;
	if (!DASHBOARD_ACTION_TYPES.is(kind) || !DASHBOARD_ACTION_TYPES.of[kind].forPlayer) return undefined;
	if (!isPositiveInteger(userId)) return undefined;
	if (message !== undefined && (!typeIs(message, "string") || message.size() > MAX_ACTION_MESSAGE)) return undefined;
	return { staffops: 1, id, type: kind as PlayerActionType, userId, message };
}
