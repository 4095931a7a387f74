#!/usr/bin/env bash
# old-build.sh REV...: the extension as the commit or tag REV builds it, for
# the test that runs processes of two versions on the same keys (make
# test-upgrade). Prints the path of each module, one a line.
#
# Built once per commit and PHP (its extension API) and kept in a cache
# outside the clone, so that a fresh clone does not build them again:
#   ${REDIS_LOCK_CACHE:-$HOME/.cache/redis-lock}/old/<commit>-php<api>/redis_lock.so
# A missing one is built from `git archive REV` (the clone's history is
# needed, not a worktree), and every earlier build shares one cargo target
# dir there, so the crates they lock at the same versions are compiled once;
# never this checkout's target dir, where cargo would link the last build's
# module in place of this checkout's. Two runs at once build one at a time.
set -euo pipefail
cd "$(dirname "$0")/.."
(($#)) || { echo "usage: old-build.sh REV..." >&2; exit 2; }
cache=${REDIS_LOCK_CACHE:-${HOME:-/root}/.cache/redis-lock}/old
api=$(basename "$("${PHP_CONFIG:-php-config}" --extension-dir)")
mkdir -p "$cache"
exec 9>"$cache/.lock"
for rev in "$@"; do
  commit=$(git rev-parse --verify -q "$rev^{commit}") || { echo "old-build: no commit '$rev' in this repository (a shallow clone? git fetch --unshallow)" >&2; exit 1; }
  dir=$cache/${commit:0:12}-php$api
  so=$dir/redis_lock.so
  if [[ ! -f $so ]]; then
    flock 9
    if [[ ! -f $so ]]; then
      echo "old-build: building $rev (${commit:0:12}) for PHP API $api in $dir" >&2
      rm -rf "$dir/src" && mkdir -p "$dir/src"
      git archive "$commit" | tar -x -C "$dir/src"
      (cd "$dir/src" && CARGO_TARGET_DIR=$cache/cargo cargo build --release --locked -q) >&2
      cp "$cache/cargo/release/libredis_lock.so" "$so.tmp"
      mv "$so.tmp" "$so"
      rm -rf "$dir/src"
    fi
    flock -u 9
  fi
  echo "$so"
done
