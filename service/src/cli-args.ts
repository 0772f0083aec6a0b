import { PROFILES, type ProfileName, isProfileName } from "./profiles/profile.js";

export interface CliOptions {
	port: number;
	seedFile?: string;
	forgetAfterSeconds?: number;
	profile?: ProfileName;
}

export const USAGE =
	"usage: npm run service -- [--port PORT] [--seed FILE] [--forget-after SECONDS] [--profile default|deployed]";
export const DEFAULT_PORT = 4100;

export class UsageError extends Error {}

function valueOf(args: string[], index: number, flag: string): string {
	const value = args[index + 1];
	if (value === undefined || value.startsWith("--")) throw new UsageError(`${flag} needs a value`);
	return value;
}

/** Accepts `--flag value` and `--flag=value`. */
export function parseCliArgs(argv: string[]): CliOptions {
	const args = argv.flatMap((arg) => (arg.startsWith("--") && arg.includes("=") ? arg.split(/=(.*)/s, 2) : [arg]));
	const options: CliOptions = { port: DEFAULT_PORT };
	for (let index = 0; index < args.length; index += 1) {
		const flag = args[index];
		switch (flag) {
			case "--port": {
				const port = Number(valueOf(args, index, flag));
				if (!Number.isInteger(port) || port < 0 || port > 65535) {
					throw new UsageError("--port must be a whole number from 0 to 65535 (0 picks a free port)");
				}
				options.port = port;
				index += 1;
				break;
			}
			case "--seed":
				options.seedFile = valueOf(args, index, flag);
				index += 1;
				break;
			case "--forget-after": {
				const seconds = Number(valueOf(args, index, flag));
				if (!Number.isFinite(seconds) || seconds <= 0) {
					throw new UsageError("--forget-after must be a positive number of seconds");
				}
				options.forgetAfterSeconds = seconds;
				index += 1;
				break;
			}
			case "--profile": {
				const profile = valueOf(args, index, flag);
				if (!isProfileName(profile)) throw new UsageError(`--profile must be one of: ${PROFILES.join(", ")}`);
				options.profile = profile;
				index += 1;
				break;
			}
			case "--build-only":
				break;
			default:
				throw new UsageError(`unknown argument ${JSON.stringify(flag)}`);
		}
	}
	return options;
}
