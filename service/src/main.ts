import { UsageError, USAGE, parseCliArgs } from "./cli-args.js";
import { SeedError, loadSeedFile } from "./seed.js";
import { startService } from "./server.js";

function fail(message: string, code: number): never {
	process.stderr.write(`service: ${message}\n`);
	process.exit(code);
}

/**
 * Starts the service and prints exactly `base_url=...` and `key=...` (test harnesses read these two lines),
 * then stays quiet except for errors; SIGINT or SIGTERM closes it and exits 0.
 */
export async function runCli(argv: string[]): Promise<void> {
	let options;
	try {
		options = parseCliArgs(argv);
	} catch (error) {
		if (error instanceof UsageError) fail(`${error.message}\n${USAGE}`, 2);
		throw error;
	}
	let seed;
	try {
		seed = options.seedFile === undefined ? undefined : loadSeedFile(options.seedFile);
	} catch (error) {
		if (error instanceof SeedError) fail(error.message, 1);
		throw error;
	}
	let service;
	try {
		service = await startService({
			port: options.port,
			seed,
			forgetAfterSeconds: options.forgetAfterSeconds,
			profile: options.profile,
		});
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "EADDRINUSE") fail(`port ${options.port} is already in use; pick another with --port`, 1);
		fail(`could not start: ${(error as Error).message}`, 1);
	}
	process.stdout.write(`base_url=${service.baseUrl}\nkey=${service.key}\n`);

	let stopping = false;
	const stop = () => {
		if (stopping) return;
		stopping = true;
		service.close().then(
			() => process.exit(0),
			(error: Error) => fail(`error while stopping: ${error.message}`, 1),
		);
	};
	process.on("SIGINT", stop);
	process.on("SIGTERM", stop);
}

if (require.main === module) void runCli(process.argv.slice(2));
