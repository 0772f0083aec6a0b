/** A refusal the service answers as `{success:false, reason}` (or `body`, when given) with this HTTP status. */
export class ServiceError extends Error {
	constructor(
		readonly status: number,
		readonly reason: string,
		/** An answer of another shape, for the deployed profile's refusals that do not use `reason`. */
		readonly body?: object,
	) {
		super(reason);
		this.name = "ServiceError";
	}
}

export function notFound(reason: string): ServiceError {
	return new ServiceError(404, reason);
}
