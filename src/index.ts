/*
 * StaffOps: one vocabulary across src/.
 *
 * - "client" means the Roblox client side only: players' devices (`src/client/`) and the ReplicatedStorage folder
 *   `StaffOpsClient` the drop-in model delivers there. The HTTP client of the Staff Operations Service is the
 *   "api client": `StaffOpsApiClient`, configured by `ApiClientConfig` (`api/apiClient.ts`). Exceptions kept because
 *   game code already calls them and the type says what they hold: `StaffOps.getClient()` and the field `client` of
 *   the seams return the api client; examples write an api client instance as `client` (`client.orders.create`).
 * - Injected dependencies (what a module gets from its owner, so tests can replace it) end in `Seams`:
 *   `TransportSeams`, `ServerSeams`, `JoinQueueSeams`, `PollerSeams`, ...
 * - `Config` is what the game developer gives (`StaffOpsConfig`, `ApiClientConfig`, `TransportConfig`); `Options`
 *   are the optional knobs game code passes per call or per object (`CallOptions`, `RetryOptions`, `BudgetOptions`,
 *   `SessionsOptions`, `CallBridgeOptions`, `ChatWindowOptions`, ...); `Settings` are the resolved values with every
 *   default filled in that the library works with (`StaffOpsSettings`, `RetrySettings`, `PollingSettings`,
 *   `BackoffSettings`). `FAILURE_POLICY` is a policy (what to do about a failure), not options.
 * - File names say what they hold, in camelCase, classes included (`callBridge.ts`, `staffOpsError.ts`). Folders
 *   are the layers: shared, transport, api, background (the integration's background work, not the roblox-ts
 *   runtime), bridge, server, client.
 * - `src/api/` is cut by resource (`api/resources/*.ts`); `api/routes.ts` is the route table and says how to add one.
 */

/** The library's version, as published. */
export const VERSION = "0.2.0";

export { StaffOpsApiClient } from "./api/apiClient";
export type { ApiClientConfig } from "./api/apiClient";
export type { CallOptions } from "./api/callOptions";
export type { RawRequest } from "./api/rawRequest";
export type { ExtensionId, OperationId } from "./api/routes";
export type { Platform } from "./shared/reportPayload";
export type {
	HistoryApi,
	HistoryItem,
	HistoryListItem,
	HistoryType,
	ListHistoryAnswer,
	RecordHistoryAnswer,
	RecordHistoryArgs,
} from "./api/resources/history";
export type {
	ActivityApi,
	ActivityMinutes,
	ActivitySession,
	ActivitySummary,
	CreateServerAnswer,
	CreateServerArgs,
	PlayerJoinAnswer,
	PlayerJoinArgs,
	UserActivityAnswer,
	Workspace,
} from "./api/resources/activity";
export type { GamesApi, RunningGame, RunningGameAnswer, RunningPlayer } from "./api/resources/games";
export type {
	CreateOrderAnswer,
	CreateOrderArgs,
	Order,
	OrderItem,
	OrdersApi,
	ReleaseOrderAnswer,
	ReleaseOrderArgs,
} from "./api/resources/orders";
export type {
	ApprovalStep,
	TimeOffAnswer,
	TimeOffApi,
	TimeOffListAnswer,
	TimeOffRequest,
} from "./api/resources/timeOff";
export type { CallMessage, CallMessagesAnswer, CallsApi } from "./api/resources/calls";
export type { TeamMembership, TeamsApi, UserTeamsAnswer } from "./api/resources/teams";
export type {
	EndServerAnswer,
	ExtensionsApi,
	GetServerAnswer,
	PlayerLeaveAnswer,
	PlayerLeaveArgs,
} from "./api/resources/deployed";
export { StaffOpsError } from "./transport/staffOpsError";
export type { StaffOpsErrorFields, StaffOpsErrorKind } from "./transport/staffOpsError";
export { RequestBudget, sharedBudget } from "./transport/budget";
export type { BudgetOptions, RequestPriority } from "./transport/budget";
export type { RetryOptions } from "./transport/retry";
export type { HttpServiceLike } from "./transport/httpDoor";
export { robloxScheduler } from "./transport/scheduler";
export type { Scheduler } from "./transport/scheduler";
export type { HttpMethod, TransportConfig, TransportSeams } from "./transport/transport";

export { StaffOps, STAFF_ATTRIBUTE, StaffOpsServer } from "./server";
export type { StaffOpsBaseConfig, StaffOpsConfig, StaffOpsKeySource } from "./server/config";
export type { ActivityOptions } from "./server/features/staffActivity";
export type { KeepAliveRoute } from "./server/features/presence/presence";
export type { SessionsOptions } from "./server/features/sessions/sessions";
export type { StaffHint } from "./server/features/staffHint";
export type { JoinResult, PlayerSession } from "./server/records";
export type { MessagingLike, ReceivedMessage } from "./roblox/messaging";
export type { PlayersLike } from "./roblox/players";
export type { ServerSeams } from "./server/seams";
export type { DecidedProfile, RegistrationFacts, ServiceProfile } from "./server/profile";
export type { LogLevel } from "./background/log";
export type { DegradedReason, StaffOpsState, StaffOpsStatus } from "./server/status";
export { Signal } from "./shared/signal";
export type { SignalConnection } from "./shared/signal";
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
export { mountStaffCommands, startStaffCommands } from "./client/commands";
export type { MountedStaffCommands } from "./client/commands";
export type {
	StaffCommand,
	StaffCommandArgument,
	StaffCommandParameter,
	StaffCommandUse,
} from "./server/features/commands/types";

export { CallBridge } from "./bridge/callBridge";
export type {
	BridgeMessage,
	BridgePlayers,
	CallBridgeOptions,
	CallBridgeStats,
	CallChat,
	CallChatState,
	CallsApiClient,
	OpenChatOptions,
	PollingOptions,
} from "./bridge/types";
export { SupportDesk } from "./bridge/supportDesk";
export type { SupportDeskOptions } from "./bridge/supportDesk";
export type { CallRequest, SupportCallType } from "./shared/supportProtocol";
export type {
	CallListStatus,
	ListCallsAnswer,
	SupportCallsApi,
	SupportCreateAnswer,
	SupportCreateArgs,
	SupportEndAnswer,
	SupportEndReason,
	SupportTicket,
} from "./api/resources/supportCalls";
export type {
	BanAnswer,
	BanArgs,
	BanRecord,
	CommandPermissionsAnswer,
	CommandRegistration,
	CommandsApi,
	CommandsDoneAnswer,
	VerifyLinkAnswer,
} from "./api/resources/commands";
export type { RankingMethods, SetRankAnswer } from "./api/resources/ranking";
export { robloxTextFilter } from "./roblox/textFilter";
export type { TextFilter } from "./roblox/textFilter";
export { DEFAULT_SENDER, DEFAULT_TITLE, MESSAGE_UNAVAILABLE } from "./shared/chatProtocol";
export type { CallCloseReason, ChatClosedPayload, ChatMessagePayload, ChatOpenedPayload } from "./shared/chatProtocol";
export { CallChatClient, remoteChannel } from "./client/chat/callChatClient";
export type { ChatChannel, ChatCloseReason, ChatInfo, ChatMessage } from "./client/chat/callChatClient";
export { ChatWindow, formatClockTime } from "./client/chat/chatWindow";
export type { ChatWindowMessage, ChatWindowOptions } from "./client/chat/chatWindow";
export { mountCallChat, startCallChat } from "./client/chat/mount";
export { CallForm, CallStaffButton, mountCallStaff, startSupportCalls, SupportClient } from "./client/support";
export type { MountedCallStaff, ReportablePlayer, SupportCallArgs } from "./client/support";
export type { SupportChatPayload, SupportResultPayload, SupportStatePayload } from "./shared/supportProtocol";
export { showNotification, startNotifications } from "./client/notify";
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
