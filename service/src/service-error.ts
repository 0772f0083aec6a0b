/** A refusal the service answers as `{success:false, reason}` with this HTTP status. */
export class ServiceError extends Error {
	constructor(
		readonly status: number,
		readonly reason: string,
	) {
		super(reason);
		this.name = "ServiceError";
	}
}

export function notFound(reason: string): ServiceError {
	return new ServiceError(404, reason);
}
