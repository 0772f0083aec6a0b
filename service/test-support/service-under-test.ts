import { after, before, beforeEach } from "node:test";
import { type RunningService, type ServiceOptions, startService } from "../src/server.js";
import { Client } from "./http-client.js";

export interface TestService {
	service: RunningService;
	/** Client with the default workspace's key. */
	api: Client;
	/** Client without a key, for /_control/. */
	control: Client;
}

/**
 * Starts one service for the calling test file (node runs each file in its own process) and resets it to
 * the seed before every test.
 */
export function useService(options: ServiceOptions = {}): TestService {
	const handle = {} as TestService;
	before(async () => {
		handle.service = await startService({ port: 0, ...options });
		handle.api = new Client(handle.service.baseUrl, handle.service.key);
		handle.control = new Client(handle.service.baseUrl);
	});
	beforeEach(async () => {
		const answer = await handle.control.post("/_control/reset");
		if (answer.status !== 200) throw new Error(`reset failed: ${answer.text}`);
	});
	after(() => handle.service.close());
	return handle;
}

export async function stateOf(control: Client) {
	const answer = await control.get("/_control/state");
	if (answer.status !== 200) throw new Error(`state failed: ${answer.text}`);
	return answer.json;
}

export async function recordsOf(control: Client) {
	const answer = await control.get("/_control/records");
	if (answer.status !== 200) throw new Error(`records failed: ${answer.text}`);
	return answer.json;
}

export async function setConfig(control: Client, config: { forgetAfterSeconds?: number; privacy?: boolean }) {
	const answer = await control.post("/_control/config", config);
	if (answer.status !== 200) throw new Error(`config failed: ${answer.text}`);
	return answer.json;
}
