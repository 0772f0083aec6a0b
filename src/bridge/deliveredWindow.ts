import type { CallMessage } from "../api/resources/calls";
import { BoundedMap } from "./boundedMap";
import { parseIsoTime } from "./messageTime";
import { DELIVERED_WINDOW, MAX_BACKLOG } from "./settings";
import type { Slicer } from "./slicer";

/** Where a message stands in created order: its time, then its rank among messages of the same time. @internal */
export interface Place {
	/** Unix seconds of `created`; see {@link inCreatedOrder} for messages without one. */
	readonly key: number;
	/** 0 for the first message of its time in created order, 1 for the next, ... (the service's ties). */
	tie: number;
}

/** One message of a transcript with its place in created order. @internal */
export interface Timed extends Place {
	readonly message: CallMessage;
}

function after(a: Place, b: Place): boolean {
	return a.key > b.key || (a.key === b.key && a.tie > b.tie);
}

/** Ranks each entry among those of the same time before it (the ordered transcript's ties), then returns it. */
function ranked(ordered: Array<Timed>): Array<Timed> {
	for (let i = 1; i < ordered.size(); i++) {
		if (ordered[i].key === ordered[i - 1].key) ordered[i].tie = ordered[i - 1].tie + 1;
	}
	return ordered;
}

/**
 * The messages of `messages` ordered by `created`, oldest first, whatever order the service sent them in (a
 * transcript may be newest-first, or have a message inserted). A message without a readable `created` takes the time
 * of the one before it in the transcript (so it stays where the service put it); when no message has one, the
 * transcript's order stands. The usual shapes (oldest-first, newest-first) cost one pass in slices; only a shuffled
 * transcript is sorted in one go.
 * @internal
 */
export function inCreatedOrder(messages: ReadonlyArray<CallMessage>, slicer: Slicer): Array<Timed> {
	const timed = new Array<Timed>();
	let previous: number | undefined;
	let anyTime = false;
	for (const message of messages) {
		slicer.step();
		const time = parseIsoTime(message.created);
		if (time !== undefined) anyTime = true;
		previous = time ?? previous;
		timed.push({ message, key: previous ?? -math.huge, tie: 0 });
	}
	if (!anyTime) return messages.map((message, index) => ({ message, key: index, tie: 0 }));
	let ascending = true;
	let descending = true;
	for (let i = 1; i < timed.size(); i++) {
		slicer.step();
		if (timed[i].key < timed[i - 1].key) ascending = false;
		if (timed[i].key > timed[i - 1].key) descending = false;
	}
	if (ascending) return ranked(timed);
	if (descending) {
		const reversed = new Array<Timed>(timed.size());
		for (let i = timed.size() - 1; i >= 0; i--) reversed.push(timed[i]);
		return ranked(reversed);
	}
	const position = new Map<Timed, number>();
	timed.forEach((entry, index) => position.set(entry, index));
	timed.sort((a, b) => (a.key !== b.key ? a.key < b.key : position.get(a)! < position.get(b)!));
	return ranked(timed);
}

/**
 * What one chat has already handled (delivered, or skipped: empty, or older than the opening backlog), by id, never
 * by position: the last {@link DELIVERED_WINDOW} ids, and a horizon in created order at or before which every message
 * counts as handled (the newest message skipped as backlog, or pushed out of the window). So a message inserted before the
 * last delivered one is still new, a newest-first transcript is read in full, and a transcript whose ids all changed
 * (none known) is shown like a newly opened chat's: its newest {@link MAX_BACKLOG}.
 * @internal
 */
export class DeliveredWindow {
	private readonly ids = new BoundedMap<string, Place>(DELIVERED_WINDOW);
	/** Every message at or before this place counts as handled; undefined until something was skipped. */
	private horizon?: Place;

	/** Records `entry` as handled. */
	mark(entry: Timed): void {
		const pushedOut = this.ids.set(entry.message.id, { key: entry.key, tie: entry.tie });
		if (pushedOut !== undefined) this.skipUpTo(pushedOut);
	}

	/** Counts every message at or before `place` as handled (the backlog a newly opened chat does not show). */
	skipUpTo(place: Place): void {
		if (this.horizon === undefined || after(place, this.horizon)) this.horizon = { key: place.key, tie: place.tie };
	}

	has(id: string): boolean {
		return this.ids.has(id);
	}

	/** How many ids it remembers (at most {@link DELIVERED_WINDOW}). */
	size(): number {
		return this.ids.size();
	}

	/**
	 * The messages of `ordered` (in created order) not handled yet, oldest first. When the transcript holds no id this
	 * chat knows though it knows some, it is unrecognisable: only its newest {@link MAX_BACKLOG} not behind the
	 * horizon are new.
	 */
	newIn(ordered: ReadonlyArray<Timed>, slicer: Slicer): Array<Timed> {
		const fresh = new Array<Timed>();
		let known = false;
		const horizon = this.horizon;
		for (const entry of ordered) {
			slicer.step();
			if (this.ids.has(entry.message.id)) known = true;
			else if (horizon === undefined || after(entry, horizon)) fresh.push(entry);
		}
		if (known || this.ids.size() === 0 || fresh.size() <= MAX_BACKLOG) return fresh;
		const newest = new Array<Timed>();
		for (let i = fresh.size() - MAX_BACKLOG; i < fresh.size(); i++) newest.push(fresh[i]);
		return newest;
	}
}
