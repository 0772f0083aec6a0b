import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { nestNotFound } from "../profiles/deployed-reads.js";
import type { ProfileName } from "../profiles/profile.js";
import { ServiceError } from "../service-error.js";
import { FORMAT_HINTS } from "./request-schemas.js";

export interface Failure {
	success: false;
	reason: string;
}

export function failure(reason: string): Failure {
	return { success: false, reason };
}

interface SchemaError {
	keyword: string;
	instancePath: string;
	params: Record<string, unknown>;
	message?: string;
}

/** "/items/0/quantity" → "items[0].quantity" */
function fieldName(instancePath: string, child?: unknown): string {
	const parts = instancePath.split("/").slice(1);
	if (child !== undefined) parts.push(String(child));
	return parts.reduce(
		(name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part),
		"",
	);
}

function article(type: string): string {
	return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** A reason that names the offending field, built from the first schema error. */
export function validationReason(errors: SchemaError[], context: string | undefined): string {
	const error = errors[0];
	const where = context === "body" || context === undefined ? "" : ` (in ${context})`;
	if (!error) return "Invalid request";
	const field = fieldName(error.instancePath);
	if (context === "params") return `Path parameter "${field}" must not be empty`;
	switch (error.keyword) {
		case "required":
			return `Missing required field "${fieldName(error.instancePath, error.params.missingProperty)}"${where}`;
		case "additionalProperties":
			return `Unknown field "${fieldName(error.instancePath, error.params.additionalProperty)}"${where}`;
		case "type":
			return field === ""
				? `Request body must be a JSON object${where}`
				: `Field "${field}" must be ${article(String(error.params.type))}${where}`;
		case "enum":
			return `Field "${field}" must be one of: ${(error.params.allowedValues as unknown[]).join(", ")}${where}`;
		case "minLength":
			return `Field "${field}" must not be empty${where}`;
		case "minItems":
			return `Field "${field}" must have at least ${String(error.params.limit)} entry${where}`;
		case "pattern": {
			const leaf = field.split(".").pop() ?? field;
			return `Field "${field}" must be ${FORMAT_HINTS[leaf] ?? `in the documented format`}${where}`;
		}
		default:
			return `Field "${field}" ${error.message ?? "is invalid"}${where}`;
	}
}

const FRAMEWORK_REASONS: Record<string, string> = {
	FST_ERR_CTP_INVALID_JSON_BODY: "Malformed JSON in the request body",
	FST_ERR_CTP_EMPTY_JSON_BODY: "The request body is empty but its content-type is application/json",
	FST_ERR_CTP_BODY_TOO_LARGE: "The request body is larger than the service accepts (64 KiB)",
	FST_ERR_CTP_INVALID_MEDIA_TYPE: "Unsupported content-type: send the body as application/json",
	FST_ERR_CTP_INVALID_CONTENT_LENGTH: "The request's content-length does not match its body",
	FST_ERR_BAD_URL: "The request URL is malformed",
	FST_ERR_MAX_PARAM_LENGTH: "A path parameter is longer than the service accepts (100 characters)",
};

/**
 * Maps every error to `{success:false, reason}`: refusals keep their status, Fastify's client errors keep
 * theirs (400, 413, 415), anything else is a 500 whose detail goes to stderr only.
 */
export function errorHandler(error: FastifyError | ServiceError, request: FastifyRequest, reply: FastifyReply): void {
	if (error instanceof ServiceError) {
		void reply.code(error.status).send(error.body ?? failure(error.reason));
		return;
	}
	if (error.validation) {
		void reply
			.code(400)
			.send(failure(validationReason(error.validation as SchemaError[], error.validationContext)));
		return;
	}
	const status = error.statusCode ?? 500;
	if (status >= 400 && status < 500) {
		void reply.code(status).send(failure((error.code && FRAMEWORK_REASONS[error.code]) ?? error.message));
		return;
	}
	process.stderr.write(`service: error in ${request.method} ${request.url.split("?")[0]}: ${error.stack ?? error}\n`);
	void reply.code(500).send(failure("Internal error in the reference service; see its stderr"));
}

/** What a route the profile lacks answers: `{success:false, reason}`, or NestJS's 404 in the deployed profile. */
export function unknownRouteAnswer(profile: ProfileName, method: string, url: string): object {
	const path = url.split("?")[0];
	return profile === "deployed" ? nestNotFound(method, path) : failure(`No operation at ${method} ${path}`);
}

export function notFoundHandler(profileOf: () => ProfileName) {
	return (request: FastifyRequest, reply: FastifyReply): void => {
		void reply.code(404).send(unknownRouteAnswer(profileOf(), request.method, request.url));
	};
}

/** Errors Fastify raises before routing (a malformed URL, say). */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
	void reply
		.code(error.statusCode ?? 400)
		.send(failure((error.code && FRAMEWORK_REASONS[error.code]) ?? error.message));
}
