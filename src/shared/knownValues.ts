/**
 * A list of values StaffOps knows of a field the service may extend (a call's status, a dashboard action's type, a
 * message's origin), written once as a table from each value to what StaffOps makes of it, with the guard that tells
 * a known value from one the service added since. Code that branches on the field asks `is` first, reads a known
 * value's entry from `of` (the compiler checks every value has one) and leaves any other alone: counted and warned
 * once where it is met, never handled as a known one.
 * @internal
 */
export interface KnownValues<T extends object> {
	/** What StaffOps makes of each value it knows. */
	readonly of: T;
	/** Whether `value` is one StaffOps knows (a service may add others). */
	readonly is: (value: unknown) => value is KnownValue<T>;
}

/** A value StaffOps knows of a {@link KnownValues} list. @internal */
export type KnownValue<T extends object> = keyof T & string;

/**
 * The known values of `values`, a table from each value to its entry, their literal types kept (each entry is a
 * table, so a value outside them reads as nil).
 * @internal
 */
export function knownValues<const T extends Readonly<Record<string, object>>>(values: T): KnownValues<T> {
	const entries = values as Readonly<Partial<Record<string, object>>>;
	return {
		of: values,
		is: (value): value is KnownValue<T> => typeIs(value, "string") && entries[value] !== undefined,
	};
}
