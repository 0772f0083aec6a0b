// Where the pinned Rojo and Lune live (installed by scripts/install-tools.sh), for the other scripts.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";

export const ROJO_VERSION = "7.4.4";
export const LUNE_VERSION = "0.8.8";
const TOOLS_HOME = process.env.STAFFOPS_TOOLS_HOME ?? "/opt/staffops-tools";

function toolPath(name, version) {
	return join(TOOLS_HOME, `${name}-${version}`, "bin", name);
}

/** Returns the path of a pinned tool, installing the tools first when one is missing. */
export function requireTool(name) {
	const version = name === "rojo" ? ROJO_VERSION : LUNE_VERSION;
	const path = toolPath(name, version);
	if (!existsSync(path)) {
		console.log(`[tools] ${name} ${version} is not installed yet; installing (first time only)`);
		const result = spawnSync("bash", ["scripts/install-tools.sh"], { stdio: "inherit" });
		if (result.status !== 0 || !existsSync(path)) {
			console.error(`[tools] could not install ${name} ${version}; see the messages above`);
			process.exit(1);
		}
	}
	return path;
}
