// Lays out test/wally-consumer/ServerPackages/ as `wally install` does for a server dependency (no registry is
// reachable here): the package under _Index/<scope>_<name>@<version>/<name>/, and a link module named after the
// alias in the consumer's wally.toml that requires it. The folder is generated, like a real ServerPackages/.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { WALLY_DIR, WALLY_NAME, wallyIndexName } from "../../scripts/wally.mjs";

const CONSUMER = "test/wally-consumer";

/** The alias the consumer's wally.toml gives StaffOps (`StaffOps = "staffops/staffops@..."`). */
function alias() {
	const manifest = readFileSync(join(CONSUMER, "wally.toml"), "utf8");
	const match = /^(\w+)\s*=\s*"staffops\/staffops@[^"]+"$/m.exec(manifest);
	if (match === null) throw new Error(`${CONSUMER}/wally.toml does not depend on staffops/staffops`);
	return match[1];
}

/** Wally's link module: the package's name inside its _Index folder. */
export function linkSource() {
	return `return require(script.Parent._Index["${wallyIndexName()}"]["${WALLY_NAME}"])\n`;
}

export function installForConsumer() {
	const packages = join(CONSUMER, "ServerPackages");
	rmSync(packages, { recursive: true, force: true });
	const target = join(packages, "_Index", wallyIndexName(), WALLY_NAME);
	mkdirSync(target, { recursive: true });
	cpSync(WALLY_DIR, target, { recursive: true });
	writeFileSync(join(packages, `${alias()}.lua`), linkSource());
}
