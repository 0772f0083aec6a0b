/**
 * A map that holds at most `capacity` keys and forgets the oldest inserted key first: the bridge's per-chat memory
 * (delivered ids, filtered sender names) stays bounded however long a chat lives and whatever a transcript does.
 * @internal
 */
export class BoundedMap<K extends defined, V> {
	private readonly values = new Map<K, V>();
	/** Keys in insertion order, as a ring: `order[head]` is the oldest once the ring is full. */
	private readonly order = new Array<K>();
	private head = 0;

	constructor(private readonly capacity: number) {}

	get(key: K): V | undefined {
		return this.values.get(key);
	}

	has(key: K): boolean {
		return this.values.has(key);
	}

	/** Sets `key`; a new key beyond the capacity pushes out the oldest one, which it returns with its value. */
	set(key: K, value: V): [key: K, value: V] | undefined {
		if (this.values.has(key)) {
			this.values.set(key, value);
			return undefined;
		}
		this.values.set(key, value);
		if (this.order.size() < this.capacity) {
			this.order.push(key);
			return undefined;
		}
		const oldest = this.order[this.head];
		const forgotten = this.values.get(oldest) as V;
		this.values.delete(oldest);
		this.order[this.head] = key;
		this.head = (this.head + 1) % this.capacity;
		return [oldest, forgotten];
	}

	/** How many keys it holds (at most the capacity). */
	size(): number {
		return this.values.size();
	}
}
