// Checks of the connection settings, shared by the typed client and `StaffOps.start`: a problem is a sentence that
// names the setting, never its value (a value might be the key).

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * Checks a base URL: the normalised URL (no trailing `/`), or a text saying what is wrong, naming the setting as
 * `setting` (what the user edited: `baseUrl` in code, the attribute `BaseUrl` in the drop-in model).
 * @internal
 */
export function checkBaseUrl(
	url: unknown,
	setting = "baseUrl",
): [ok: true, url: string] | [ok: false, problem: string] {
	const [ok, urlOrProblem] = checkUrl(url);
	if (ok) return [true, urlOrProblem];
	return [false, `${setting} ${urlOrProblem}`];
}

function checkUrl(url: unknown): [ok: true, url: string] | [ok: false, problem: string] {
	if (!typeIs(url, "string") || url.size() === 0 || url.size() > 2048) {
		return [false, "must be a non-empty string"];
	}
	if (url.match("[%s%c]")[0] !== undefined) return [false, "must not contain spaces"];
	const [scheme, rest] = url.match("^(%a[%w+.-]*)://(.*)$");
	if (!typeIs(scheme, "string") || !typeIs(rest, "string")) return [false, "must start with https://"];
	const [host] = rest.match("^([^/?#]+)");
	if (!typeIs(host, "string") || host.sub(1, 1) === ":") return [false, "has no host"];
	if (rest.match("[?#]")[0] !== undefined) return [false, "must not carry a query or fragment"];
	if (host.match("@")[0] !== undefined) return [false, "must not carry credentials"];
	const lowerScheme = scheme.lower();
	if (lowerScheme === "http") {
		const [bracketed] = host.lower().match("^(%[[^%]]*%])");
		const [plain] = host.lower().match("^([^:]+)");
		const hostname = typeIs(bracketed, "string") ? bracketed : typeIs(plain, "string") ? plain : "";
		if (!LOOPBACK_HOSTS.has(hostname)) {
			return [false, "must use https:// (http:// is allowed only for 127.0.0.1 and localhost)"];
		}
	} else if (lowerScheme !== "https") {
		return [false, "must start with https://"];
	}
	const [port] = host.match("^%[[^%]]*%]:(.*)$");
	const [plainPort] = host.match("^[^:%[]+:(.*)$");
	const portText = typeIs(port, "string") ? port : typeIs(plainPort, "string") ? plainPort : undefined;
	if (portText !== undefined) {
		const portProblem = checkPort(portText);
		if (portProblem !== undefined) return [false, portProblem];
	}
	let normalised = url;
	while (normalised.sub(-1) === "/") normalised = normalised.sub(1, -2);
	return [true, normalised];
}

/**
 * Checks a base URL's port: Roblox's HttpService refuses ports below 1024 other than 80 and 443, and 1194, so such a
 * URL would pass here and fail at the first request.
 */
function checkPort(text: string): string | undefined {
	const port = text.match("^%d+$")[0] !== undefined ? tonumber(text) : undefined;
	if (port === undefined || port < 1 || port > 65535) return "has an invalid port";
	if ((port < 1024 && port !== 80 && port !== 443) || port === 1194) {
		return `uses port ${port}, which Roblox's HttpService refuses (below 1024 other than 80 and 443, and 1194)`;
	}
	return undefined;
}

/**
 * Checks a key (the API key, or the ranking key named `setting`): undefined when usable, else what is wrong (never
 * the key itself).
 * @internal
 */
export function checkApiKey(key: unknown, setting = "apiKey"): string | undefined {
	if (typeIs(key, "Secret")) return undefined;
	if (typeIs(key, "string")) {
		if (key.size() === 0) return `${setting} is empty`;
		if (key.size() > 1024 || key.match("[%c]")[0] !== undefined) return `${setting} is not a valid header value`;
		return undefined;
	}
	return `${setting} must be a string or a Secret`;
}
