#!/usr/bin/env bash
# Installs the pinned Rojo, Lune, StyLua and selene from crates.io into a machine-wide folder keyed by version, so
# every clone on this machine (and CI, which runs here) reuses one build. A tool already on PATH at exactly the
# pinned version (rokit's, for example) is used instead and nothing is built for it. Idempotent: a tool already there
# is only checked. Prints progress, because the first build takes many minutes on two cores.
set -euo pipefail

# The versions live in rokit.toml (`name = "owner/repo@version"`), shared with scripts/tools.mjs and rokit itself.
ROKIT_TOML="$(dirname "${BASH_SOURCE[0]}")/../rokit.toml"
pin() {
	local version
	version="$(sed -n "s/^$1[[:space:]]*=[[:space:]]*\"[^\"@]*@\([^\"]*\)\".*/\1/p" "$ROKIT_TOML")"
	[ -n "$version" ] || { printf '[tools] error: rokit.toml pins no %s version\n' "$1" >&2; exit 1; }
	printf '%s' "$version"
}
ROJO_VERSION="$(pin rojo)"
LUNE_VERSION="$(pin lune)"
STYLUA_VERSION="$(pin stylua)"
SELENE_VERSION="$(pin selene)"
TOOLS_HOME="${STAFFOPS_TOOLS_HOME:-/opt/staffops-tools}"

say() { printf '[tools] %s\n' "$*"; }
fail() { printf '[tools] error: %s\n' "$*" >&2; exit 1; }

# Building needs Rust, a C++ compiler and a writable tools folder; checked once, only when something must be built.
build_ready=""
prepare_build() {
	[ -z "$build_ready" ] || return 0
	command -v cargo >/dev/null 2>&1 ||
		fail "cargo was not found. Install Rust (https://rustup.rs), or the pinned tools with rokit (rokit.toml), and run this again."
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
	build_ready=yes
}

# on_path NAME VERSION: prints where NAME is on PATH when its --version reports exactly VERSION.
on_path() {
	local found
	found="$(command -v "$1" 2>/dev/null)" || return 1
	"$found" --version 2>/dev/null | grep -qE "(^|[^0-9.])${2//./\\.}([^0-9.]|$)" || return 1
	printf '%s' "$found"
}

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
	local found
	if found="$(on_path "$name" "$version")"; then
		say "$name $version ready (on PATH: $found)"
		return
	fi
	build_tool "$name" "$version" "$@"
}

# build_tool NAME VERSION [extra cargo install arguments...]
build_tool() {
	local name="$1" version="$2"
	shift 2
	local root="$TOOLS_HOME/$name-$version"
	prepare_build
	# Another install may have built it while this one waited for the lock.
	if [ -x "$root/bin/$name" ] && "$root/bin/$name" --version >/dev/null 2>&1; then
		say "$name $version ready ($root/bin/$name)"
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
	# A selene from PATH (rokit's) has no source beside it either; building it once from crates.io extracts one.
	say "selene's Roblox base library is missing and cargo's copy of its source is gone; building selene"
	rm -rf "$TOOLS_HOME/selene-$SELENE_VERSION"
	build_tool selene "$SELENE_VERSION"
	copy_selene_base || fail "selene $SELENE_VERSION built, but its source (selene-lib) was not found under ${CARGO_HOME:-$HOME/.cargo}/registry/src"
fi

# Versioned links to the tools built here, for running one by hand (scripts/tools.mjs finds them without).
for pair in "rojo:$ROJO_VERSION" "lune:$LUNE_VERSION" "stylua:$STYLUA_VERSION" "selene:$SELENE_VERSION"; do
	name="${pair%%:*}" version="${pair#*:}"
	if [ -x "$TOOLS_HOME/$name-$version/bin/$name" ]; then
		mkdir -p "$TOOLS_HOME/bin"
		ln -sf "$TOOLS_HOME/$name-$version/bin/$name" "$TOOLS_HOME/bin/$name-$version"
	fi
done
say "tools ready"
