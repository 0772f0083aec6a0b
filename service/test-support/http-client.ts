/** A small HTTP client for the contract tests: real requests over loopback, answers kept raw and parsed. */
export interface Answer {
	status: number;
	headers: Headers;
	text: string;
	/** Parsed JSON, or undefined when the body is not JSON; typed loosely so tests can read it after shape checks. */
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are checked by shape, then read freely
	json: any;
}

export interface RequestOptions {
	/** Sent as JSON. */
	body?: unknown;
	/** Sent as is, with content-type application/json unless headers say otherwise. */
	raw?: string;
	/** null sends no loader-id header; undefined uses the client's key. */
	key?: string | null;
	headers?: Record<string, string>;
}

export class Client {
	constructor(
		readonly baseUrl: string,
		readonly key: string | null = null,
	) {}

	withKey(key: string | null): Client {
		return new Client(this.baseUrl, key);
	}

	async request(method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
		const headers: Record<string, string> = {};
		const key = options.key === undefined ? this.key : options.key;
		if (key !== null) headers["loader-id"] = key;
		let body: string | undefined;
		if (options.raw !== undefined || options.body !== undefined) {
			headers["content-type"] = "application/json";
			body = options.raw ?? JSON.stringify(options.body);
		}
		Object.assign(headers, options.headers);
		const response = await fetch(this.baseUrl + path, { method, headers, body });
		const text = await response.text();
		let json: unknown;
		try {
			json = JSON.parse(text);
		} catch {
			json = undefined;
		}
		return { status: response.status, headers: response.headers, text, json };
	}

	get(path: string, options?: RequestOptions): Promise<Answer> {
		return this.request("GET", path, options);
	}

	post(path: string, body?: unknown, options: RequestOptions = {}): Promise<Answer> {
		return this.request("POST", path, { ...options, body });
	}

	put(path: string, body?: unknown, options: RequestOptions = {}): Promise<Answer> {
		return this.request("PUT", path, { ...options, body });
	}

	delete(path: string, options?: RequestOptions): Promise<Answer> {
		return this.request("DELETE", path, options);
	}
}
