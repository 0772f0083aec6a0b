import { ChatOpenedPayload, ChatMessagePayload, readClientRequest } from "../shared/chatProtocol";
import { RateLimiter } from "../shared/rateLimiter";
import type { Scheduler } from "../transport/scheduler";
import type { ChatRegistry, Session } from "./chatRegistry";

/** What the client side of the remote needs from the bridge. @internal */
export interface ClientRequestSeams {
	readonly registry: ChatRegistry;
	readonly scheduler: Scheduler;
	readonly send: (
		player: Player,
		kind: "opened" | "message",
		payload: ChatOpenedPayload | ChatMessagePayload,
	) => void;
	/** The player closed the window. */
	readonly dismiss: (session: Session) => void;
}

/**
 * The client → server side of the `CallEvents` remote: `ready` (replay my open chats) and `dismiss` (I closed the
 * window), checked and rate-limited per player. Exploiters fire remotes with anything at any rate; a client can only
 * ask about its own chats. The limiters hold an entry only for players in the server.
 * @internal
 */
export class ClientRequests {
	events = 0;
	dropped = 0;
	// A client may fire about once a second, with a small burst; a replay (up to 100 messages per chat) far less
	// often, so a client cannot turn one small event into a flood of remote traffic.
	private readonly limiter: RateLimiter;
	private readonly replayLimiter: RateLimiter;

	constructor(private readonly ports: ClientRequestSeams) {
		this.limiter = new RateLimiter(1, 5, () => ports.scheduler.now());
		this.replayLimiter = new RateLimiter(0.1, 2, () => ports.scheduler.now());
	}

	/** Handles one event a client fired. */
	handle(player: Player, args: Array<unknown>): void {
		this.events += 1;
		// An event handled after its player left (remotes are deferred) must not give a gone player a limiter entry
		// again: PlayerRemoving already forgot it, and nothing would forget it twice.
		const present = typeIs(player, "Instance") && player.IsA("Player") && player.Parent !== undefined;
		const request = present && this.limiter.allow(player.UserId) ? readClientRequest(args) : undefined;
		if (request === undefined) {
			this.dropped += 1;
			return;
		}
		const { registry, send } = this.ports;
		if (request.kind === "ready") {
			if (!this.replayLimiter.allow(player.UserId)) {
				this.dropped += 1;
				return;
			}
			for (const session of registry.ofUser(player.UserId)) {
				const chat = session.chat;
				if (chat.state !== "open") continue;
				send(player, "opened", { chatId: chat.chatId, title: chat.title });
				for (const payload of session.log) send(player, "message", payload);
			}
			return;
		}
		const session = registry.byId(request.chatId);
		if (session !== undefined && session.userId === player.UserId) {
			this.ports.dismiss(session);
		} else {
			this.dropped += 1;
		}
	}

	/** A player left: forget their limiter entries. */
	forget(userId: number): void {
		this.limiter.forget(userId);
		this.replayLimiter.forget(userId);
	}

	/** Limiter entries held (for memory checks). */
	sizes(): [events: number, replays: number] {
		return [this.limiter.size(), this.replayLimiter.size()];
	}
}
