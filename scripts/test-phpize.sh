#!/usr/bin/env bash
# make test-phpize: the classic extension build (config.m4, Makefile.frag) the
# way PIE and PECL run it, in a copy of the tree: phpize, ./configure
# --with-php-config=<php-config>, make -jN, make install INSTALL_ROOT=<tmp>
# (the system is not touched), for the PHP that php-config (or PHP_CONFIG)
# names. The build runs with a php and a php-config first in PATH that fail:
# only the configured PHP may be asked. The installed redis_lock.so must load
# in that PHP, say it was built for it, and lock/release on a throwaway
# redis-server. Then, in the configured tree: the project's own targets still
# parse, make install would not run cargo again, make clean keeps cargo's
# cache, and phpize --clean leaves every file of the tree as it was.
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
step=configure; run configure "${build_env[@]}" ./configure --with-php-config="$php_config"
step=make;      t=$SECONDS; run make "${build_env[@]}" make -j"$(nproc)"
say "phpize, configure: ok; make: $((SECONDS - t)) s"
[[ -f modules/redis_lock.so ]] || fail "make did not write modules/redis_lock.so"
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
