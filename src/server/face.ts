// What a feature shows game code: its part of the `StaffOps` entry, declared beside the feature.

/**
 * A feature's public face: the signals and functions it adds to `StaffOps` (src/server/index.ts builds the entry from
 * every declaration's face, in the features' order). Its signals are made once, when the package loads, so game code
 * connects before `start` and keeps its connections across a stop and a start; the running server fires them (they
 * join the server's signals). Its functions reach the running feature through `running`, which gives undefined when
 * StaffOps is not running: each function says then what game code gets (false, undefined, a rejection).
 *
 * `R` is what the functions need of the running feature (an interface of the face's own, which the feature's class
 * meets: `features/index.ts` checks it), so the face imports nothing of its feature's machinery. In the package's
 * declarations because the entry's type is derived from the faces; not an API.
 */
export interface FeatureFace<S extends object, P extends object, R = unknown> {
	/** Its signals, by the name game code reads (`StaffOps.staffJoined`). */
	readonly signals: S;
	/** Its functions, by the name game code calls (`StaffOps.isStaff`), given how to reach the running feature. */
	readonly functions: (running: () => R | undefined) => P;
}
