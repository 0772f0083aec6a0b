// The shapes the typed client hands to game code and takes from it: the service's resources, the arguments of the
// calls, and their answers. One barrel, so `import type { ... } from "./types"` finds any of them.
export type * from "./resources";
export type * from "./args";
export type * from "./answers";
export type * from "./sync";
