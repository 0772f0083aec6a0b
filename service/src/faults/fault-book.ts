import type { OperationId } from "../operations.js";

export const FAULT_KINDS = [
	"success-false",
	"malformed",
	"truncated",
	"wrong-types",
	"drop",
	"drop-after",
	"late",
	"extended",
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultSpec {
	operation: OperationId | "*";
	status?: number;
	retryAfter?: number;
	kind?: FaultKind;
	latencyMs?: number;
	times?: number;
	/** With `extended`: top-level fields of the real answer given these values (a service that added a value). */
	fields?: Record<string, string>;
}

export interface FaultRule extends FaultSpec {
	id: string;
	/** Matching requests it still applies to; null means unlimited. */
	remaining: number | null;
	applied: number;
}

/**
 * drop, success-false and a bare status answer instead of the operation, so state stays unchanged; the other
 * kinds (and latency alone) let the operation run and then delay or spoil its answer; drop-after runs it and
 * then closes the connection without an answer (the operation happened, its answer is lost); late holds the request
 * `latencyMs` before the operation acts, then answers at once (a frozen service that works through its queue after the
 * client gave up, so a later, quicker request can be answered before it).
 */
export function answersInsteadOfOperation(rule: FaultSpec): boolean {
	if (rule.kind === "drop" || rule.kind === "success-false") return true;
	return rule.kind === undefined && rule.status !== undefined;
}

/** Active fault rules; the oldest matching rule with uses left applies to a request, one rule per request. */
export class FaultBook {
	private rules: FaultRule[] = [];
	private counter = 0;

	add(spec: FaultSpec): FaultRule {
		this.counter += 1;
		const rule: FaultRule = { ...spec, id: `fault-${this.counter}`, remaining: spec.times ?? null, applied: 0 };
		this.rules.push(rule);
		return rule;
	}

	take(operation: OperationId): FaultRule | undefined {
		const rule = this.rules.find((r) => r.operation === "*" || r.operation === operation);
		if (!rule) return undefined;
		rule.applied += 1;
		if (rule.remaining !== null) {
			rule.remaining -= 1;
			if (rule.remaining <= 0) this.rules = this.rules.filter((r) => r !== rule);
		}
		return { ...rule };
	}

	list(): FaultRule[] {
		return this.rules.map((rule) => ({ ...rule }));
	}

	remove(id: string): boolean {
		const before = this.rules.length;
		this.rules = this.rules.filter((rule) => rule.id !== id);
		return this.rules.length < before;
	}

	clear(): void {
		this.rules = [];
	}
}
