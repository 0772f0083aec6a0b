import { filterWithin, FILTER_DEADLINE_SECONDS, robloxTextFilter, TextFilter } from "../../../roblox/textFilter";
import { logInfo, logWarn, playerLabel } from "../../../background/log";
import { callWithin } from "../../../transport/withinDeadline";
import { robloxScheduler } from "../../../transport/scheduler";
import type { StaffOpsSettings } from "../../config";
import { JoinResult, PlayerRecord, ServerSignals, STAFF_ATTRIBUTE } from "../../records";

/**
 * What an answered join does in the game: the staff attribute, `playerReported` on every answer, and once per
 * player `playerBanned` with the kick, or `staffJoined`. A player the service calls both banned and staff is banned.
 * @internal
 */
export function announce(
	host: {
		readonly config: StaffOpsSettings;
		readonly signals: ServerSignals;
		readonly guard: (label: string, fn: () => void) => void;
		readonly seams?: { readonly textFilter?: TextFilter };
	},
	record: PlayerRecord,
	result: JoinResult,
): void {
	const player = record.player;
	host.guard("staff attribute", () => player.SetAttribute(STAFF_ATTRIBUTE, result.isStaff && !result.banned));
	host.signals.playerReported.Fire(player, result);
	if (record.announced) return;
	record.announced = true;
	if (result.banned) {
		host.signals.playerBanned.Fire(player, result.reason);
		// The reason is the service's text: never printed (it may name anyone, and it is not filtered here).
		if (host.config.kickBanned) kickBanned(host, player, result.reason);
		else logInfo(`${playerLabel(player)} is banned; not kicked (kickBanned is false)`);
	} else if (result.isStaff) {
		host.signals.staffJoined.Fire(player);
		logInfo(`staff member ${playerLabel(player)} joined`);
	}
}

/**
 * Seconds a game's `kickMessage` function may take: past them the banned player is kicked with the default message,
 * so a function that never returns cannot keep a banned player in. @internal
 */
export const KICK_MESSAGE_SECONDS = 5;

/**
 * Kicks a banned player with the game's kick message around `reason`, filtered for them first; `source` ends the log
 * line (why the player is held banned). Never yields the caller.
 * @internal
 */
export function kickBanned(
	host: {
		readonly config: StaffOpsSettings;
		readonly guard: (label: string, fn: () => void) => void;
		/** The game's filter seam: a kick's reason goes through the same filter as every other outside text. */
		readonly seams?: { readonly textFilter?: TextFilter };
	},
	player: Player,
	reason: string,
	source = "banned by the service",
): void {
	// The reason is text from outside Roblox shown to the player: Roblox requires it filtered for them first. The
	// filter yields, so the kick runs on its own thread; a reason the filter cannot pass in time is not shown at all.
	task.spawn(() => {
		const filtered = filterWithin(host.seams?.textFilter ?? robloxTextFilter, reason, player);
		const shown = filtered ?? "";
		if (filtered === undefined) {
			logWarn(`the ban reason could not be filtered within ${FILTER_DEADLINE_SECONDS} s; kicked without it`);
		}
		const made = callWithin(() => host.config.kickMessage(shown), KICK_MESSAGE_SECONDS, robloxScheduler);
		const ok = made.kind === "returned" && typeIs(made.value, "string");
		const text = ok ? (made.value as string) : `You are banned from this experience: ${shown}`;
		if (made.kind === "threw") logWarn(`kickMessage failed (${tostring(made.err)}); used the default message`);
		if (made.kind === "late") {
			logWarn(`kickMessage did not return within ${KICK_MESSAGE_SECONDS} s; used the default message`);
		}
		host.guard("kick", () => {
			player.Kick(text);
			logInfo(`kicked ${playerLabel(player)}: ${source}`);
		});
	});
}
