import type { FastifyReply, FastifyRequest } from "fastify";
import { failure } from "../http/error-answers.js";
import type { RequestLog } from "../request-log.js";
import { type FaultBook, answersInsteadOfOperation } from "./fault-book.js";
import { extended, MALFORMED_BODY, truncate, wrongTypes } from "./spoilers.js";

/** Injected latency must not keep a closed service's process alive. */
function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * Draws a fault rule for an operation request once its key is checked and its body parsed, and answers in
 * place of the operation when the rule says so.
 */
export function faultBeforeOperation(faults: FaultBook, log: RequestLog) {
	return async (request: FastifyRequest, reply: FastifyReply) => {
		const operation = request.routeOptions.config?.operation;
		if (!operation) return undefined;
		const rule = faults.take(operation);
		if (!rule) return undefined;
		request.fault = rule;
		if (rule.kind === "late") {
			// Held before acting, whether or not the client still waits: the operation lands after the latency.
			await delay(rule.latencyMs ?? 0);
			return undefined;
		}
		if (!answersInsteadOfOperation(rule)) return undefined;
		if (rule.latencyMs) await delay(rule.latencyMs);
		if (rule.kind === "drop") {
			log.recordRequest(request, 0);
			reply.hijack();
			request.raw.socket.destroy();
			return reply;
		}
		if (rule.retryAfter !== undefined) void reply.header("retry-after", String(rule.retryAfter));
		return reply.code(rule.status ?? 200).send(failure("Injected failure"));
	};
}

/**
 * Delays or spoils the operation's real answer (whatever it was, refusals included), or loses it: drop-after
 * closes the connection once the operation has acted.
 */
export function faultAfterOperation(log: RequestLog) {
	return async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
		const rule = request.fault;
		if (!rule || answersInsteadOfOperation(rule)) return payload;
		if (rule.kind === "late") {
			// The client may have given up while the request was held: its answer then never finishes, so it is
			// logged here, once the operation has acted.
			if (request.raw.socket?.destroyed === true) log.recordRequest(request, reply.statusCode);
			return payload;
		}
		if (rule.latencyMs) await delay(rule.latencyMs);
		if (rule.kind === "drop-after") {
			log.recordRequest(request, 0);
			request.raw.socket.destroy();
			return payload;
		}
		if (rule.retryAfter !== undefined) void reply.header("retry-after", String(rule.retryAfter));
		if (rule.status !== undefined) void reply.code(rule.status);
		if (typeof payload !== "string") return payload;
		switch (rule.kind) {
			case "malformed":
				if (rule.status === undefined) void reply.code(200);
				void reply.header("content-type", "application/json; charset=utf-8");
				return MALFORMED_BODY;
			case "truncated":
				return truncate(payload);
			case "wrong-types":
				return wrongTypes(payload);
			case "extended":
				return extended(payload, rule.fields ?? {});
			default:
				return payload;
		}
	};
}
