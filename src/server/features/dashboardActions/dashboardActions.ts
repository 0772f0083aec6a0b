import {
	DASHBOARD_ACTION_TYPES,
	MAX_ACTION_MESSAGE,
	QueuedAction,
	UNKNOWN_ACTION_TYPE,
} from "../../../api/resources/sync";
import { cutToBytes } from "../../../shared/cutToBytes";
import { filterWithin, TextFilter } from "../../../roblox/textFilter";
import { logInfo, logWarn, playerLabel } from "../../../background/log";
import type { PlayersLike } from "../../../roblox/players";
import type { DashboardSignals } from "./face";

/** What dashboard actions need from the integration. @internal */
export interface DashboardSeams {
	readonly players: PlayersLike;
	readonly filter: TextFilter;
	readonly signals: DashboardSignals;
	/** Where the built-in notification is sent (the client shows it); undefined when the built-in UI is off. */
	readonly notifications: () => RemoteEvent | undefined;
}

/** Shown when a kick's text is missing or cannot be filtered: a kick message is never empty. @internal */
export const FALLBACK_KICK_TEXT = "You were removed from this server by staff.";
/** Shown when a shutdown's text is missing or cannot be filtered. @internal */
export const FALLBACK_SHUTDOWN_TEXT = "This server was shut down by staff.";

/**
 * Acts on the dashboard's queued actions (docs/service-contract.md#queued-actions-are-handed-over-once: handed over at most once, so none may be lost to another's
 * failure): each runs in a thread of its own, in `pcall`. `kick` kicks that player if they are on this server (else
 * it is dropped, as the official module does), `notify` shows them a notification and fires `notified`, `shutdown`
 * kicks everyone now and every later joiner while the server lives; an action of a type this game does not know (the
 * service may add one) is left alone, counted and warned once, never shown. Text from outside Roblox is filtered for
 * each player (the key is already redacted by the client); a bad action is one warning per kind.
 * @internal
 */
export class DashboardActions {
	private shutdownText?: string;
	private readonly warned = new Set<string>();
	/** Actions acted on, by type (diagnostics, specs). */
	readonly counts = { kick: 0, notify: 0, shutdown: 0, dropped: 0, passedOn: 0, cut: 0, unknown: 0 };

	/**
	 * Hears of a kick or notify whose player is not on this server; true when it took it (cross-server delivery), so
	 * it is not counted as dropped. Set by the cross-server feature.
	 */
	passOn?: (action: QueuedAction) => boolean;

	constructor(private readonly seams: DashboardSeams) {}

	/**
	 * Acts on a kick or notify another server passed on, when its player is here (in a thread of its own, in `pcall`);
	 * false, with nothing kept or warned, when they are not.
	 */
	actHere(action: QueuedAction): boolean {
		if (!DASHBOARD_ACTION_TYPES.of[action.type]?.forPlayer || this.find(action.userId) === undefined) return false;
		task.spawn(() => {
			const [ok, problem] = pcall(() => this.act(action, true));
			if (!ok) this.ignore(`a ${action.type} that failed (${tostring(problem)})`);
		});
		return true;
	}

	/** Acts on one answer's actions; `dropped` names the items the reader left out. */
	handle(actions: ReadonlyArray<QueuedAction>, dropped: ReadonlyArray<string>): void {
		for (const problem of dropped) {
			if (problem === UNKNOWN_ACTION_TYPE) this.counts.unknown += 1;
			this.ignore(problem);
		}
		for (const given of actions) {
			const action = this.cut(given);
			task.spawn(() => {
				const [ok, problem] = pcall(() => this.act(action));
				if (!ok) this.ignore(`a ${action.type} that failed (${tostring(problem)})`);
			});
		}
	}

	/** Whether a dashboard shutdown is under way (later joiners are kicked). */
	isShutDown(): boolean {
		return this.shutdownText !== undefined;
	}

	/** A player joined: after a dashboard shutdown they are kicked at once. */
	joined(player: Player): void {
		const text = this.shutdownText;
		// Filtering yields: the join's own handling goes on meanwhile, and sees the player leave.
		if (text !== undefined) task.spawn(() => pcall(() => this.kick(player, text, FALLBACK_SHUTDOWN_TEXT)));
	}

	/**
	 * The action with its message cut to {@link MAX_ACTION_MESSAGE} bytes at a character's start: a long message is
	 * shortened, never a reason to drop the kick or shutdown (the key was redacted from the whole answer first). The
	 * cut is said once per kind of action.
	 */
	private cut(action: QueuedAction): QueuedAction {
		const message = action.message;
		if (message === undefined || message.size() <= MAX_ACTION_MESSAGE) return action;
		const kept = cutToBytes(message, MAX_ACTION_MESSAGE);
		this.counts.cut += 1;
		if (!this.warned.has(`cut ${action.type}`)) {
			this.warned.add(`cut ${action.type}`);
			logWarn(
				`a dashboard ${action.type}'s message of ${message.size()} bytes was cut to its first ${kept.size()} ` +
					"(what a notification shows and a cross-server message carries); the action goes ahead. Others alike stay quiet",
			);
		}
		return { ...action, message: kept };
	}

	/**
	 * One case per type of {@link DASHBOARD_ACTION_TYPES}, which the compiler checks: a type added there does not
	 * compile until it has its case here. `passedOn`: it came from another server, so it is never passed on again.
	 */
	private act(action: QueuedAction, passedOn = false): void {
		const kind = action.type;
		switch (kind) {
			case "shutdown":
				return this.shutDown(action.message ?? "");
			case "kick":
			case "notify": {
				const player = this.find(action.userId);
				if (player === undefined) return this.notHere(action, passedOn);
				if (kind === "kick") return this.kickFromDashboard(player, action.message ?? "");
				return this.notify(player, action.message ?? "");
			}
			default: {
				// Only an action the readers let through by mistake comes here: left alone, never shown.
				const unknown: never = kind;
				this.counts.unknown += 1;
				this.ignore(`${UNKNOWN_ACTION_TYPE} (${tostring(unknown)})`);
			}
		}
	}

	private shutDown(text: string): void {
		if (this.shutdownText !== undefined) return;
		this.shutdownText = text;
		this.counts.shutdown += 1;
		this.seams.signals.shutdownRequested.Fire(text);
		logInfo(
			`dashboard shutdown: kicking ${this.seams.players.GetPlayers().size()} player(s) and every later joiner`,
		);
		for (const player of this.seams.players.GetPlayers()) {
			task.spawn(() => pcall(() => this.kick(player, text, FALLBACK_SHUTDOWN_TEXT)));
		}
	}

	/** A kick or notify whose player is not on this server: passed on to the others, or dropped. */
	private notHere(action: QueuedAction, passedOn: boolean): void {
		if (!passedOn && this.passOn?.(action) === true) {
			this.counts.passedOn += 1;
			return;
		}
		this.ignore(`a ${action.type} for a player who is not on this server`);
	}

	private kickFromDashboard(player: Player, message: string): void {
		this.counts.kick += 1;
		this.kick(player, message, FALLBACK_KICK_TEXT);
		logInfo(`dashboard kick: kicked ${playerLabel(player)}`);
	}

	private notify(player: Player, message: string): void {
		const text = this.filtered(player, message);
		if (text === undefined) {
			this.ignore("a notify whose text is empty or could not be filtered");
			return;
		}
		this.counts.notify += 1;
		this.seams.signals.notified.Fire(player, text);
		this.seams.notifications()?.FireClient(player, text);
		logInfo(`dashboard notification for ${playerLabel(player)}`);
	}

	private kick(player: Player, raw: string, fallback: string): void {
		const text = this.filtered(player, raw) ?? fallback;
		this.seams.signals.dashboardKick.Fire(player, text);
		player.Kick(text);
	}

	/**
	 * The text filtered for `player`, or undefined when empty, or when the filter failed or missed its deadline (a
	 * kick or shutdown then goes ahead with its fallback text, on time).
	 */
	private filtered(player: Player, raw: string): string | undefined {
		if (raw.match("%S")[0] === undefined) return undefined;
		const text = filterWithin(this.seams.filter, raw, player);
		if (text === undefined || text.match("%S")[0] === undefined) return undefined;
		return text;
	}

	private find(userId: number | undefined): Player | undefined {
		for (const player of this.seams.players.GetPlayers()) if (player.UserId === userId) return player;
		return undefined;
	}

	/** One warning per kind of action left out. */
	private ignore(problem: string): void {
		this.counts.dropped += 1;
		const [kind] = problem.gsub(" %(.*$", "");
		if (this.warned.has(kind) || this.warned.size() >= 20) return;
		this.warned.add(kind);
		logWarn(`ignored a dashboard action: ${problem}. Others alike stay quiet`);
	}
}
