import type { CallMessage } from "../api/resources/calls";
import type { DeliveredWindow } from "./deliveredWindow";
import { parseIsoTime } from "./messageTime";
import { MAX_BACKLOG, MAX_PER_POLL } from "./settings";
import type { Slicer } from "../shared/slicer";

/** A message to deliver, with its position in the transcript counted from the oldest end. @internal */
export interface NewMessage {
	readonly message: CallMessage;
	readonly index: number;
}

/** The next messages to deliver, oldest `created` first, and whether more wait behind them. @internal */
export interface NewMessages {
	readonly chosen: ReadonlyArray<NewMessage>;
	readonly more: boolean;
}

interface Candidate extends NewMessage {
	readonly key: number;
}

type At = (index: number) => CallMessage;

/**
 * Whether a transcript lists its newest message first: its first and last messages' `created` say so. When they
 * cannot (missing, unreadable or equal times, fewer than two messages) the chat keeps what it last saw, at first the
 * service's order.
 */
function listsNewestFirst(messages: ReadonlyArray<CallMessage>, before: boolean): boolean {
	const size = messages.size();
	if (size < 2) return before;
	const first = parseIsoTime(messages[0].created);
	const last = parseIsoTime(messages[size - 1].created);
	if (first === undefined || last === undefined || first === last) return before;
	return first > last;
}

/** Shows the newest {@link MAX_BACKLOG} like a newly opened chat's: the older ones count as handled. */
function restart(seen: DeliveredWindow, at: At, size: number): number {
	if (size <= MAX_BACKLOG) return 0;
	const last = size - MAX_BACKLOG - 1;
	seen.skipThrough(at(last).id, last);
	return last + 1;
}

/**
 * Where new messages can start: after the horizon, found where it was or searched for. When the transcript no longer
 * holds the horizon (the service dropped it), from the first message the window remembers: what lies before it is
 * older than anything remembered. Undefined when the transcript holds neither (it is unrecognisable).
 */
function start(seen: DeliveredWindow, at: At, size: number, slicer: Slicer): number | undefined {
	const horizon = seen.horizon;
	if (horizon === undefined) return 0;
	if (horizon.index < size && at(horizon.index).id === horizon.id) return horizon.index + 1;
	for (let i = size - 1; i >= 0; i--) {
		if (at(i).id === horizon.id) {
			horizon.index = i;
			return i + 1;
		}
		slicer.step();
	}
	for (let i = 0; i < size; i++) {
		if (seen.has(at(i).id)) return i;
		slicer.step();
	}
	return undefined;
}

/**
 * Collects the messages from `from` on that the window does not know, each id once, and keeps the
 * {@link MAX_PER_POLL} with the oldest `created` (ties and messages without a readable time keep the service's
 * order: such a message sorts right after the one before it).
 */
function collect(
	seen: DeliveredWindow,
	at: At,
	from: number,
	size: number,
	slicer: Slicer,
): [chosen: Array<Candidate>, total: number, recognised: boolean] {
	const chosen = new Array<Candidate>();
	const offered = new Set<string>();
	let total = 0;
	let recognised = false;
	let previousKey = -math.huge;
	// Transcripts repeat the same time text often (a burst within a second): parse each text once in a row.
	let lastText: string | undefined;
	let lastTime: number | undefined;
	for (let index = from; index < size; index++) {
		slicer.step();
		const message = at(index);
		if (seen.has(message.id)) {
			recognised = true;
			continue;
		}
		// Nothing to show (an empty entry would only confuse the player), or an id already taken this read.
		if (message.message === undefined || message.message === "" || offered.has(message.id)) continue;
		offered.add(message.id);
		total += 1;
		if (message.created !== lastText) {
			lastText = message.created;
			lastTime = parseIsoTime(lastText);
		}
		const key = lastTime ?? previousKey;
		previousKey = key;
		const full = chosen.size() === MAX_PER_POLL;
		if (full && key >= chosen[MAX_PER_POLL - 1].key) continue;
		let slot = chosen.size();
		chosen.push({ message, index, key });
		while (slot > 0 && chosen[slot - 1].key > key) {
			chosen[slot] = chosen[slot - 1];
			slot -= 1;
		}
		chosen[slot] = { message, index, key };
		if (full) chosen.pop();
	}
	return [chosen, total, recognised];
}

/**
 * The messages of a transcript that the chat has not handled yet (see {@link DeliveredWindow}), at most
 * {@link MAX_PER_POLL}, oldest `created` first. `opening` (the chat's first transcript) and an unrecognisable
 * transcript (every id changed) show only the newest {@link MAX_BACKLOG}. Long transcripts are read in slices.
 * @internal
 */
export function newMessages(
	seen: DeliveredWindow,
	messages: ReadonlyArray<CallMessage>,
	slicer: Slicer,
	opening: boolean,
): NewMessages {
	const size = messages.size();
	const newestFirst = listsNewestFirst(messages, seen.newestFirst);
	seen.newestFirst = newestFirst;
	const at: At = newestFirst ? (index) => messages[size - 1 - index] : (index) => messages[index];
	const from = (opening ? undefined : start(seen, at, size, slicer)) ?? restart(seen, at, size);
	const first = collect(seen, at, from, size, slicer);
	// Nothing skipped or forgotten yet, and not one id known: every id changed, so show it like a new chat's.
	const unrecognisable = !opening && !first[2] && seen.horizon === undefined && seen.handledAny();
	const [chosen, total] = unrecognisable ? collect(seen, at, restart(seen, at, size), size, slicer) : first;
	return { chosen, more: total > chosen.size() };
}
