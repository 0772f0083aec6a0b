// Where the pinned tools live, for the other scripts: Rojo, Lune, StyLua and selene (rokit.toml) and the Luau type
// checker (tools/luau-typecheck), built by scripts/install-tools.sh into a machine-wide folder, or already on PATH at
// exactly the pinned version (installed with rokit, for example).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";

// The pins live once: in rokit.toml (`name = "owner/repo@version"`), which install-tools.sh and rokit read too, and
// for the type checker, which rokit cannot install, in its crate's Cargo.toml (rokit.toml points there).
const pins = readFileSync(new URL("../rokit.toml", import.meta.url), "utf8");
function pinned(name) {
	const match = new RegExp(`^${name}\\s*=\\s*"[^"@]*@([^"]+)"`, "m").exec(pins);
	if (match === null) throw new Error(`rokit.toml pins no ${name} version`);
	return match[1];
}
const checkerManifest = readFileSync(new URL("../tools/luau-typecheck/Cargo.toml", import.meta.url), "utf8");

export const ROJO_VERSION = pinned("rojo");
export const LUNE_VERSION = pinned("lune");
export const STYLUA_VERSION = pinned("stylua");
export const SELENE_VERSION = pinned("selene");
export const LUAU_TYPECHECK_VERSION = /^version\s*=\s*"([^"]+)"/m.exec(checkerManifest)[1];
const VERSIONS = {
	rojo: ROJO_VERSION,
	lune: LUNE_VERSION,
	stylua: STYLUA_VERSION,
	selene: SELENE_VERSION,
	"luau-typecheck": LUAU_TYPECHECK_VERSION,
};
/** Every tool install-tools.sh installs, in its order. */
export const TOOL_NAMES = Object.keys(VERSIONS);
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

/**
 * Installs the named tools that are missing (scripts/install-tools.sh: it says what it builds and how long that takes
 * before it starts, keeps cargo's output in a log file, and while another install holds the machine's lock says every
 * 30 s what that one builds and how long it has waited). Exits the process when one cannot be installed.
 */
export function installTools(names) {
	const result = spawnSync("bash", ["scripts/install-tools.sh", ...names], { stdio: "inherit" });
	if (result.status !== 0) {
		console.error(`[tools] could not install ${names.join(", ")}; see the messages above`);
		process.exit(result.status ?? 1);
	}
}

/** Returns how to run a pinned tool (a path, or its name when PATH has it), installing it alone when it is missing. */
export function requireTool(name) {
	const version = VERSIONS[name];
	if (version === undefined) throw new Error(`unknown tool ${name}`);
	const found = locate(name, version);
	if (found !== undefined) return found;
	installTools([name]);
	const installed = locate(name, version);
	if (installed === undefined) {
		console.error(`[tools] ${name} ${version} is still missing after its install; see the messages above`);
		process.exit(1);
	}
	return installed;
}

/** selene's Roblox base library, kept beside the selene binary by install-tools.sh (installing it when missing). */
export function seleneRobloxBase() {
	const path = join(TOOLS_HOME, `selene-${SELENE_VERSION}`, "share", "roblox_base.yml");
	if (!existsSync(path)) installTools(["selene"]);
	if (!existsSync(path)) {
		console.error(`[tools] selene's Roblox base library is missing (${path}); see the messages above`);
		process.exit(1);
	}
	return path;
}
