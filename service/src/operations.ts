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

export type OperationId = (typeof OPERATION_IDS)[number];

/** Version reported in Running game `version`: the createServer body carries none, so the interface's own. */
export const INTERFACE_VERSION = "1.0.0";
