import type { CallMessage } from "../api/resources/calls";
import { BoundedMap } from "./boundedMap";
import { parseIsoTime } from "./messageTime";
import { DELIVERED_WINDOW, MAX_BACKLOG } from "./settings";
import type { Slicer } from "./slicer";

/**
 * A message's time for ordering: the service's own `created` text when it is canonical UTC
 * (`YYYY-MM-DDThh:mm:ss.sssZ`, which sorts as text, so a long transcript is ordered without parsing or allocating),
 * else Unix seconds. @internal
 */
export type TimeKey = string | number;

function canonical(created: unknown): created is string {
	return typeIs(created, "string") && created.size() === 24 && created.byte(24)[0] === 90 && created.byte(11)[0] === 84;
}

function seconds(key: TimeKey): number {
	return typeIs(key, "number") ? key : (parseIsoTime(key) ?? -math.huge);
}

/** Whether time `a` is before `b`. */
function before(a: TimeKey, b: TimeKey): boolean {
	if (typeIs(a, "string") && typeIs(b, "string")) return a < b;
	return seconds(a) < seconds(b);
}

/** Where a message stands in created order: its time, then its rank among messages of the same time. @internal */
export interface Place {
	readonly key: TimeKey;
	/** 0 for the first message of its time in created order, 1 for the next, ... (the service's ties). */
	readonly tie: number;
}

function after(a: Place, b: Place): boolean {
	return before(b.key, a.key) || (!before(a.key, b.key) && a.tie > b.tie);
}

/**
 * A transcript in created order, oldest first, whatever order the service sent it in (newest-first, or with a message
 * inserted): entry `i` is `messages[order[i]]`. Held as parallel arrays, so a long transcript costs no table per
 * message. @internal
 */
export interface Ordered {
	readonly messages: ReadonlyArray<CallMessage>;
	/** Transcript positions in created order; undefined when that is the transcript's own order. */
	readonly order?: ReadonlyArray<number>;
	/** Time of each position; see {@link inCreatedOrder}. */
	readonly keys: ReadonlyArray<TimeKey>;
	/** Rank of each entry (by created order) among entries of the same time. */
	readonly ties: ReadonlyArray<number>;
}

/** The message at created-order entry `i`, and its place. @internal */
export function entryAt(ordered: Ordered, i: number): [message: CallMessage, place: Place] {
	const position = ordered.order === undefined ? i : ordered.order[i];
	return [ordered.messages[position], { key: ordered.keys[position], tie: ordered.ties[i] }];
}

/**
 * Orders `messages` by `created`. A message without a readable `created` takes the time of the one before it in the
 * transcript (so it stays where the service put it); when no message has one, the transcript's order stands. The
 * usual shapes (oldest-first, newest-first) cost passes in slices; only a shuffled transcript is sorted in one go.
 * @internal
 */
export function inCreatedOrder(messages: ReadonlyArray<CallMessage>, slicer: Slicer): Ordered {
	const keys = new Array<TimeKey>(messages.size());
	let previous: TimeKey | undefined;
	for (const message of messages) {
		slicer.step();
		const created = message.created;
		const key: TimeKey | undefined = canonical(created) ? created : parseIsoTime(created);
		previous = key ?? previous;
		keys.push(previous ?? -math.huge);
	}
	if (previous === undefined) for (let i = 0; i < keys.size(); i++) keys[i] = i;
	let ascending = true;
	let descending = true;
	for (let i = 1; i < keys.size() && (ascending || descending); i++) {
		slicer.step();
		if (before(keys[i], keys[i - 1])) ascending = false;
		if (before(keys[i - 1], keys[i])) descending = false;
	}
	let order: Array<number> | undefined;
	if (!ascending) {
		order = new Array<number>(keys.size());
		if (descending) for (let i = keys.size() - 1; i >= 0; i--) order.push(i);
		else {
			for (let i = 0; i < keys.size(); i++) order.push(i);
			order.sort((a, b) => (before(keys[a], keys[b]) ? true : before(keys[b], keys[a]) ? false : a < b));
		}
	}
	const ties = new Array<number>(keys.size());
	let last: TimeKey | undefined;
	for (let i = 0; i < keys.size(); i++) {
		slicer.step();
		const key = keys[order === undefined ? i : order[i]];
		ties.push(last !== undefined && !before(last, key) ? ties[i - 1] + 1 : 0);
		last = key;
	}
	return { messages, order, keys, ties };
}

/**
 * What one chat has already handled (delivered, or skipped: empty, or older than the opening backlog), by id, never
 * by position: the last {@link DELIVERED_WINDOW} ids, and a horizon in created order at or before which every message
 * counts as handled (the newest message skipped as backlog, or pushed out of the window). So a message inserted
 * before the last delivered one is still new, a newest-first transcript is read in full, and a transcript whose ids
 * all changed (none known) is shown like a newly opened chat's: its newest {@link MAX_BACKLOG}.
 * @internal
 */
export class DeliveredWindow {
	private readonly ids = new BoundedMap<string, Place>(DELIVERED_WINDOW);
	/** Every message at or before this place counts as handled; undefined until something was skipped. */
	private horizon?: Place;

	/** Records the message `id` at `place` as handled. */
	mark(id: string, place: Place): void {
		const pushedOut = this.ids.set(id, place);
		if (pushedOut !== undefined) this.skipUpTo(pushedOut);
	}

	/** Counts every message at or before `place` as handled (the backlog a newly opened chat does not show). */
	skipUpTo(place: Place): void {
		if (this.horizon === undefined || after(place, this.horizon)) this.horizon = place;
	}

	has(id: string): boolean {
		return this.ids.has(id);
	}

	/** How many ids it remembers (at most {@link DELIVERED_WINDOW}). */
	size(): number {
		return this.ids.size();
	}

	/**
	 * The created-order entries of `ordered` not handled yet, oldest first. When the transcript holds no id this chat
	 * knows though it knows some, it is unrecognisable: only its newest {@link MAX_BACKLOG} past the horizon are new.
	 */
	newIn(ordered: Ordered, slicer: Slicer): Array<number> {
		const fresh = new Array<number>();
		let known = false;
		const horizon = this.horizon;
		for (let i = 0; i < ordered.keys.size(); i++) {
			slicer.step();
			const [message, place] = entryAt(ordered, i);
			if (this.ids.has(message.id)) known = true;
			else if (horizon === undefined || after(place, horizon)) fresh.push(i);
		}
		if (known || this.ids.size() === 0 || fresh.size() <= MAX_BACKLOG) return fresh;
		const newest = new Array<number>();
		for (let i = fresh.size() - MAX_BACKLOG; i < fresh.size(); i++) newest.push(fresh[i]);
		return newest;
	}
}
