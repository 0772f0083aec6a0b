// Generated from the features' declarations by scripts/model-settings.mjs (the build): edit those, not this file.

/**
 * The name of a remote StaffOps creates: one for each that a feature's declaration lists in `remotes`. The server
 * creates them at `begin` (`ctx.remotes`) and a client part waits for its own (`waitForRemote`), each naming it as
 * a string the compiler checks against this list.
 * @internal
 */
// prettier-ignore
export type RemoteName =
	| "Notifications"
	| "ClientReport"
	| "Consent"
	| "Activity"
	| "CallEvents"
	| "SupportRequests"
	| "StaffCommands";
