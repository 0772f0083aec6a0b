// Starts the reference Staff Operations Service as a child process on a free loopback port, for the test
// runner and the demo. Resolves once it has printed its base_url and key lines.
import { spawn, spawnSync } from "node:child_process";
import { createInterface } from "node:readline";

/** Compiles the service (quiet on success); false when the compile failed. */
export function buildService() {
	return spawnSync("node", ["scripts/service.mjs", "--build-only"], { stdio: "inherit" }).status === 0;
}

/** Starts the compiled service; `stop()` ends it. */
export async function startService(extraArgs = []) {
	const child = spawn("node", ["build/service/src/main.js", "--port", "0", ...extraArgs], {
		stdio: ["ignore", "pipe", "inherit"],
	});
	const lines = createInterface({ input: child.stdout });
	const found = {};
	await new Promise((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error("the reference service did not start within 20 s")), 20000);
		child.once("exit", (code) => reject(new Error(`the reference service exited early (code ${code})`)));
		lines.on("line", (line) => {
			const match = /^(base_url|key)=(.*)$/.exec(line.trim());
			if (match) found[match[1]] = match[2];
			if (found.base_url && found.key) {
				clearTimeout(timer);
				resolve();
			}
		});
	});
	child.removeAllListeners("exit");
	return { baseUrl: found.base_url, key: found.key, stop: () => child.kill("SIGTERM") };
}
