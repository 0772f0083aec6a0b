import { HttpService, Players } from "@rbxts/services";
import type { CallMessage } from "../api/resources/calls";
import {
	CALL_EVENTS_REMOTE,
	CallCloseReason,
	ChatClosedPayload,
	ChatOpenedPayload,
	DEFAULT_TITLE,
} from "../shared/chatProtocol";
import { HealthLog } from "../background/log";
import { ensureRemote } from "../shared/remotes";
import { Signal, SignalConnection } from "../shared/signal";
import { robloxScheduler } from "../transport/scheduler";
import { ChatHandle, ChatRegistry, Session } from "./chatRegistry";
import { ClientRequests } from "./clientRequests";
import { Delivery, truncate } from "./messageDelivery";
import { robloxTextFilter } from "../roblox/textFilter";
import { Poller } from "./poller";
import { MAX_REPLAY, pollingSettings } from "./settings";
import { frameYield } from "../shared/slicer";
import type {
	BridgeMessage,
	CallBridgeMemory,
	CallBridgeOptions,
	CallBridgeStats,
	CallChat,
	OpenChatOptions,
} from "./types";

const MAX_CALL_ID = 100;
const MAX_TITLE = 100;

/**
 * The server side of in-game support calls: game code opens a chat for a player and a call id; the bridge polls
 * the call's transcript (`GET /calls/{callId}/messages`, priority `low`) while its status is `open`, filters each
 * new message for that player with TextService and sends it to that player only, in order and exactly once, over
 * the `CallEvents` remote. It closes the chat when the call stops being open, the service no longer knows it, the
 * player leaves, the player closes the window, or game code closes it. A client never names a call: it knows a
 * chat only by an opaque `chatId`.
 *
 * Each message is filtered once for its recipient (TextService, which retries internally); when filtering fails
 * the player gets {@link MESSAGE_UNAVAILABLE}, never the unfiltered text. A poll delivers at most 20 messages; a long
 * transcript is handled in slices that give the frame back. Failed polls back off and recover; a refused key keeps the chats open
 * and polls about once a minute; an unknown call closes its chat. Polling costs about 6 requests per minute for a
 * quiet chat and 30 for a busy one, and all chats together stay within `budgetShare` of the request budget.
 *
 * @example
 * ```ts
 * const bridge = new CallBridge({ client });
 * bridge.closed.Connect((chat, reason) => print(`${chat.player.Name}'s call ended: ${reason}`));
 * const chat = bridge.open(player, "call-123", { title: "Cafe support" });
 * ```
 * @see README#support-calls
 */
export class CallBridge {
	/** A chat's first answer showed the call open; the player's window appears. */
	readonly opened = new Signal<[chat: CallChat]>();
	/** A message was delivered to the chat's player (filtered). */
	readonly message = new Signal<[chat: CallChat, message: BridgeMessage]>();
	/** A chat closed; fires once per chat, also for one that never opened (e.g. the call was already over). */
	readonly closed = new Signal<[chat: CallChat, reason: CallCloseReason]>();

	private readonly remote: RemoteEvent;
	private readonly registry = new ChatRegistry();
	private readonly poller: Poller;
	private readonly delivery: Delivery;
	private readonly requests: ClientRequests;
	private readonly busyInterval: number;
	private readonly connections = new Array<RBXScriptConnection | SignalConnection>();
	private destroyed = false;
	private deliveredCount = 0;

	/**
	 * Makes a bridge and starts listening to the `CallEvents` remote and to leaves; nothing is polled until a chat
	 * opens.
	 * @param options the client (required) and the Roblox seams
	 */
	constructor(options: CallBridgeOptions) {
		const scheduler = options.scheduler ?? robloxScheduler;
		const settings = pollingSettings(options.polling);
		this.busyInterval = settings.busyInterval;
		this.remote = options.remote ?? ensureRemote(CALL_EVENTS_REMOTE);
		const filter = options.filter ?? robloxTextFilter;
		this.delivery = new Delivery({
			filter,
			scheduler,
			// TextService's filter retries internally: its failure is final (a message is filtered once).
			filterAttempts: filter === robloxTextFilter ? 1 : settings.filterAttempts,
			yieldSlice: options.yieldSlice ?? frameYield,
			workClock: options.workClock ?? os.clock,
			send: (player, payload) => this.send(player, "message", payload),
			delivered: (chat, message) => {
				this.deliveredCount += 1;
				this.message.Fire(chat, message);
			},
		});
		this.poller = new Poller({
			client: options.client,
			scheduler,
			random: options.random ?? (() => math.random()),
			settings,
			registry: this.registry,
			delivery: this.delivery,
			health: new HealthLog(scheduler),
			opened: (session) => {
				const chat = session.chat;
				this.send(chat.player, "opened", {
					chatId: chat.chatId,
					title: chat.title,
				} satisfies ChatOpenedPayload);
				this.opened.Fire(chat);
			},
			finish: (session, reason) => this.finish(session, reason),
		});
		this.requests = new ClientRequests({
			registry: this.registry,
			scheduler,
			send: (player, kind, payload) => this.send(player, kind, payload),
			dismiss: (session) => this.finish(session, "dismissed"),
		});
		this.connections.push(
			this.remote.OnServerEvent.Connect((player, ...args) => {
				if (!this.destroyed) this.requests.handle(player, args);
			}),
			(options.players ?? Players).PlayerRemoving.Connect((player) => this.onPlayerRemoving(player)),
		);
	}

	/**
	 * Opens a chat of `callId` for `player` and starts polling at once. Opening the same call for the same player
	 * again returns the chat already open. The window appears when the first answer shows the call `open`; a call
	 * that is not open (or unknown) closes the chat without showing anything. Throws on a non-Player, an empty or
	 * over-long call id (100 characters), or a destroyed bridge.
	 *
	 * @example
	 * ```ts
	 * const chat = bridge.open(player, "call-123");
	 * task.delay(600, () => chat.close());
	 * ```
	 */
	open(player: Player, callId: string, options?: OpenChatOptions): CallChat {
		if (!typeIs(player, "Instance") || !player.IsA("Player")) error("CallBridge.open: player must be a Player", 2);
		if (!typeIs(callId, "string") || callId.size() === 0 || callId.size() > MAX_CALL_ID) {
			error(`CallBridge.open: callId must be a non-empty string of at most ${MAX_CALL_ID} characters`, 2);
		}
		if (this.destroyed) error("CallBridge.open: the bridge was destroyed", 2);
		const existing = this.registry.find(player.UserId, callId);
		if (existing !== undefined) return existing.chat;

		const title: unknown = typeIs(options, "table") ? options.title : undefined;
		const chat = new ChatHandle(
			HttpService.GenerateGUID(false),
			callId,
			player,
			typeIs(title, "string") && title.size() > 0 ? truncate(title, MAX_TITLE) : DEFAULT_TITLE,
			(handle) => this.finish(this.registry.byId(handle.chatId), "closed"),
		);
		const session = this.registry.add(chat, this.busyInterval);
		if (player.Parent === undefined) {
			this.finish(session, "left");
		} else {
			this.poller.poll(session);
		}
		return chat;
	}

	/**
	 * Opens a chat whose transcript the sync may feed (support calls of the deployed service): like {@link open}, but
	 * `fed` chats are not polled, and `hide` leaves messages out of what the player is shown.
	 * @internal
	 */
	attach(
		player: Player,
		callId: string,
		options: { title?: string; fed: boolean; hide?: (message: CallMessage) => boolean },
	): CallChat {
		const existing = this.registry.find(player.UserId, callId);
		if (existing !== undefined) return existing.chat;
		const chat = new ChatHandle(
			HttpService.GenerateGUID(false),
			callId,
			player,
			options.title !== undefined && options.title.size() > 0
				? truncate(options.title, MAX_TITLE)
				: DEFAULT_TITLE,
			(handle) => this.finish(this.registry.byId(handle.chatId), "closed"),
		);
		const session = this.registry.add(chat, this.busyInterval);
		session.fed = options.fed;
		session.hide = options.hide;
		if (player.Parent === undefined) this.finish(session, "left");
		else if (!options.fed) this.poller.poll(session);
		return chat;
	}

	/** Delivers a transcript the sync brought to a chat (status `open`/`claimed` keep it open). @internal */
	feed(chat: CallChat, status: string, messages: ReadonlyArray<CallMessage>): void {
		const session = this.registry.byId(chat.chatId);
		if (session !== undefined) this.poller.deliverFed(session, { success: true, status, messages });
	}

	/** Switches a chat between being fed by the sync and polling its transcript. @internal */
	setFed(chat: CallChat, fed: boolean): void {
		const session = this.registry.byId(chat.chatId);
		if (session === undefined || session.fed === fed) return;
		session.fed = fed;
		if (!fed) this.poller.poll(session);
	}

	/** Shows the player a message of their own (already filtered for them) in the chat, in order. @internal */
	echo(chat: CallChat, sender: string, text: string): void {
		const session = this.registry.byId(chat.chatId);
		if (session === undefined || session.chat.state === "closed") return;
		session.seq += 1;
		const payload = {
			chatId: chat.chatId,
			seq: session.seq,
			sender,
			text,
			sentAt: DateTime.now().UnixTimestampMillis / 1000,
			origin: "other" as const,
		};
		session.log.push(payload);
		if (session.log.size() > MAX_REPLAY) session.log.shift();
		this.send(chat.player, "message", payload);
	}

	/**
	 * Closes `player`'s chat of `callId`, or every chat of `player` when `callId` is omitted (reason `closed`); the
	 * player's window closes. Returns how many chats it closed.
	 *
	 * @example
	 * ```ts
	 * bridge.close(player);
	 * ```
	 */
	close(player: Player, callId?: string): number {
		if (!typeIs(player, "Instance") || !player.IsA("Player")) return 0;
		let count = 0;
		for (const session of this.registry.ofUser(player.UserId)) {
			if (callId === undefined || session.chat.callId === callId) {
				this.finish(session, "closed");
				count += 1;
			}
		}
		return count;
	}

	/** The chats not closed yet: `player`'s, or everyone's when omitted. */
	getChats(player?: Player): Array<CallChat> {
		const sessions = player !== undefined ? this.registry.ofUser(player.UserId) : this.registry.all();
		return sessions.map((session) => session.chat);
	}

	/** Counters since the bridge was made. */
	getStats(): CallBridgeStats {
		return {
			open: this.registry.size(),
			busy: this.registry.busy(),
			polls: this.poller.polls,
			failedPolls: this.poller.failedPolls,
			unknownStatuses: this.poller.unknownStatuses,
			unknownOrigins: this.delivery.unknownOrigins,
			delivered: this.deliveredCount,
			clientEvents: this.requests.events,
			clientEventsDropped: this.requests.dropped,
		};
	}

	/** What the bridge holds in memory now. @internal */
	getMemory(): CallBridgeMemory {
		const [limiterKeys, replayLimiterKeys] = this.requests.sizes();
		return { ...this.registry.memory(), limiterKeys, replayLimiterKeys };
	}

	/** Closes every chat (reason `destroyed`), stops listening to the remote and to leaves. Idempotent. */
	destroy(): void {
		if (this.destroyed) return;
		this.destroyed = true;
		for (const session of this.registry.all()) this.finish(session, "destroyed");
		for (const connection of this.connections) connection.Disconnect();
		this.connections.clear();
	}

	/** `CallBridge(2 open)`. */
	toString(): string {
		return `CallBridge(${this.registry.size()} open)`;
	}

	private finish(session: Session | undefined, reason: CallCloseReason): void {
		if (session === undefined || session.chat.state === "closed") return;
		const chat = session.chat;
		const wasOpen = chat.state === "open";
		chat.state = "closed";
		this.poller.cancel(session);
		this.registry.remove(session);
		this.poller.forget();
		if (wasOpen && reason !== "left") {
			this.send(chat.player, "closed", { chatId: chat.chatId, reason } satisfies ChatClosedPayload);
		}
		this.closed.Fire(chat, reason);
	}

	private send(player: Player, kind: "opened" | "message" | "closed", payload: object): void {
		// FireClient can throw for a player who is leaving; the chat closes through PlayerRemoving anyway.
		pcall(() => this.remote.FireClient(player, kind, payload));
	}

	private onPlayerRemoving(player: Player): void {
		const userId = player.UserId;
		this.requests.forget(userId);
		for (const session of this.registry.ofUser(userId)) this.finish(session, "left");
	}
}
