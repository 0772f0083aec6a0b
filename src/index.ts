/** The library's version, as published. */
export const VERSION = "0.1.0";

export { StaffOpsClient } from "./api/client";
export type { ClientConfig } from "./api/client";
export type { CallOptions } from "./api/callOptions";
export type {
	ActivityApi,
	CallsApi,
	ExtensionsApi,
	GamesApi,
	HistoryApi,
	OrdersApi,
	TeamsApi,
	TimeOffApi,
} from "./api/namespaces";
export type { RawRequest } from "./api/rawRequest";
export type { ExtensionId, OperationId } from "./api/operations";
export type * from "./api/types";
export { StaffOpsError } from "./transport/StaffOpsError";
export type { StaffOpsErrorFields, StaffOpsErrorKind } from "./transport/StaffOpsError";
export { RequestBudget, sharedBudget } from "./transport/budget";
export type { BudgetOptions, RequestPriority } from "./transport/budget";
export type { RetryOptions } from "./transport/retry";
export type { HttpServiceLike } from "./transport/httpDoor";
export { robloxScheduler } from "./transport/scheduler";
export type { Scheduler } from "./transport/scheduler";
export type { HttpMethod, TransportConfig, TransportSeams } from "./transport/transport";

export { StaffOps, STAFF_ATTRIBUTE, StaffOpsServer } from "./server";
export type {
	ActivityOptions,
	JoinResult,
	KeepAliveRoute,
	PlayerSession,
	PlayersLike,
	ServerSeams,
	SessionsOptions,
	StaffHint,
	StaffOpsConfig,
} from "./server";
export {
	buildClientReport,
	detectPlatform,
	formatOffset,
	measureTzOffset,
	offsetMinutes,
	readDeviceFacts,
	sendClientReport,
	startClientReport,
	UNKNOWN_TZ_OFFSET,
} from "./client/report";
export type { ClientReportOptions, ClientReportPayload, ClockFields, DeviceFacts } from "./client/report";

export { CallBridge } from "./bridge/CallBridge";
export type {
	BridgeMessage,
	BridgePlayers,
	CallBridgeOptions,
	CallBridgeStats,
	CallChat,
	CallChatState,
	CallsClient,
	OpenChatOptions,
	PollingOptions,
} from "./bridge/types";
export { robloxTextFilter } from "./bridge/filter";
export type { TextFilter } from "./bridge/filter";
export { DEFAULT_SENDER, DEFAULT_TITLE, MESSAGE_UNAVAILABLE } from "./shared/chatProtocol";
export type { CallCloseReason, ChatClosedPayload, ChatMessagePayload, ChatOpenedPayload } from "./shared/chatProtocol";
export { CallChatClient, remoteChannel } from "./client/chat/CallChatClient";
export type { ChatChannel, ChatCloseReason, ChatInfo, ChatMessage } from "./client/chat/CallChatClient";
export { ChatWindow, formatClockTime } from "./client/chat/ChatWindow";
export type { ChatWindowMessage, ChatWindowOptions } from "./client/chat/ChatWindow";
export { mountCallChat, startCallChat } from "./client/chat/mount";
export type { MountedCallChat, MountOptions } from "./client/chat/mount";
export type { ConsentAnswer, ConsentArgs } from "./api/resources/consent";
export {
	ConsentPrompt,
	DEFAULT_CONSENT_TEXT,
	DEFAULT_CONSENT_TITLE,
	mountConsentPrompt,
	startConsentPrompt,
} from "./client/consent";
export type { ConsentPromptOptions, MountedConsentPrompt } from "./client/consent";
export { detectActivity, startActivityReport } from "./client/activity";
export type { ActivitySources } from "./client/activity";
