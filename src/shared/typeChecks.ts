// Compile-time checks: a list written in two places that must agree fails the build, not a game.

/** Compiles only when `T` is `true`: `type Checked = CheckedTrue<Same<A, B>>`. */
export type CheckedTrue<T extends true> = T;

/** Compiles only when `T` is `never` (nothing left over). */
export type CheckedNever<T extends never> = T;

/** `true` when every member of `T` is `true`. */
export type AllTrue<T extends boolean> = false extends T ? false : true;

/** `true` when `A` and `B` are the same type (each assignable to the other). */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
