import type { FastifyInstance } from "fastify";
import type { FaultBook, FaultSpec } from "../faults/fault-book.js";
import { ServiceError, notFound } from "../service-error.js";
import type { RequestLog } from "../request-log.js";
import { appendAgentMessage } from "../resources/calls.js";
import { PROFILES, isProfileName } from "../profiles/profile.js";
import { SeedError, validateSeed } from "../seed.js";
import { removeServerNow } from "../silence.js";
import type { Store } from "../store.js";
import type { CallStatus } from "../model.js";
import {
	agentMessageBody,
	callStatusBody,
	configBody,
	faultBody,
	forgetBody,
	transcriptFillerBody,
} from "./control-schemas.js";
import { pushMessage } from "../profiles/deployed-tickets.js";
import { workspaceRecordsView } from "./records-view.js";
import { inGameControls } from "./in-game-controls.js";
import { workspaceStateView } from "./state-view.js";

/** A whole seed may be posted to reset, so it gets more room than an operation's 64 KiB. */
const RESET_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

export interface ControlDeps {
	store: Store;
	faults: FaultBook;
	log: RequestLog;
}

/**
 * Test and development controls under /_control/. They need no key: the service only listens on loopback.
 * Registered in their own scope so an empty JSON body counts as no body (curl -X POST without data).
 */
export async function controlRoutes(app: FastifyInstance, { store, faults, log }: ControlDeps): Promise<void> {
	app.removeContentTypeParser("application/json");
	app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, text, done) => {
		if (text === "") return done(null, undefined);
		try {
			done(null, JSON.parse(text as string));
		} catch {
			done(new ServiceError(400, "Malformed JSON in the request body"), undefined);
		}
	});

	const callFor = (callId: string) => {
		for (const ws of store.workspaces()) {
			const call = ws.calls.get(callId);
			if (call) return call;
		}
		throw notFound(`Unknown call ${callId}`);
	};

	app.post<{ Body: FaultSpec }>("/_control/faults", { schema: { body: faultBody } }, async (request) => {
		const spec = request.body;
		if (spec.kind === undefined && spec.status === undefined && spec.latencyMs === undefined) {
			throw new ServiceError(400, 'A fault needs at least one of "kind", "status" or "latencyMs"');
		}
		if (spec.kind === "late" && !spec.latencyMs) {
			throw new ServiceError(400, 'A "late" fault needs "latencyMs" (how long the request waits before it acts)');
		}
		return { success: true, id: faults.add(spec).id };
	});

	app.get("/_control/faults", async () => ({ success: true, faults: faults.list() }));

	app.delete("/_control/faults", async () => {
		faults.clear();
		return { success: true };
	});

	app.delete<{ Params: { id: string } }>("/_control/faults/:id", async (request) => {
		if (!faults.remove(request.params.id)) throw notFound(`Unknown fault ${request.params.id}`);
		return { success: true };
	});

	app.get<{ Querystring: Record<string, string | undefined> }>("/_control/requests", async (request) => {
		const raw = request.query.since;
		const since = raw === undefined ? 0 : Number(raw);
		if (raw === "" || !Number.isFinite(since)) {
			throw new ServiceError(400, 'Query parameter "since" must be a time in milliseconds since the epoch');
		}
		return { success: true, ...log.since(since) };
	});

	app.delete("/_control/requests", async () => {
		log.clear();
		return { success: true };
	});

	app.post<{ Body: unknown }>("/_control/reset", { bodyLimit: RESET_BODY_LIMIT_BYTES }, async (request) => {
		const body = request.body ?? {};
		if (typeof body !== "object" || Array.isArray(body))
			throw new ServiceError(400, "Request body must be a JSON object");
		const unknownField = Object.keys(body).find((name) => name !== "seed" && name !== "profile");
		if (unknownField) throw new ServiceError(400, `Unknown field "${unknownField}"`);
		const { seed: raw, profile } = body as { seed?: unknown; profile?: unknown };
		if (profile !== undefined && !isProfileName(profile)) {
			throw new ServiceError(400, `Field "profile" must be one of: ${PROFILES.join(", ")}`);
		}
		let seed;
		try {
			seed = raw === undefined ? undefined : validateSeed(raw, "reset body");
		} catch (error) {
			if (error instanceof SeedError) throw new ServiceError(400, error.message);
			throw error;
		}
		store.reset(seed, profile);
		faults.clear();
		log.clear();
		return { success: true };
	});

	const config = () => ({
		success: true,
		profile: store.profile,
		forgetAfterSeconds: store.forgetAfterMs / 1000,
		privacy: store.privacy,
	});

	app.get("/_control/config", async () => config());

	app.post<{ Body: { forgetAfterSeconds?: number; privacy?: boolean } }>(
		"/_control/config",
		{ schema: { body: configBody } },
		async (request) => {
			const { forgetAfterSeconds, privacy } = request.body;
			// Privacy mode is the deployed service's; accepting it where it changes nothing would mislead a spec.
			if (privacy && store.profile !== "deployed") {
				throw new ServiceError(
					400,
					'Privacy mode exists only in the deployed profile (reset with profile "deployed")',
				);
			}
			if (forgetAfterSeconds !== undefined) store.forgetAfterMs = forgetAfterSeconds * 1000;
			if (privacy !== undefined) store.privacy = privacy;
			return config();
		},
	);

	app.post<{ Body: { internalGameId: string } }>(
		"/_control/forget",
		{ schema: { body: forgetBody } },
		async (request) => {
			if (!removeServerNow(store, request.body.internalGameId, Date.now()))
				throw notFound(`Unknown running game ${request.body.internalGameId}`);
			return { success: true };
		},
	);

	// Silent servers were already removed when this request arrived (see http/profile-gate.ts).
	app.get("/_control/state", async () => ({
		success: true,
		workspaces: store.workspaces().map(workspaceStateView),
	}));

	app.get("/_control/records", async () => ({
		success: true,
		profile: store.profile,
		workspaces: store.workspaces().map(workspaceRecordsView),
	}));

	app.post<{ Params: { callId: string }; Body: { username: string; userId: number; message: string } }>(
		"/_control/calls/:callId/messages",
		{ schema: { body: agentMessageBody } },
		async (request) => ({
			success: true,
			message: appendAgentMessage(callFor(request.params.callId), request.body, Date.now()),
		}),
	);

	// A long call in one request: the deployed service sends every open call's whole transcript in each sync answer,
	// so a few of these make the megabyte answers a client must read.
	app.post<{ Params: { callId: string }; Body: { count: number; length: number; origin?: "user" | "agent" } }>(
		"/_control/calls/:callId/filler",
		{ schema: { body: transcriptFillerBody } },
		async (request) => {
			const call = callFor(request.params.callId);
			const { count, length, origin = "user" } = request.body;
			const now = Date.now();
			for (let index = 0; index < count; index += 1) {
				const text = `${index} `.padEnd(length, "lorem ipsum ");
				const who =
					origin === "user" ? { username: "Caller", userId: 0 } : { username: "HeadModHana", userId: 7 };
				pushMessage(
					call,
					{ ...who, message: text, origin, sentFrom: origin === "user" ? "game" : "chatapp" },
					now,
				);
			}
			return { success: true, messages: call.messages.length };
		},
	);

	app.post<{ Params: { callId: string }; Body: { status: CallStatus } }>(
		"/_control/calls/:callId/status",
		{ schema: { body: callStatusBody } },
		async (request) => {
			callFor(request.params.callId).status = request.body.status;
			return { success: true, status: request.body.status };
		},
	);

	await inGameControls(app, store);
}
