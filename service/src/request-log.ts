import type { FastifyRequest } from "fastify";
import { operationOf, pathOf } from "./http/request-context.js";

export interface LoggedRequest {
	operation: string;
	method: string;
	path: string;
	/** HTTP status answered; 0 when a "drop" fault closed the connection without one. */
	status: number;
	at: number;
	body: unknown;
}

/** Kept bounded so a long-running dev service does not grow without end. */
const MAX_ENTRIES = 10_000;

/** Every non-control request, in arrival order, without headers (so never the key). */
export class RequestLog {
	private entries: LoggedRequest[] = [];

	recordRequest(request: FastifyRequest, status: number): void {
		const operation = operationOf(request);
		if (operation === null) return;
		this.entries.push({
			operation,
			method: request.method,
			path: pathOf(request),
			status,
			at: request.receivedAt,
			body: request.body ?? null,
		});
		if (this.entries.length > MAX_ENTRIES) this.entries.splice(0, this.entries.length - MAX_ENTRIES);
	}

	since(ms: number): { requests: LoggedRequest[]; counts: Record<string, number> } {
		const requests = this.entries.filter((entry) => entry.at >= ms).map((entry) => structuredClone(entry));
		const counts: Record<string, number> = {};
		for (const entry of requests) counts[entry.operation] = (counts[entry.operation] ?? 0) + 1;
		return { requests, counts };
	}

	clear(): void {
		this.entries = [];
	}
}
