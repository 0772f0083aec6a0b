// The verbose level's request lines: each request's route and how it ended, read at the HTTP door.
import { HttpService } from "@rbxts/services";
import { logVerbose } from "../background/log";
import type { HttpServiceLike } from "../transport/httpDoor";

/**
 * The route of `url` as a log line shows it: the method and the path under the base address, without the query
 * string (a query may carry what a log should not: the key lives in a header, but a caller's route is its own).
 */
function routeOf(method: string, url: string, baseUrl: string): string {
	const path = url.sub(1, baseUrl.size()) === baseUrl ? url.sub(baseUrl.size() + 1) : "(another address)";
	const [bare] = path.gsub("[?#].*$", "");
	return `${method} ${bare === "" ? "/" : bare}`;
}

/**
 * The HTTP door with one `verbose` line per request: its route and its status, or that it got no answer. Used only
 * when `logLevel` is `verbose` at the start, so the other levels send through the door itself. Headers and bodies are
 * never read: the key travels in a header, and bodies hold players' and agents' text.
 * @internal
 */
export function loggedDoor(baseUrl: string, door: HttpServiceLike = HttpService): HttpServiceLike {
	const [base] = baseUrl.gsub("/+$", "");
	return {
		RequestAsync(options) {
			// An address given as a Secret is never shown.
			const url = options.Url;
			const route = typeIs(url, "string") ? routeOf(options.Method ?? "GET", url, base) : "(a Secret address)";
			const [ok, response] = pcall(() => door.RequestAsync(options));
			if (!ok) {
				logVerbose(`${route}: no answer`);
				// The door's own error, unchanged (level 0 adds no position): the transport reads its text.
				error(response, 0);
			}
			logVerbose(`${route}: ${response.StatusCode}`);
			return response;
		},
		JSONEncode(input) {
			return door.JSONEncode(input);
		},
		JSONDecode(input) {
			return door.JSONDecode(input);
		},
	};
}
