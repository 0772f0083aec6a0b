import { blockerOf } from "../api/failurePolicy";
import type { Blocker } from "../api/failurePolicy";
import type { HealthLog } from "../background/log";

/**
 * Transport failures in a row, with no success between them, after which the close stops waiting on an unreachable
 * service: the close's work tried at least twice (joins, the sync and the join check fail together), and `BindToClose`
 * is not held for requests that cannot arrive.
 * @internal
 */
export const UNREACHABLE_TRIES = 2;

/** What the close's lines say about each blocker: the real cause, never the key. @internal */
export const BLOCKER_TEXT: { readonly [B in Blocker]: string } = {
	"key-refused": "the service refused the API key (401/403); check the key",
	"http-off": "HTTP requests are not enabled (File > Experience Settings > Security > Allow HTTP Requests)",
	unreachable: "the service could not be reached",
};

/**
 * Watches the health log while the server closes and tells when the rest of the close cannot succeed: at once when a
 * failure shows the key refused or HTTP turned off (every later request fails alike), and after
 * {@link UNREACHABLE_TRIES} transport failures with no success between them when the service cannot be reached.
 * Only failures recorded after the close began count: an outage that ended before it says nothing.
 * @internal
 */
export class CloseWatch {
	private failuresRead: number;
	private successesRead: number;
	private unreachable = 0;
	private found?: Blocker;
	/** The error the blocker was read from, for the line (its text never holds the key). */
	private evidence?: unknown;

	constructor(private readonly health: HealthLog) {
		this.failuresRead = health.failuresSeen;
		this.successesRead = health.successesSeen;
	}

	/** What stops the close now, or undefined while its work may still succeed. */
	blocker(): Blocker | undefined {
		if (this.found !== undefined) return this.found;
		const health = this.health;
		if (health.successesSeen !== this.successesRead) {
			this.successesRead = health.successesSeen;
			this.unreachable = 0;
		}
		const fresh = health.failuresSeen - this.failuresRead;
		if (fresh <= 0) return undefined;
		this.failuresRead = health.failuresSeen;
		const err = health.latestError;
		const blocker = blockerOf(err);
		if (blocker === "unreachable") {
			this.unreachable += fresh;
			if (this.unreachable < UNREACHABLE_TRIES) return undefined;
		} else if (blocker === undefined) {
			this.unreachable = 0;
			return undefined;
		}
		this.found = blocker;
		this.evidence = err;
		return blocker;
	}

	/** Why the close left work undone: the blocker's text, or the deadline. */
	cause(seconds: number): string {
		const blocker = this.blocker();
		if (blocker === undefined) return `the ${seconds} s deadline passed`;
		return blocker === "unreachable"
			? `${BLOCKER_TEXT.unreachable} (${tostring(this.evidence)})`
			: BLOCKER_TEXT[blocker];
	}
}

/** What the close left undone, and why: what its last line says, for specs and monitoring. @internal */
export interface CloseOutcome {
	/** Seconds the close took. */
	readonly seconds: number;
	/** Joins not recorded by the service when the close ended. */
	readonly unsentJoins: number;
	/** Leaves not recorded by the service when the close ended. */
	readonly unsentLeaves: number;
	/** Open support calls whose end was not confirmed. */
	readonly callsLeftOpen: boolean;
	/** The server's end was due and not confirmed. */
	readonly serverNotEnded: boolean;
	/** Why work was left undone (the blocker or the deadline); undefined when everything was sent. */
	readonly cause?: string;
}

/**
 * A feature's part in the close, every step optional: the close runs each step over the features in their start
 * order, so it names none of them. @internal
 */
export interface ClosingPart {
	/** The close begins: stop waiting for what will not come, start the last work (one last sync). */
	readonly begin?: () => void;
	/** Whether it still has reports the close sends first (joins, leaves, the last sync). */
	readonly hasQueued?: () => boolean;
	/** One round of sending what is queued; every 50 ms while the server is registered. */
	readonly sendQueued?: () => void;
	/** Ends what stays open on the service after the server's end (open support calls); undefined: nothing to end. */
	readonly endOpen?: () => Promise<unknown> | undefined;
	/** Queues the leave of everyone still here, when leaves are reported; true when it did. */
	readonly leaveEveryone?: () => boolean;
	/** Whether the server's end is due: the close keeps a share of its deadline for it. */
	readonly endsServer?: () => boolean;
	/** Ends the server on the service (asked only when `endsServer`). */
	readonly endServer?: () => Promise<unknown>;
	/** What it left unsent, for the close's last line. */
	readonly unsent?: () => Partial<Pick<CloseOutcome, "unsentJoins" | "unsentLeaves">>;
}
