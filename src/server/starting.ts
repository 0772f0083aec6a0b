import { DEFAULT_LOG_LEVEL, logInfo, logWarn, setLogLevel } from "../background/log";
import type { StaffOpsConfig } from "./config";
import { resolveConfig, screenConfig, settingNamer } from "./configCheck";
import { SETTINGS } from "./features";
import type { ServerSignals } from "./records";
import { defaultIsStudio, ServerSeams } from "./seams";
import { StaffOpsServer } from "./server";

/** What a bad optional setting falls back to, in words for its warning. */
function fallbackOf(field: string): string {
	const setting = SETTINGS.get(field);
	if (setting?.default !== undefined) return `its default (${tostring(setting.default)})`;
	if (setting?.profile !== undefined) return "its default (the service's profile decides)";
	return setting?.fallback ?? "its default";
}

/**
 * Screens the configuration, resolves it and starts a server (README#quick-start-luau-drop-in-model): one warning per bad optional setting,
 * which falls back to its default; StaffOps stays off, with one warning, only without a usable address or key.
 * `made` hears of the server before it begins. Undefined when StaffOps stays off.
 * @internal
 */
export function startServer(
	config: StaffOpsConfig,
	signals: ServerSignals,
	seams: ServerSeams | undefined,
	made: (server: StaffOpsServer) => void,
): StaffOpsServer | undefined {
	const nameOf = settingNamer(seams?.settingNames);
	const screened = screenConfig(config, nameOf);
	if (!screened[0]) {
		logWarn(`${screened[1]}; StaffOps is not running`);
		return undefined;
	}
	const [, usable, problems] = screened;
	// Before any line of this start: a bad level is one of the problems, warned below, and runs with the default.
	setLogLevel(usable.logLevel ?? DEFAULT_LOG_LEVEL);
	const studio = (seams?.isStudio ?? defaultIsStudio)();
	if (studio && usable.trackStudio === false) {
		logInfo("Studio playtest: StaffOps is off here because trackStudio is false");
		return undefined;
	}
	const [resolved, resolvedOrProblem, resolveWarnings] = resolveConfig(usable, undefined, nameOf);
	if (!resolved) {
		logWarn(`${resolvedOrProblem}; StaffOps is not running`);
		return undefined;
	}
	// Bans and the rest keep working: a game must not ship with banned players walking in over a wrong interval.
	for (const { field, problem } of problems) logWarn(`${problem}; StaffOps uses ${fallbackOf(field)} instead`);
	for (const warning of resolveWarnings) logWarn(warning);
	const server = new StaffOpsServer(resolvedOrProblem, signals, seams);
	made(server);
	if (studio) {
		logInfo(
			"Studio playtest (empty JobId): registering it with a jobId of its own (studio-...) and reporting joins " +
				"as in a live server; set trackStudio = false (attribute TrackStudio) to keep StaffOps off in Studio",
		);
	}
	server.begin();
	return server;
}
