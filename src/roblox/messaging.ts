import { MessagingService } from "@rbxts/services";

/** What a subscriber's callback receives: the published `Data` and `Sent`, the Unix time it was sent. */
export interface ReceivedMessage {
	readonly Data: unknown;
	readonly Sent: number;
}

/**
 * The part of `MessagingService` StaffOps uses: publish to a topic, subscribe to one. Both yield and may throw (in
 * Studio without API access, past a limit). Specs and the harness's universe pass one per simulated server; the
 * real one is {@link robloxMessaging}.
 *
 * @example
 * ```ts
 * const messaging: MessagingLike = MessagingService;
 * ```
 * @see README#many-servers
 */
export interface MessagingLike {
	PublishAsync(topic: string, message?: unknown): void;
	SubscribeAsync(topic: string, callback: (message: ReceivedMessage) => void): RBXScriptConnection;
}

/** Roblox's own `MessagingService`. @internal */
export const robloxMessaging: MessagingLike = MessagingService as unknown as MessagingLike;

/**
 * MessagingService's documented limits (docs/roblox.md#messagingservice-limits; "subject to change"), for whoever
 * budgets messages: the cross-server feature and the bench.
 * @internal
 */
export const MESSAGING_LIMITS = {
	/** A message, as its JSON text, in bytes. */
	messageBytes: 1024,
	/** Messages one server may send a minute. */
	sentPerServer: (players: number) => 600 + 240 * players,
	/** Messages one topic may receive a minute, for the whole game. */
	receivedPerTopic: (servers: number) => 40 + 80 * servers,
	/** Messages the whole game may receive a minute. */
	receivedPerGame: (servers: number) => 400 + 200 * servers,
	/** Subscriptions one server may hold. */
	subscriptionsPerServer: (players: number) => 20 + 8 * players,
	/** Subscribe requests one server may make a minute. */
	subscribeRequestsPerServer: 240,
} as const;
