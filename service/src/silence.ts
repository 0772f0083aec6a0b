import { deleteServer } from "./profiles/deployed-presence.js";
import { forgetServer } from "./resources/running-games.js";
import type { Store } from "./store.js";

/**
 * Removes every server silent for longer than the silence limit: the default profile forgets it, the deployed
 * one deletes it. Run on every request (operations and control alike), so nothing can observe a server that
 * should be gone; the removal is stamped at the moment the limit ran out, not when it was noticed, so the
 * result is the same as with a timer.
 */
export function removeSilentServers(store: Store, now: number): void {
	for (const ws of store.workspaces()) {
		for (const [internalGameId, server] of ws.servers) {
			if (now - server.lastPingMs <= store.forgetAfterMs) continue;
			const atMs = server.lastPingMs + store.forgetAfterMs;
			if (store.profile === "deployed") deleteServer(ws, internalGameId, "silence", atMs);
			else forgetServer(ws, internalGameId, "silence", atMs);
		}
	}
}

/** `POST /_control/forget`: the same removal as silence, at once. */
export function removeServerNow(store: Store, internalGameId: string, now: number): boolean {
	return store
		.workspaces()
		.some((ws) =>
			store.profile === "deployed"
				? deleteServer(ws, internalGameId, "forget", now)
				: forgetServer(ws, internalGameId, "forget", now),
		);
}
