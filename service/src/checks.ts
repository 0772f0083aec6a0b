/**
 * A tiny structural checker for JSON values. The service validates seeds with it and the contract tests check
 * answers with it; each check returns the problems it found, as readable sentences naming the path.
 */
export type Check = (value: unknown, path: string) => string[];

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

function typeName(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) return "array";
	return typeof value;
}

function expect(ok: boolean, path: string, wanted: string, value: unknown): string[] {
	return ok ? [] : [`${path} must be ${wanted} (got ${typeName(value)})`];
}

export const isString: Check = (value, path) => expect(typeof value === "string", path, "a string", value);

export const isNonEmptyString: Check = (value, path) =>
	typeof value === "string" && value.length === 0 ? [`${path} must not be empty`] : isString(value, path);

export const isNumber: Check = (value, path) =>
	expect(typeof value === "number" && Number.isFinite(value), path, "a number", value);

export const isBoolean: Check = (value, path) => expect(typeof value === "boolean", path, "a boolean", value);

/** An ISO 8601 UTC timestamp such as 2024-05-01T12:00:00.000Z. */
export const isDateTime: Check = (value, path) => {
	if (typeof value !== "string") return expect(false, path, "a date-time string", value);
	return ISO_UTC.test(value) && !Number.isNaN(Date.parse(value))
		? []
		: [`${path} must be an ISO 8601 UTC date-time (got ${JSON.stringify(value)})`];
};

export const isPlainObject: Check = (value, path) =>
	expect(typeof value === "object" && value !== null && !Array.isArray(value), path, "an object", value);

export function isOneOf(...checks: Check[]): Check {
	return (value, path) => {
		const results = checks.map((check) => check(value, path));
		return results.some((problems) => problems.length === 0) ? [] : results.flat();
	};
}

export function isIn(allowed: readonly (string | number)[]): Check {
	return (value, path) =>
		allowed.includes(value as string | number)
			? []
			: [
					`${path} must be one of ${allowed.map((v) => JSON.stringify(v)).join(", ")} (got ${JSON.stringify(value)})`,
				];
}

export function isExactly(expected: string | number | boolean | null): Check {
	return (value, path) =>
		value === expected ? [] : [`${path} must be ${JSON.stringify(expected)} (got ${JSON.stringify(value)})`];
}

export function isArrayOf(item: Check): Check {
	return (value, path) => {
		if (!Array.isArray(value)) return expect(false, path, "an array", value);
		return value.flatMap((element, index) => item(element, `${path}[${index}]`));
	};
}

export interface ObjectOptions {
	/** Fields that may be absent. */
	optional?: readonly string[];
	/** Allow fields not listed. */
	open?: boolean;
}

/** An object with exactly these fields (unless `open`), each passing its check. */
export function isObjectOf(fields: Record<string, Check>, options: ObjectOptions = {}): Check {
	return (value, path) => {
		const notObject = isPlainObject(value, path);
		if (notObject.length > 0) return notObject;
		const record = value as Record<string, unknown>;
		const problems: string[] = [];
		for (const [name, check] of Object.entries(fields)) {
			if (!(name in record)) {
				if (!options.optional?.includes(name)) problems.push(`${path}.${name} is missing`);
				continue;
			}
			problems.push(...check(record[name], `${path}.${name}`));
		}
		if (!options.open) {
			for (const name of Object.keys(record)) {
				if (!(name in fields)) problems.push(`${path}.${name} is not a documented field`);
			}
		}
		return problems;
	};
}
