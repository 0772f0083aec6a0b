// Where the pinned Rojo, Lune, StyLua and selene live (installed by scripts/install-tools.sh), for the other scripts.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";

// The pins live once, in install-tools.sh (`NAME_VERSION="x.y.z"`), so the two never disagree.
const pins = readFileSync(new URL("./install-tools.sh", import.meta.url), "utf8");
function pinned(name) {
	const match = new RegExp(`^${name.toUpperCase()}_VERSION="([^"]+)"$`, "m").exec(pins);
	if (match === null) throw new Error(`scripts/install-tools.sh pins no ${name} version`);
	return match[1];
}

export const ROJO_VERSION = pinned("rojo");
export const LUNE_VERSION = pinned("lune");
export const STYLUA_VERSION = pinned("stylua");
export const SELENE_VERSION = pinned("selene");
const VERSIONS = { rojo: ROJO_VERSION, lune: LUNE_VERSION, stylua: STYLUA_VERSION, selene: SELENE_VERSION };
const TOOLS_HOME = process.env.STAFFOPS_TOOLS_HOME ?? "/opt/staffops-tools";

function toolPath(name, version) {
	return join(TOOLS_HOME, `${name}-${version}`, "bin", name);
}

/** Returns the path of a pinned tool, installing the tools first when one is missing. */
export function requireTool(name) {
	const version = VERSIONS[name];
	if (version === undefined) throw new Error(`unknown tool ${name}`);
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

/** selene's Roblox base library, kept beside the selene binary by install-tools.sh (installing it when missing). */
export function seleneRobloxBase() {
	const path = join(TOOLS_HOME, `selene-${SELENE_VERSION}`, "share", "roblox_base.yml");
	if (!existsSync(path)) {
		const result = spawnSync("bash", ["scripts/install-tools.sh"], { stdio: "inherit" });
		if (result.status !== 0 || !existsSync(path)) {
			console.error(`[tools] selene's Roblox base library is missing (${path}); see the messages above`);
			process.exit(1);
		}
	}
	return path;
}
