/** The library's version, as published. */
export const VERSION = "0.1.0";

export { StaffOpsClient } from "./api/client";
export type {
	ActivityApi,
	CallOptions,
	CallsApi,
	ClientConfig,
	GamesApi,
	HistoryApi,
	OrdersApi,
	TeamsApi,
	TimeOffApi,
} from "./api/client";
export type { OperationId } from "./api/operations";
export type * from "./api/types";
export { StaffOpsError } from "./transport/StaffOpsError";
export type { StaffOpsErrorFields, StaffOpsErrorKind } from "./transport/StaffOpsError";
export { RequestBudget, sharedBudget } from "./transport/budget";
export type { BudgetOptions, RequestPriority } from "./transport/budget";
export type { RetryOptions } from "./transport/retry";
export type { HttpServiceLike } from "./transport/httpDoor";
export { robloxScheduler } from "./transport/scheduler";
export type { Scheduler } from "./transport/scheduler";
export type { TransportConfig, TransportSeams } from "./transport/transport";
