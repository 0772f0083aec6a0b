#!/usr/bin/env bash
# Installs the pinned Rojo, Lune, StyLua and selene from crates.io into a machine-wide folder keyed by version, so
# every clone on this machine (and CI, which runs here) reuses one build. Idempotent: a tool already there is
# only checked. Prints progress, because the first build takes many minutes on two cores.
set -euo pipefail

ROJO_VERSION="7.4.4"
LUNE_VERSION="0.8.8"
# Luau formatter and linter (npm run lint). The newest releases that build with this machine's rustc (1.95).
STYLUA_VERSION="2.6.0"
SELENE_VERSION="0.31.0"
TOOLS_HOME="${STAFFOPS_TOOLS_HOME:-/opt/staffops-tools}"

say() { printf '[tools] %s\n' "$*"; }
fail() { printf '[tools] error: %s\n' "$*" >&2; exit 1; }

command -v cargo >/dev/null 2>&1 || fail "cargo was not found. Install Rust (https://rustup.rs) and run this again."
command -v c++ >/dev/null 2>&1 || command -v g++ >/dev/null 2>&1 || command -v clang++ >/dev/null 2>&1 ||
	fail "no C++ compiler was found (Lune builds Luau from C++). On Debian: apt-get install build-essential"
mkdir -p "$TOOLS_HOME" 2>/dev/null || fail "cannot create $TOOLS_HOME; set STAFFOPS_TOOLS_HOME to a writable folder"
# One install at a time per machine: two clones (or CI beside a developer) must not build into the same folder.
if command -v flock >/dev/null 2>&1; then
	exec 9>"$TOOLS_HOME/.install.lock"
	flock 9 || fail "cannot lock $TOOLS_HOME/.install.lock"
fi

# Builds are shorter without LTO and with more codegen units; the tools are not speed-critical here.
export CARGO_PROFILE_RELEASE_LTO=false
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
export CARGO_PROFILE_RELEASE_OPT_LEVEL=2
export CARGO_TERM_PROGRESS_WHEN=never

# install_tool NAME VERSION [extra cargo install arguments...]
install_tool() {
	local name="$1" version="$2"
	shift 2
	local root="$TOOLS_HOME/$name-$version"
	local bin="$root/bin/$name"
	if [ -x "$bin" ] && "$bin" --version >/dev/null 2>&1; then
		say "$name $version ready ($bin)"
		return
	fi
	say "building $name $version from crates.io into $root (first time only; ~5-15 minutes on two cores)"
	local started=$SECONDS log
	log="$(mktemp)"
	# Progress: cargo prints one 'Compiling' line per crate; show a count every 30 s instead of a flood.
	(cargo install --locked --quiet --root "$root.partial" "$@" "$name@$version" >"$log" 2>&1; echo $? >"$log.rc") &
	local pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 30
		kill -0 "$pid" 2>/dev/null && say "  ... still building $name ($((SECONDS - started)) s)"
	done
	wait "$pid" || true
	if [ "$(cat "$log.rc")" != "0" ]; then
		tail -n 40 "$log" >&2
		fail "building $name $version failed (log above)"
	fi
	rm -rf "$root"
	mv "$root.partial" "$root"
	rm -f "$log" "$log.rc"
	say "$name $version built in $((SECONDS - started)) s"
}

install_tool rojo "$ROJO_VERSION"
install_tool lune "$LUNE_VERSION"
# StyLua parses Luau (types, compound assignment, string interpolation) only with its `luau` feature.
install_tool stylua "$STYLUA_VERSION" --features luau
# selene's default features include the Roblox parser and standard library support that the Luau files need.
install_tool selene "$SELENE_VERSION"

# selene's hand-written Roblox base library (datatypes, task, warn, ...) ships only inside its source, and selene
# cannot refer to it by name. scripts/selene-std.luau adds Roblox's API to a copy of it, offline, so the copy is kept
# beside the binary. Cargo extracted the source when it built selene; if it has been cleaned away since, rebuild.
selene_base="$TOOLS_HOME/selene-$SELENE_VERSION/share/roblox_base.yml"
copy_selene_base() {
	local source
	source="$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"selene-lib-$SELENE_VERSION"/default_std/roblox_base.yml 2>/dev/null | head -n 1 || true)"
	[ -n "$source" ] || return 1
	mkdir -p "$(dirname "$selene_base")"
	cp "$source" "$selene_base"
}
if [ ! -f "$selene_base" ] && ! copy_selene_base; then
	say "selene's Roblox base library is missing and cargo's copy of its source is gone; rebuilding selene"
	rm -rf "$TOOLS_HOME/selene-$SELENE_VERSION"
	install_tool selene "$SELENE_VERSION"
	copy_selene_base || fail "selene $SELENE_VERSION built, but its source (selene-lib) was not found under ${CARGO_HOME:-$HOME/.cargo}/registry/src"
fi

# Project scripts find the tools through these links, so no PATH change is needed.
mkdir -p "$TOOLS_HOME/bin"
ln -sf "$TOOLS_HOME/rojo-$ROJO_VERSION/bin/rojo" "$TOOLS_HOME/bin/rojo-$ROJO_VERSION"
ln -sf "$TOOLS_HOME/lune-$LUNE_VERSION/bin/lune" "$TOOLS_HOME/bin/lune-$LUNE_VERSION"
ln -sf "$TOOLS_HOME/stylua-$STYLUA_VERSION/bin/stylua" "$TOOLS_HOME/bin/stylua-$STYLUA_VERSION"
ln -sf "$TOOLS_HOME/selene-$SELENE_VERSION/bin/selene" "$TOOLS_HOME/bin/selene-$SELENE_VERSION"
say "tools ready in $TOOLS_HOME"
