#!/usr/bin/env bash
# make test-phpize: the classic extension build (config.m4, Makefile.frag) the
# way PIE and PECL run it, in a copy of the tree: phpize, ./configure
# --with-php-config=<php-config>, make -jN, make install INSTALL_ROOT=<tmp>
# (the system is not touched), for the PHP that php-config (or PHP_CONFIG)
# names. First ./configure must stop with one sentence when there is no cargo
# (none in PATH, HOME empty) and when rustc is older than Cargo.toml's
# rust-version. The build runs with a php and a php-config first in PATH that
# fail: only the configured PHP may be asked; make runs cargo with --locked.
# The installed redis_lock.so must load in that PHP, say it was built for it,
# and lock/release on a throwaway redis-server. Then, in the configured tree:
# the project's own targets still parse, make install would not run cargo
# again, make clean keeps cargo's cache, and phpize --clean leaves every file
# of the tree as it was.
#
# The copy and its target/ stay in ${CARGO_TARGET_DIR:-target}/phpize-test, so
# that only the first run compiles every crate (~1 min on 2 CPUs). No network
# is needed once Cargo.lock's crates are fetched (CARGO_NET_OFFLINE is obeyed).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
started=$SECONDS
step=setup
work=${CARGO_TARGET_DIR:-$repo/target}/phpize-test
src=$work/src

say() { echo "test-phpize: $*"; }
fail() { echo "test-phpize: FAILED ($step): $*" >&2; exit 1; }
# run LOG CMD...: CMD's output goes to LOG, whose end is shown when it fails.
run() {
  local log=$work/$1.log; shift
  local rc=0 shown=$*
  [[ $1 == env ]] && shown=${*:4}   # not the "${build_env[@]}" prefix
  "$@" >"$log" 2>&1 || rc=$?
  ((rc == 0)) || { tail -n 30 "$log" >&2; fail "\`$shown\` failed (exit $rc); whole log: $log"; }
}

finish() {
  local status=$?
  trap - EXIT
  set +e
  redis_stop_all 2>/dev/null
  rm -rf "$work/root"
  say "$((SECONDS - started)) s"
  if ((status == 0)); then echo "phpize: 1 passed, 0 failed"; else echo "phpize: 0 passed, 1 failed"; fi
  exit "$status"
}
trap finish EXIT
trap 'exit 130' INT TERM

php_config=$(command -v "${PHP_CONFIG:-php-config}") || fail "${PHP_CONFIG:-php-config} was not found (Debian: apt-get install php8.2-dev)"
php=$("$php_config" --php-binary)
php_version=$("$php_config" --version)
ext_dir=$("$php_config" --extension-dir)
for tool in phpize autoconf redis-server redis-cli; do
  command -v "$tool" >/dev/null || fail "$tool is not installed (make deps installs it)"
done
phpize=$(dirname "$php_config")/phpize$(basename "$php_config" | sed 's/^php-config//')
[[ -x $phpize ]] || phpize=$(command -v phpize)
say "PHP $php_version ($php_config, $phpize)"

# One run at a time per work dir (two `make test` in one tree).
mkdir -p "$work"
exec 9>"$work/.lock"
command -v flock >/dev/null && flock 9

# ---- the copy: the tree's files as a download would have them (git's tracked
# and unignored files; everything but target/ and .git without git). Its
# target/ is kept from the last run.
step=copy
mkdir -p "$src"
find "$src" -mindepth 1 -maxdepth 1 ! -name target -exec rm -rf {} +
if [[ -d $repo/.git ]] && command -v git >/dev/null; then
  git -C "$repo" ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [[ -e $f || -L $f ]] && printf '%s\0' "$f"; done |
    tar -C "$repo" --null --no-recursion -T - -cf - | tar -C "$src" -xf -
else
  tar -C "$repo" --exclude=./target --exclude=./.git -cf - . | tar -C "$src" -xf -
fi
[[ -f $src/config.m4 && -f $src/GNUmakefile ]] || fail "config.m4 or GNUmakefile is missing from the copy"
# Every file (links as links) and its checksum, to compare after phpize --clean.
manifest() { (cd "$src" && { find . -path ./target -prune -o ! -type d -printf '%y %p %l\n'
  find . -path ./target -prune -o -type f -print0 | xargs -0 md5sum; } | LC_ALL=C sort); }
manifest >"$work/manifest.before"

# Decoys first in PATH: the build must ask only the configured php-config and
# the php it names. (A fixed path: cargo rebuilds ext-php-rs when PATH changes.)
mkdir -p "$work/decoy"
for tool in php php-config; do
  printf '#!/bin/sh\necho "test-phpize: the build ran %s from PATH, not the configured PHP" >&2\nexit 97\n' "$tool" >"$work/decoy/$tool"
  chmod 755 "$work/decoy/$tool"
done
build_env=(env -u CARGO_TARGET_DIR PATH="$work/decoy:$PATH")

# ---- the classic build
cd "$src"
step=phpize;    run phpize "${build_env[@]}" "$phpize"

# ---- ./configure without a usable Rust: it must stop with one sentence
# that names the fix and Cargo.toml's rust-version (a few seconds each).
step=configure-no-rust
floor=$(sed -n 's/^rust-version *= *"\([0-9.]*\)".*/\1/p' Cargo.toml | sed -n 1p)
[[ -n $floor ]] || fail "Cargo.toml names no rust-version"
# PATH without cargo, rustc or rustup: a PATH dir that holds one is replaced
# by links to its other files. HOME is empty (no ~/.cargo/bin to find).
rm -rf "$work/no-rust" && mkdir -p "$work/no-rust/home"
no_rust_path=$work/decoy n=0
IFS=: read -ra path_dirs <<<"$PATH"
for dir in "${path_dirs[@]}"; do
  [[ $dir == /* && -d $dir ]] || continue
  if [[ -e $dir/cargo || -e $dir/rustc || -e $dir/rustup ]]; then
    n=$((n + 1)) && mkdir "$work/no-rust/$n"
    for f in "$dir"/*; do
      case ${f##*/} in cargo | rustc | rustup) ;; *) ln -s "$f" "$work/no-rust/$n/" ;; esac
    done
    dir=$work/no-rust/$n
  fi
  no_rust_path+=:$dir
done
mkdir "$work/no-rust/old"   # a cargo that must not run, beside a rustc older than the floor
printf '#!/bin/sh\necho "test-phpize: configure ran cargo" >&2\nexit 97\n' >"$work/no-rust/old/cargo"
printf '#!/bin/sh\necho "rustc 1.80.0 (051478957 2024-07-21)"\n' >"$work/no-rust/old/rustc"
chmod 755 "$work/no-rust/old/cargo" "$work/no-rust/old/rustc"
# configure_fails NAME PATH EXPECTED: ./configure fails with one error line,
# one sentence, holding EXPECTED.
configure_fails() {
  local log=$work/configure-$1.log err rc=0
  env -u CARGO -u RUSTC -u CARGO_HOME HOME="$work/no-rust/home" PATH="$2" \
    ./configure --with-php-config="$php_config" >"$log" 2>&1 || rc=$?
  ((rc != 0)) || fail "./configure ($1) succeeded; log: $log"
  err=$(grep '^configure: error: ' "$log" || true)
  [[ $(grep -c . <<<"$err") == 1 ]] || fail "./configure ($1) did not stop with one error line; log: $log"$'\n'"$(tail -n 5 "$log")"
  [[ $err == *"$3"* ]] || fail "./configure ($1) said something else than \"$3\":"$'\n'"$err"
  [[ $err == *. ]] && ! grep -q '\. [[:alpha:]]' <<<"${err#configure: error: }" || fail "./configure ($1) said more than one sentence:"$'\n'"$err"
  say "configure $1: $err"
}
PATH=$no_rust_path command -v cargo >/dev/null && fail "cargo is still in the PATH without cargo: $(PATH=$no_rust_path command -v cargo)"
configure_fails no-cargo "$no_rust_path" "needs cargo with rustc $floor or newer, but cargo was found neither in PATH nor in ~/.cargo/bin"
configure_fails old-rustc "$work/no-rust/old:$no_rust_path" "needs rustc $floor or newer (Cargo.toml's rust-version), but found rustc 1.80.0"

step=configure; run configure "${build_env[@]}" ./configure --with-php-config="$php_config"
grep -qx "checking whether rustc is $floor or newer... yes (rustc .*)" "$work/configure.log" ||
  fail "configure did not check rustc against Cargo.toml's rust-version $floor; log: $work/configure.log"
step=make;      t=$SECONDS; run make "${build_env[@]}" make -j"$(nproc)"
say "phpize, configure: ok; make: $((SECONDS - t)) s"
[[ -f modules/redis_lock.so ]] || fail "make did not write modules/redis_lock.so"
# make ran cargo with Cargo.lock's crates only, for the configured PHP.
grep -qF "PHP_CONFIG=$php_config PHP=$php " <<<"$(grep -F -- ' build --release --locked' "$work/make.log")" ||
  fail "make did not run cargo build --release --locked with PHP_CONFIG=$php_config PHP=$php; log: $work/make.log"
say "make ran cargo build --release --locked with PHP_CONFIG=$php_config PHP=$php (a php and php-config first in PATH fail)"
step=install;   run install "${build_env[@]}" make install INSTALL_ROOT="$work/root"
so=$work/root$ext_dir/redis_lock.so
[[ -f $so ]] || fail "make install INSTALL_ROOT=$work/root did not write $so"
say "make install INSTALL_ROOT=...: $so"

# ---- the installed module, in the PHP it was built for
step=load
ri=$("$php" -n -d extension="$so" --ri redis_lock 2>&1) || fail "php --ri redis_lock: $ri"
grep -qx 'redis_lock support => enabled' <<<"$ri" || fail "php --ri redis_lock does not say enabled:"$'\n'"$ri"
grep -qx "Built for PHP => $php_version" <<<"$ri" || fail "php --ri redis_lock: not built for PHP $php_version:"$'\n'"$ri"
source scripts/throwaway_redis.sh   # its EXIT trap is replaced by finish's
trap finish EXIT
redis_start phpize
out=$("$php" -n -d extension="$so" -r '
  ini_set("redis_lock.server", "redis://127.0.0.1:" . $argv[1]);
  $key = "phpize-test:" . getmypid();
  var_export([RedisMutexLock::lock($key, 1, 10), RedisMutexLock::release($key)]);' "$REDIS_PORT_phpize" 2>&1) || true
[[ $out == "array ("$'\n'"  0 => true,"$'\n'"  1 => true,"$'\n'")" ]] ||
  fail "RedisMutexLock::lock/release against 127.0.0.1:$REDIS_PORT_phpize did not return true/true: $out"
say "php --ri: built for PHP $php_version; lock/release on redis-server 127.0.0.1:$REDIS_PORT_phpize: true/true"

# ---- the configured tree
step=configured
out=$(make -n test-rust 2>&1) && grep -q '^cargo test --release' <<<"$out" || fail "make -n test-rust:"$'\n'"$out"
out=$("${build_env[@]}" make -n install INSTALL_ROOT="$work/root" 2>&1) || fail "make -n install:"$'\n'"$out"
! grep -q 'build --release' <<<"$out" || fail "make install would run cargo again although nothing changed:"$'\n'"$out"
if command -v git >/dev/null; then
  # What the build left that git would show: nothing (.gitignore lists it all).
  git init -q . && new=$(git status --porcelain --untracked-files=all | grep -vxFf <(sed -n 's/^[fl] \.\/\([^ ]*\) .*$/?? \1/p' "$work/manifest.before") || true)
  rm -rf .git
  [[ -z $new ]] || fail "files the build made that .gitignore does not list:"$'\n'"$new"
fi
run clean make clean
[[ -z $(ls -A modules) ]] || fail "make clean left modules/: $(ls -A modules)"
[[ -f target/release/libredis_lock.so ]] || fail "make clean deleted cargo's target/release/libredis_lock.so"
run phpize-clean "$phpize" --clean
manifest >"$work/manifest.after"
changed=$(LC_ALL=C comm -23 "$work/manifest.before" "$work/manifest.after")
[[ -z $changed ]] || fail "phpize --clean removed or changed files of the tree:"$'\n'"$changed"
left=$(LC_ALL=C comm -13 "$work/manifest.before" "$work/manifest.after" | grep -v '^[0-9a-f]\{32\} ' || true)
[[ -z $left ]] || say "(left by phpize --clean: $(tr '\n' ' ' <<<"$left"))"
say "configured tree: make -n test-rust parses, make install would not rerun cargo, make clean keeps target/, phpize --clean keeps every file of the tree"
