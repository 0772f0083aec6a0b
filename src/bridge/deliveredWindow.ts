import { BoundedMap } from "./boundedMap";
import { DELIVERED_WINDOW } from "./settings";

/** A message the window vouches for, with its position in the transcript (oldest end first) when last seen. */
interface Horizon {
	readonly id: string;
	index: number;
}

/**
 * What one chat has already handled, by id, not by position: the last {@link DELIVERED_WINDOW} ids it delivered,
 * and a horizon, the newest message it no longer remembers (pushed out of the window, or skipped as the opening
 * backlog). A message is new when its id is not in the window and it comes after the horizon; so a message the
 * service inserts before one already delivered is still new, and the memory stays bounded however long the chat.
 * Positions count from the transcript's oldest end: a transcript listed newest first is read the other way.
 * @internal
 */
export class DeliveredWindow {
	/** Id → its position (oldest end first) when it was handled. */
	private readonly ids = new BoundedMap<string, number>(DELIVERED_WINDOW);
	/** Undefined while nothing was skipped or forgotten: then every id not in the window is new. */
	horizon?: Horizon;
	/** Whether the last transcript read listed its newest message first. */
	newestFirst = false;

	/** Records a handled message at `index` (oldest end first); the id it pushes out becomes the horizon. */
	mark(id: string, index: number): void {
		const forgotten = this.ids.set(id, index);
		if (forgotten !== undefined) this.horizon = { id: forgotten[0], index: forgotten[1] };
	}

	/** Everything up to and including the message `id` at `index` counts as handled (the opening backlog). */
	skipThrough(id: string, index: number): void {
		this.horizon = { id, index };
	}

	has(id: string): boolean {
		return this.ids.has(id);
	}

	/** How many ids it remembers (at most {@link DELIVERED_WINDOW}). */
	size(): number {
		return this.ids.size();
	}

	/** Whether the chat handled anything yet (a transcript with none of it is unrecognisable). */
	handledAny(): boolean {
		return this.horizon !== undefined || this.ids.size() > 0;
	}
}
