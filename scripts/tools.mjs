// Where the pinned Rojo, Lune, StyLua and selene live, for the other scripts: built by scripts/install-tools.sh into a
// machine-wide folder, or already on PATH at exactly the pinned version (installed with rokit, for example).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";

// The pins live once, in rokit.toml (`name = "owner/repo@version"`), which install-tools.sh and rokit read too.
const pins = readFileSync(new URL("../rokit.toml", import.meta.url), "utf8");
function pinned(name) {
	const match = new RegExp(`^${name}\\s*=\\s*"[^"@]*@([^"]+)"`, "m").exec(pins);
	if (match === null) throw new Error(`rokit.toml pins no ${name} version`);
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

// Whether `name --version` on PATH reports exactly `version` (so "7.4.4" does not accept 7.4.40).
function onPathAt(name, version) {
	const result = spawnSync(name, ["--version"], { encoding: "utf8" });
	if (result.status !== 0) return false;
	const escaped = version.replace(/\./g, "\\.");
	return new RegExp(`(^|[^0-9.])${escaped}([^0-9.]|$)`).test(result.stdout ?? "");
}

function locate(name, version) {
	const path = toolPath(name, version);
	if (existsSync(path)) return path;
	return onPathAt(name, version) ? name : undefined;
}

/** Returns how to run a pinned tool (a path, or its name when PATH has it), installing the tools when it is missing. */
export function requireTool(name) {
	const version = VERSIONS[name];
	if (version === undefined) throw new Error(`unknown tool ${name}`);
	const found = locate(name, version);
	if (found !== undefined) return found;
	console.log(`[tools] ${name} ${version} is not installed yet; installing (first time only)`);
	const result = spawnSync("bash", ["scripts/install-tools.sh"], { stdio: "inherit" });
	const installed = result.status === 0 ? locate(name, version) : undefined;
	if (installed === undefined) {
		console.error(`[tools] could not install ${name} ${version}; see the messages above`);
		process.exit(1);
	}
	return installed;
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
