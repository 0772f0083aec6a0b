// A small HTTP server on loopback for the specs of the HttpService fake itself, which must not depend on
// the reference service. It runs in the test orchestrator's process (a server inside the Lune process
// stalled Lune's outgoing requests there):
//   /status/<code>  answers that status with a JSON body
//   /slow/<ms>      answers 200 after that many milliseconds
//   /echo           answers {method, headers, body} of the request it got
import { createServer } from "node:http";

function handle(request, response) {
	let body = "";
	request.on("data", (chunk) => (body += chunk));
	request.on("end", () => {
		const path = new URL(request.url, "http://probe").pathname;
		const status = /^\/status\/(\d+)$/.exec(path);
		const slow = /^\/slow\/(\d+)$/.exec(path);
		const json = (code, value, headers = {}) => {
			response.writeHead(code, { "Content-Type": "application/json", ...headers });
			response.end(JSON.stringify(value));
		};
		if (status) json(Number(status[1]), { success: Number(status[1]) < 400 }, { "X-Probe": "yes" });
		else if (slow) setTimeout(() => json(200, {}), Number(slow[1]));
		else if (path === "/echo") json(200, { method: request.method, headers: request.headers, body });
		else json(404, {});
	});
}

/** Starts the probe on a free loopback port; resolves to its base URL and a close function. */
export function startProbe() {
	const server = createServer(handle);
	return new Promise((resolve) => {
		server.listen(0, "127.0.0.1", () => {
			const { port } = server.address();
			resolve({ url: `http://127.0.0.1:${port}`, close: () => server.close() });
		});
	});
}
