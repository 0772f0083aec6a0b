#!/usr/bin/env bash
# Installs the tools a command needs, once per machine: the Rojo, Lune, StyLua and selene that rokit.toml pins (built
# from crates.io) and the Luau type checker (tools/luau-typecheck, built from this repository). They go into a
# machine-wide folder keyed by version, so every clone on this machine (and CI, which runs here) reuses one build. A
# tool already on PATH at exactly the pinned version (rokit's, for example) is used instead and nothing is built.
#
#   bash scripts/install-tools.sh [TOOL...]     TOOL: rojo lune stylua selene luau-typecheck (default: all five)
#
# Before building anything it says what it will build and how long that took on a new two-core machine; cargo's
# output goes to a log file per tool ($TOOLS_HOME/logs/), never to the caller's output, and its last lines are
# printed if the build fails. One install builds at a time per machine; another one waits, and says every 30 s what
# the first one builds and how long it has waited. Idempotent: a tool already there is only checked.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROKIT_TOML="$ROOT/rokit.toml"
CHECKER_CRATE="$ROOT/tools/luau-typecheck"
TOOLS_HOME="${STAFFOPS_TOOLS_HOME:-/opt/staffops-tools}"
ALL_TOOLS=(rojo lune stylua selene luau-typecheck)

say() { printf '[tools] %s\n' "$*"; }
fail() {
	printf '[tools] error: %s\n' "$*" >&2
	exit 1
}

# The versions live in rokit.toml (`name = "owner/repo@version"`), shared with scripts/tools.mjs and rokit itself;
# the type checker's is its crate's own version (tools/luau-typecheck/Cargo.toml), which rokit.toml points to.
version_of() {
	local version
	if [ "$1" = luau-typecheck ]; then
		version="$(sed -n 's/^version[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' "$CHECKER_CRATE/Cargo.toml" | head -n 1)"
	else
		version="$(sed -n "s/^$1[[:space:]]*=[[:space:]]*\"[^\"@]*@\([^\"]*\)\".*/\1/p" "$ROKIT_TOML")"
	fi
	[ -n "$version" ] || fail "no $1 version is pinned (rokit.toml; the type checker's in tools/luau-typecheck/Cargo.toml)"
	printf '%s' "$version"
}

# How long each first build took on a new two-core machine (2026-11-27, one after the other; the type checker while
# other builds shared the two cores), for the announcement before a build starts. Update them, and busy_seconds below,
# when a pin changes.
expected_seconds() {
	case "$1" in
	rojo) echo 150 ;;
	lune) echo 240 ;;
	stylua) echo 120 ;;
	selene) echo 240 ;;
	luau-typecheck) echo 691 ;;
	esac
}

# And on a busy one: 2026-12-02, the same builds one after the other on a two-core machine (AMD EPYC, 23 GB) that four
# other workers kept busy with tests and builds (load average 2 to 11, median 8): 2 to 4 times as long (the type
# checker's, about the same: its first figure was already measured beside other builds). Both are announced, so nobody
# on a shared machine takes a build that runs past the first figure for a stuck one.
busy_seconds() {
	case "$1" in
	rojo) echo 445 ;;
	lune) echo 560 ;;
	stylua) echo 455 ;;
	selene) echo 448 ;;
	luau-typecheck) echo 624 ;;
	esac
}

minutes() { printf '%d min %02d s' $(($1 / 60)) $(($1 % 60)); }

# on_path NAME VERSION: prints where NAME is on PATH when its --version reports exactly VERSION.
on_path() {
	local found
	found="$(command -v "$1" 2>/dev/null)" || return 1
	"$found" --version 2>/dev/null | grep -qE "(^|[^0-9.])${2//./\\.}([^0-9.]|$)" || return 1
	printf '%s' "$found"
}

built() { [ -x "$TOOLS_HOME/$1-$2/bin/$1" ] && "$TOOLS_HOME/$1-$2/bin/$1" --version >/dev/null 2>&1; }

# selene's hand-written Roblox base library (datatypes, task, warn, ...) ships only inside its source, and selene
# cannot refer to it by name. scripts/selene-std.luau adds Roblox's API to a copy of it, offline, so the copy is kept
# beside the binary. Cargo extracted the source when it built selene.
selene_base() { printf '%s' "$TOOLS_HOME/selene-$(version_of selene)/share/roblox_base.yml"; }
copy_selene_base() {
	local source
	source="$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"selene-lib-$(version_of selene)"/default_std/roblox_base.yml 2>/dev/null | head -n 1 || true)"
	[ -n "$source" ] || return 1
	mkdir -p "$(dirname "$(selene_base)")"
	cp "$source" "$(selene_base)"
}

# Where NAME is when it is ready to use; nothing (and status 1) when it must be built.
ready_at() {
	local name="$1" version found
	version="$(version_of "$name")"
	if [ "$name" = selene ] && [ ! -f "$(selene_base)" ] && ! copy_selene_base; then
		# A selene from PATH (rokit's) has no source beside it; building it once from crates.io extracts one.
		return 1
	fi
	if built "$name" "$version"; then
		printf '%s' "$TOOLS_HOME/$name-$version/bin/$name"
	elif found="$(on_path "$name" "$version")"; then
		printf '%s (on PATH)' "$found"
	else
		return 1
	fi
}

# What the install holding the lock is doing, for one that waits for it: the holder writes it to $HOLDER_FILE (an
# install script from before 2026-12-02 does not, so then the newest build log says what is being built).
HOLDER_FILE="$TOOLS_HOME/.install.holder"
holds_lock() { printf 'pid %s, %s (since %s UTC)' "$$" "$1" "$(date -u +%H:%M:%S)" >"$HOLDER_FILE" 2>/dev/null || true; }
lock_holder() {
	local holder pid newest
	holder="$(cat "$HOLDER_FILE" 2>/dev/null || true)"
	pid="${holder#pid }"
	pid="${pid%%,*}"
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		printf '%s' "$holder"
	elif newest="$(ls -t "$TOOLS_HOME/logs/"*.log 2>/dev/null | head -n 1)" && [ -n "$newest" ]; then
		printf 'its newest build log is %s, last written %s s ago' "$newest" "$(($(date +%s) - $(stat -c %Y "$newest")))"
	else
		printf 'it holds %s' "$TOOLS_HOME/.install.lock"
	fi
}

# Building needs Rust, a C++ compiler and a writable tools folder; checked once, only when something must be built.
prepare_build() {
	command -v cargo >/dev/null 2>&1 ||
		fail "cargo was not found. Install Rust (https://rustup.rs), or the pinned tools with rokit (rokit.toml), and run this again."
	command -v c++ >/dev/null 2>&1 || command -v g++ >/dev/null 2>&1 || command -v clang++ >/dev/null 2>&1 ||
		fail "no C++ compiler was found (Lune and the type checker build Luau from C++). On Debian: apt-get install build-essential"
	mkdir -p "$TOOLS_HOME/logs" 2>/dev/null || fail "cannot create $TOOLS_HOME; set STAFFOPS_TOOLS_HOME to a writable folder"
	# One install at a time per machine: two clones (or CI beside a developer) must not build into the same folder.
	# One that waits says for what, and how long it has waited, every 30 s.
	if command -v flock >/dev/null 2>&1; then
		exec 9>"$TOOLS_HOME/.install.lock"
		if ! flock -n 9; then
			local waiting_since=$SECONDS
			say "another install is building tools on this machine: $(lock_holder); waiting for it to finish"
			until flock -w 30 9; do
				say "  ... still waiting for the other install ($((SECONDS - waiting_since)) s so far): $(lock_holder)"
			done
			say "the other install finished after $((SECONDS - waiting_since)) s of waiting"
		fi
		holds_lock "to build: ${missing[*]}"
	fi
	# Builds are shorter without LTO and with more codegen units; the tools are not speed-critical here.
	export CARGO_PROFILE_RELEASE_LTO=false
	export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
	export CARGO_PROFILE_RELEASE_OPT_LEVEL=2
	export CARGO_TERM_PROGRESS_WHEN=never
	export CARGO_TERM_COLOR=never
}

# build NAME VERSION: cargo install into $TOOLS_HOME/NAME-VERSION, its output in $TOOLS_HOME/logs/NAME-VERSION.log.
build() {
	local name="$1" version="$2"
	local root="$TOOLS_HOME/$name-$version" log="$TOOLS_HOME/logs/$name-$version.log"
	local args=(install --locked --root "$root.partial")
	local target=""
	case "$name" in
	# StyLua parses Luau (types, compound assignment, string interpolation) only with its `luau` feature.
	stylua) args+=(--features luau "$name@$version") ;;
	# The checker builds from this repository, in a target folder of its own that is removed afterwards.
	luau-typecheck)
		target="$TOOLS_HOME/.target-$name-$version"
		args+=(--path "$CHECKER_CRATE" --bin luau-typecheck)
		;;
	# selene's default features include the Roblox parser and standard library support that the Luau files need.
	*) args+=("$name@$version") ;;
	esac
	local expected busy
	expected="$(expected_seconds "$name")"
	busy="$(busy_seconds "$name")"
	say "building $name $version (about $(minutes "$expected") on an idle two-core machine, $(minutes "$busy") on a busy one; cargo's output: $log)"
	holds_lock "building $name $version, about $expected s (its log: $log)"
	local started=$SECONDS
	rm -rf "$root.partial"
	# Progress: a line a minute instead of cargo's line per crate.
	(
		[ -z "$target" ] || export CARGO_TARGET_DIR="$target"
		cd "$ROOT" && cargo "${args[@]}" >"$log" 2>&1
	) &
	local pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		for _ in $(seq 1 60); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 1
		done
		kill -0 "$pid" 2>/dev/null && say "  ... still building $name ($((SECONDS - started)) s; about $expected s idle, $busy s busy)"
	done
	if ! wait "$pid"; then
		tail -n 40 "$log" >&2
		fail "building $name $version failed after $((SECONDS - started)) s (the last lines of $log are above)"
	fi
	rm -rf "$root" ${target:+"$target"}
	mv "$root.partial" "$root"
	say "$name $version built in $((SECONDS - started)) s"
}

requested=("$@")
[ ${#requested[@]} -gt 0 ] || requested=("${ALL_TOOLS[@]}")
for name in "${requested[@]}"; do
	case " ${ALL_TOOLS[*]} " in
	*" $name "*) ;;
	*) fail "unknown tool $name (the tools: ${ALL_TOOLS[*]})" ;;
	esac
done

# What is ready, and what must be built: the plan is printed before anything starts.
missing=()
ready=()
for name in "${requested[@]}"; do
	if where="$(ready_at "$name")"; then
		ready+=("$name $(version_of "$name") ready ($where)")
	else
		missing+=("$name")
	fi
done
for line in "${ready[@]}"; do say "$line"; done
[ ${#missing[@]} -gt 0 ] || exit 0

total=0
total_busy=0
plan=()
for name in "${missing[@]}"; do
	seconds="$(expected_seconds "$name")"
	busy="$(busy_seconds "$name")"
	total=$((total + seconds))
	total_busy=$((total_busy + busy))
	plan+=("$name $(version_of "$name") ($(minutes "$seconds"); busy $(minutes "$busy"))")
done
say "to build, once per machine, into $TOOLS_HOME: $(
	IFS=,
	echo "${plan[*]}" | sed 's/,/, /g'
)"
say "about $(minutes "$total") in all on an idle two-core machine, $(minutes "$total_busy") on a busy one (Rust and a C++ compiler needed)"
prepare_build
for name in "${missing[@]}"; do
	version="$(version_of "$name")"
	# Another install may have built it while this one waited for the lock.
	if ready_at "$name" >/dev/null; then
		say "$name $version ready (built meanwhile by another install)"
		continue
	fi
	if [ "$name" = selene ] && built selene "$version"; then
		# The binary is there but its Roblox base library is not, and cargo's copy of the source is gone: rebuild.
		say "selene's Roblox base library is missing and cargo's copy of its source is gone; building selene again"
		rm -rf "$TOOLS_HOME/selene-$version"
	fi
	build "$name" "$version"
	if [ "$name" = selene ] && [ ! -f "$(selene_base)" ]; then
		copy_selene_base || fail "selene $version built, but its source (selene-lib) was not found under ${CARGO_HOME:-$HOME/.cargo}/registry/src"
	fi
	# A versioned link to each tool built here, for running one by hand (scripts/tools.mjs finds them without).
	mkdir -p "$TOOLS_HOME/bin"
	ln -sf "$TOOLS_HOME/$name-$version/bin/$name" "$TOOLS_HOME/bin/$name-$version"
done
say "ready: ${requested[*]}"
