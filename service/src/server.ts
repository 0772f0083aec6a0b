import Fastify, { type FastifyInstance } from "fastify";
import type { Socket } from "node:net";
import { controlRoutes } from "./control/control-routes.js";
import { faultAfterOperation, faultBeforeOperation } from "./faults/fault-hooks.js";
import { FaultBook } from "./faults/fault-book.js";
import { keyCheck } from "./http/auth.js";
import { errorHandler, failure, frameworkErrorHandler, notFoundHandler } from "./http/error-answers.js";
import { registerCommandRoutes } from "./http/command-routes.js";
import { registerExtensionRoutes } from "./http/extension-routes.js";
import { registerOperationRoutes } from "./http/operation-routes.js";
import { arrival, profileGate } from "./http/profile-gate.js";
import "./http/request-context.js";
import { PROFILES, type ProfileName, isProfileName } from "./profiles/profile.js";
import { RequestLog } from "./request-log.js";
import { type Seed, defaultSeed, validateSeed } from "./seed.js";
import { Store } from "./store.js";

export const HOST = "127.0.0.1";
export const BODY_LIMIT_BYTES = 64 * 1024;

export interface ServiceOptions {
	/** 0 (the default) picks a free port. */
	port?: number;
	/** A seed object of the documented shape; the built-in default when absent. */
	seed?: unknown;
	/** The silence limit; when absent, the profile's own (180 s default, 1200 s deployed). */
	forgetAfterSeconds?: number;
	/** "default" (the default) or "deployed"; a bare `/_control/reset` returns to it. */
	profile?: ProfileName;
}

export interface RunningService {
	baseUrl: string;
	/** The key of the seed's first workspace. */
	key: string;
	close(): Promise<void>;
}

/** Answers garbage that is not even HTTP in the same `{success:false, reason}` shape. */
function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
	if (error.code === "ECONNRESET" || !socket.writable) {
		socket.destroy();
		return;
	}
	const body = JSON.stringify(failure("Malformed HTTP request"));
	socket.end(
		"HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\n" +
			`Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
	);
}

export function buildApp(store: Store): FastifyInstance {
	const faults = new FaultBook();
	const log = new RequestLog();
	const app = Fastify({
		logger: false,
		bodyLimit: BODY_LIMIT_BYTES,
		forceCloseConnections: true,
		exposeHeadRoutes: false,
		clientErrorHandler,
		// Strict checks: no type coercion, no silently dropped fields, no defaults filled in.
		ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: false } },
		frameworkErrors: frameworkErrorHandler,
	});
	app.decorateRequest("workspace", null);
	app.decorateRequest("fault", null);
	app.decorateRequest("receivedAt", 0);
	app.decorateRequest("settings", null as never);

	app.addHook("onRequest", arrival(store));
	app.addHook("onRequest", profileGate());
	app.addHook("onRequest", keyCheck(store));
	app.addHook("preValidation", faultBeforeOperation(faults, log));
	app.addHook("onSend", faultAfterOperation(log));
	// A drop-after fault logged its request (status 0) when it closed the connection.
	app.addHook("onResponse", async (request, reply) => {
		if (request.fault?.kind !== "drop-after") log.recordRequest(request, reply.statusCode);
	});

	app.setErrorHandler(errorHandler);
	app.setNotFoundHandler(notFoundHandler(() => store.profile));
	registerOperationRoutes(app);
	registerExtensionRoutes(app);
	registerCommandRoutes(app);
	void app.register(controlRoutes, { store, faults, log });
	return app;
}

/** Starts the service on 127.0.0.1 (never another interface) and resolves once it listens. */
export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
	const seed: Seed = options.seed === undefined ? defaultSeed() : validateSeed(options.seed, "startService seed");
	if (options.profile !== undefined && !isProfileName(options.profile)) {
		throw new Error(`unknown profile ${JSON.stringify(options.profile)}; use one of: ${PROFILES.join(", ")}`);
	}
	const store = new Store(seed, options.forgetAfterSeconds, options.profile);
	const app = buildApp(store);
	await app.listen({ host: HOST, port: options.port ?? 0 });
	const address = app.server.address();
	const port = typeof address === "object" && address ? address.port : options.port;
	return {
		baseUrl: `http://${HOST}:${port}`,
		key: store.primaryKey,
		close: () => app.close(),
	};
}
