import type { StaffOpsApiClient } from "../api/apiClient";
import { MAX_SERVICE_ID } from "../api/arguments";
import { backgroundWait, reactionTo } from "../api/failurePolicy";
import type { CreateServerAnswer, CreateServerArgs } from "../api/resources/activity";
import { HealthLog, logInfo, logWarn } from "../background/log";
import { BACKGROUND } from "../shared/backoff";
import type { Scheduler } from "../transport/scheduler";
import { StaffOpsError } from "../transport/staffOpsError";
import type { Registered } from "./records";

function usableId(id: string): boolean {
	return id.size() > 0 && id.size() <= MAX_SERVICE_ID && id.find("%c")[0] === undefined;
}

/** What registration needs from the integration. @internal */
export interface RegistrationSeams {
	readonly client: StaffOpsApiClient;
	readonly scheduler: Scheduler;
	readonly random: () => number;
	readonly health: HealthLog;
	readonly gameInfo: () => CreateServerArgs;
	readonly shuttingDown: () => boolean;
	readonly registered: (registration: Registered) => void;
	readonly guard: (label: string, fn: () => void) => void;
}

/**
 * Seconds a registration attempt waits for its answer, longer than other requests' (10 by default): an attempt given
 * up on while the service still acts on it leaves a second server on the service (nothing can look the first one
 * up), and joins wait for the registration anyway. A slow service's answer is taken instead of registering again.
 */
const REGISTRATION_TIMEOUT = 30;

/**
 * Seconds an attempt given up on still listens for its answer. The next attempt goes out meanwhile; a late answer
 * is used when nothing registered yet, and its server ended when another attempt registered first.
 */
const LATE_LISTEN = 90;

/**
 * Registers the server (`createServer`) until it works, with the one backoff. A registration is never repeated
 * blindly: after an unknown outcome nothing can look the earlier attempt up (no operation lists servers by jobId), so
 * the attempt keeps listening for its answer while the next one goes out; whichever answer comes first registers,
 * and a server made by any other is ended (docs/failure-policy.md). One whose answer never comes is forgotten by the
 * service on its own. A refused key waits at the longest backoff; a refusal for good stops with one warning.
 * @internal
 */
export class Registration {
	/** The current registration, or undefined while (re)registering. */
	current?: Registered;
	/** Failures handled so far (for specs and diagnostics). */
	failuresHandled = 0;
	/** Answers that came after their attempt was given up on (for specs and diagnostics). */
	lateAnswers = 0;
	/** Second servers of this game server that StaffOps asked the service to end. */
	secondsEnded = 0;
	private inFlight = false;
	private failures = 0;
	private stopped = false;
	private gaveUp = false;
	/** During shutdown nothing waits for timers: the shutdown loop asks again from this moment. */
	nextShutdownAttempt = 0;

	constructor(private readonly host: RegistrationSeams) {}

	/** Registers now unless registered, registering, given up or stopped. */
	start(): void {
		if (this.stopped || this.gaveUp || this.inFlight || this.current !== undefined) return;
		const [factsOk, facts] = pcall(this.host.gameInfo);
		if (!factsOk) {
			this.failed(`could not read the server's facts: ${tostring(facts)}`, "retry");
			return;
		}
		this.inFlight = true;
		const options = {
			priority: "high",
			maxAttempts: 1,
			timeout: REGISTRATION_TIMEOUT,
			late: { listen: LATE_LISTEN, take: (answer: unknown) => this.lateAnswer(answer as CreateServerAnswer) },
		} as const;
		this.host.client.activity.registerServer(facts, options).andThen(
			(answer) =>
				this.host.guard("registration", () => {
					this.inFlight = false;
					this.answered(answer);
				}),
			(err: unknown) =>
				this.host.guard("registration", () => {
					this.inFlight = false;
					// A late answer of an earlier attempt registered this server meanwhile: nothing failed.
					if (this.stopped || this.current !== undefined) return;
					const reaction = reactionTo("createServer", err);
					const unsure = StaffOpsError.is(err) && err.mayHaveActed;
					const note = unsure
						? ". The service may have registered that attempt; StaffOps uses or ends it if its answer still comes"
						: "";
					this.failed(`${tostring(err)}${note}`, reaction, err);
				}),
		);
	}

	/** An attempt's answer, in time or late: the registration when there is none yet, else a second server to end. */
	private answered(answer: CreateServerAnswer): void {
		if (this.stopped) return;
		if (this.current !== undefined) {
			if (answer.runningGameId !== this.current.runningGameId) this.endSecond(answer.runningGameId);
			return;
		}
		if (this.gaveUp) return;
		if (!usableId(answer.runningGameId) || !usableId(answer.gameId)) {
			// Every join and heartbeat would carry an id that cannot be sent: refuse it here, once.
			this.gaveUp = true;
			logWarn(
				`the service registered this server under an id StaffOps cannot send back ` +
					`(${answer.runningGameId.size()} characters); StaffOps stays off until the next start`,
			);
			return;
		}
		this.current = { internalGameId: answer.gameId, runningGameId: answer.runningGameId, answer };
		const attempts = this.failures + 1;
		this.failures = 0;
		const id = `(internal game id ${answer.gameId})`;
		// A registration is made once: its outage ends with it, in this line, without a quiet period.
		const again = this.host.health.ended("register");
		logInfo(again ? `registered this server after ${attempts} attempts ${id}` : `registered this server ${id}`);
		this.host.registered(this.current);
	}

	/** The answer of an attempt already given up on (timed out): the service made that server after all. */
	private lateAnswer(answer: CreateServerAnswer): void {
		this.host.guard("registration", () => {
			this.lateAnswers += 1;
			this.answered(answer);
		});
	}

	/**
	 * Ends a server the service made for an attempt whose answer came after another attempt had registered, so the
	 * service holds one server for this game server. Once: the route is safe to repeat, an answer is never repeated.
	 */
	private endSecond(runningGameId: string): void {
		this.secondsEnded += 1;
		this.host.client.extensions.endServer(runningGameId, { priority: "high" }).andThen(
			() => logInfo("ended a second server the service made for an earlier registration attempt"),
			(err: unknown) =>
				logWarn(
					`could not end a second server the service made for an earlier registration attempt (${tostring(err)}); ` +
						"it holds no players, and the service forgets it on its own",
				),
		);
	}

	/** The service forgot this server: drop the registration and register again. */
	forget(): void {
		this.current = undefined;
		this.start();
	}

	stop(): void {
		this.stopped = true;
	}

	/** Whether the service refused the registration for good (StaffOps stays off until the next start). */
	hasGivenUp(): boolean {
		return this.gaveUp;
	}

	/** Whether a registration attempt is out now. */
	isRegistering(): boolean {
		return this.inFlight;
	}

	private failed(text: string, reaction: string, err?: unknown): void {
		this.failures += 1;
		this.failuresHandled += 1;
		if (reaction === "give-up") {
			this.gaveUp = true;
			logWarn(`the service refused to register this server (${text}); StaffOps stays off until the next start`);
			this.host.health.changed?.();
			return;
		}
		const badKey = reaction === "bad-key";
		this.host.health.problem(
			"register",
			badKey
				? `the service refused the API key (${text}); check the key, retrying every minute`
				: `could not register this server (${text}); retrying in the background, joins wait until it succeeds`,
			err,
		);
		if (this.host.shuttingDown()) {
			this.nextShutdownAttempt = os.clock() + 1;
			return;
		}
		const wait = math.max(badKey ? BACKGROUND.cap : 0, backgroundWait(this.failures, this.host.random, err));
		this.host.scheduler.delay(wait, () => this.host.guard("registration", () => this.start()));
	}
}
