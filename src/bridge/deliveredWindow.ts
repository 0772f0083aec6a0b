import type { CallMessage } from "../api/resources/calls";
import { BoundedMap } from "./boundedMap";
import { DELIVERED_WINDOW } from "./settings";
import type { Slicer } from "./slicer";

/**
 * What one chat has already handled (delivered, or skipped: empty, or older than the opening backlog): every message
 * at or before the last handled position, plus the last {@link DELIVERED_WINDOW} ids. While the transcript keeps its
 * ids, finding where new messages start costs one comparison, however long the transcript; when it moved (messages
 * removed, ids changed) the window tells the known from the new.
 * @internal
 */
export class DeliveredWindow {
	private readonly ids = new BoundedMap<string, true>(DELIVERED_WINDOW);
	private lastId?: string;
	/** 0-based index of `lastId` in the transcript it was seen in. */
	private lastIndex = -1;

	/** Records the message at `index` (0-based) as handled; it becomes the position new messages start after. */
	mark(id: string, index: number): void {
		this.ids.set(id, true);
		this.lastId = id;
		this.lastIndex = index;
	}

	has(id: string): boolean {
		return this.ids.has(id);
	}

	/** How many ids it remembers (at most {@link DELIVERED_WINDOW}). */
	size(): number {
		return this.ids.size();
	}

	/**
	 * Where the new messages of `messages` start (0-based): after the last handled one, or 0 when nothing was handled
	 * yet. Undefined when the transcript holds no message this chat knows (it is unrecognisable: the caller treats it
	 * like a newly opened chat's). A moved transcript is searched from its end, in slices.
	 */
	startIn(messages: ReadonlyArray<CallMessage>, slicer: Slicer): number | undefined {
		const lastId = this.lastId;
		if (lastId === undefined) return 0;
		const index = this.lastIndex;
		if (index < messages.size() && messages[index].id === lastId) return index + 1;
		for (let i = messages.size() - 1; i >= 0; i--) {
			if (this.ids.has(messages[i].id)) return i + 1;
			slicer.step();
		}
		return undefined;
	}
}
