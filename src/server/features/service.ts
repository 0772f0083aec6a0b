// The connection to the service: the settings every feature shares (address, key, budget, profile, the close).
import type { FeatureDeclaration } from "./feature";

/**
 * The connection to the service: its address and key (the only settings whose fault stops StaffOps), the request
 * budget and timeouts, which service it is, whether Studio counts, and how long the close may take. Not a feature
 * that runs: the server's context (`context.ts`) builds the api client and the registration from these.
 * @internal
 */
export const SERVICE: FeatureDeclaration = {
	name: "service",
	settings: [
		{ field: "baseUrl", attribute: "BaseUrl", modelDefault: "", required: true, luau: "string" },
		{ field: "apiKeySecret", attribute: "ApiKeySecret", default: "staffops_api_key", required: true },
		{ field: "apiKey", attribute: "ApiKey", modelDefault: "", required: true, luau: "(string | Secret)?" },
		{ field: "budget", luau: "BudgetOptions?" },
		// Its default (10 s) is the transport's own, applied there.
		{ field: "timeout", min: 0.1, max: 60, luau: "number?" },
		{ field: "retry", luau: "RetryOptions?" },
		{ field: "serviceProfile", attribute: "ServiceProfile", default: "auto", luau: "ServiceProfile?" },
		{ field: "trackStudio", attribute: "TrackStudio", default: true },
		{ field: "shutdownDeadlineSeconds", attribute: "ShutdownDeadlineSeconds", default: 25, min: 1, max: 28 },
	],
	remotes: [],
	clientParts: [],
};
