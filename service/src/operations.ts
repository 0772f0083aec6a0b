/** The twelve operations of the interface, by the ids used in fault rules, the request log and the Luau client. */
export const OPERATION_IDS = [
	"recordHistory",
	"listHistory",
	"createServer",
	"playerJoin",
	"getActivity",
	"getRunningGame",
	"createOrder",
	"releaseOrder",
	"listTimeOff",
	"getTimeOff",
	"getCallMessages",
	"getUserTeams",
] as const;

/**
 * Routes beyond the interface that the deployed service has and its official module uses (docs/service-contract.md#routes-beyond-the-interface); the
 * deployed profile serves them, the default one answers them as unknown routes.
 */
export const EXTENSION_OPERATION_IDS = [
	"playerLeave",
	"endServer",
	"getServer",
	"sendData",
	"supportCreate",
	"supportEnd",
	"consent",
	"listCalls",
	"postCallMessage",
	"claimCall",
	"endCall",
	"registerCommands",
	"commandPermissions",
	"createBan",
	"deleteBan",
	"verifyLink",
	"setRank",
] as const;

export type OperationId = (typeof OPERATION_IDS)[number] | (typeof EXTENSION_OPERATION_IDS)[number];

/** Version reported in Running game `version`: the createServer body carries none, so the interface's own. */
export const INTERFACE_VERSION = "1.0.0";
