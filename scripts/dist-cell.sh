#!/usr/bin/env bash
# Runs inside one platform cell for make dist (scripts/dist.sh copies the tree
# to /src): builds the extension as the cell's tests build it (the same PHP,
# the same /build/target, so a cell tested before builds nothing again) and
# writes to /build/dist the cell's package (php<ver>-redis-lock_<version><suffix>_<arch>.deb)
# and its module for PIE (redis_lock.so, debug line tables stripped as in the
# package) with its facts (php-version.txt, glibc.txt: the glibc it needs).
#   PHP_VERSION  the cell's PHP      DEB_VERSION_SUFFIX  e.g. +deb12
set -euo pipefail
cd /src
# shellcheck source=scripts/cell-php.sh
source scripts/cell-php.sh
ln -sfn "$CARGO_TARGET_DIR" /src/target
export CARGO_NET_OFFLINE=true
[[ $(php -r 'echo PHP_MAJOR_VERSION . "." . PHP_MINOR_VERSION;') == "$PHP_VERSION" ]] \
  || { echo "dist: this cell's php is not PHP $PHP_VERSION" >&2; exit 1; }
[[ $(php -r 'echo PHP_ZTS ? 1 : 0;') == 0 ]] || { echo "dist: this cell's PHP is thread-safe (ZTS)" >&2; exit 1; }

cargo build --release --offline --locked
out=/build/dist
rm -rf "$out"; mkdir -p "$out"
DEB_OUT=$out bash scripts/deb.sh
objcopy --strip-debug target/release/libredis_lock.so "$out/redis_lock.so"
php -r 'echo PHP_VERSION, " ", php_uname("m"), "\n";' >"$out/php-version.txt"
# The newest glibc symbol version it needs: a binary loads only where glibc is at least that.
objdump -T "$out/redis_lock.so" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -1 >"$out/glibc.txt"
