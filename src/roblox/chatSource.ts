import { TextChatService } from "@rbxts/services";

/** Connects to one player's chat lines (chat logging); the line is the text as the server got it. @internal */
export type ChatSource = (player: Player, handler: (message: string) => void) => RBXScriptConnection;

/**
 * How many message ids are remembered: `ShouldDeliverCallback` runs once per receiver of one message, and the line is
 * logged once. Far more than the receivers of one message ever interleave with other messages.
 */
const SEEN_IDS = 512;

type LineHandler = (message: string) => void;

const handlers = new Map<number, Set<{ readonly handler: LineHandler }>>();
const seen = new Set<string>();
const seenOrder = new Array<string>();
let hooked = false;

/** Whether this place runs the legacy chat (`TextChatService.ChatVersion`; absent or unreadable: TextChatService). */
function usesLegacyChat(): boolean {
	const [ok, version] = pcall(() => TextChatService.ChatVersion);
	return ok && version === Enum.ChatVersion.LegacyChatService;
}

/** Remembers `id`; false when it was seen already. */
function firstSight(id: string): boolean {
	if (seen.has(id)) return false;
	seen.add(id);
	seenOrder.push(id);
	if (seenOrder.size() > SEEN_IDS) seen.delete(seenOrder.shift()!);
	return true;
}

/** One message reached the server in a TextChannel: hands its text to the sender's handlers, once per message. */
function received(message: TextChatMessage): void {
	const sender = message.TextSource;
	const text = message.Text;
	if (sender === undefined || !typeIs(text, "string") || text === "") return;
	if (!firstSight(message.MessageId)) return;
	const listening = handlers.get(sender.UserId);
	if (listening === undefined) return;
	// The callback must not yield (docs/roblox.md#textchatservice-chat-on-the-server): handlers run in their own thread.
	for (const { handler } of listening) task.spawn(handler, text);
}

/** Hears every message of `channel` without changing who gets it. */
function hear(channel: Instance): void {
	if (!channel.IsA("TextChannel")) return;
	channel.ShouldDeliverCallback = (message) => {
		received(message);
		return true;
	};
}

/** Hooks every TextChannel of TextChatService, now and when one is added (team and whisper channels come later). */
function hookTextChannels(): void {
	if (hooked) return;
	hooked = true;
	for (const item of TextChatService.GetDescendants()) hear(item);
	TextChatService.DescendantAdded.Connect(hear);
}

/**
 * A player's chat lines from the place's chat system, each once: under TextChatService from its only server-side
 * hook, each TextChannel's `ShouldDeliverCallback` (set when the first handler connects, so only a game that logs
 * chat has it set); under the legacy chat (`ChatVersion` `LegacyChatService`) from `Player.Chatted`. Never both, so
 * no message is logged twice.
 * @see README#staff-activity
 * @internal
 */
export const chatLines: ChatSource = (player, handler) => {
	if (usesLegacyChat()) return player.Chatted.Connect((message) => handler(message));
	hookTextChannels();
	const userId = player.UserId;
	const own = handlers.get(userId) ?? new Set<{ readonly handler: LineHandler }>();
	handlers.set(userId, own);
	const entry = { handler };
	const connection = {
		Connected: true,
		Disconnect() {
			connection.Connected = false;
			own.delete(entry);
			if (own.isEmpty() && handlers.get(userId) === own) handlers.delete(userId);
		},
	};
	own.add(entry);
	return connection as unknown as RBXScriptConnection;
};
