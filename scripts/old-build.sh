#!/usr/bin/env bash
# old-build.sh REV: the extension as the commit or tag REV builds it, for the
# test that runs processes of two versions on the same keys (make
# test-upgrade). Prints the path of its module, target/old/<commit>/redis_lock.so,
# built once and kept. REV's tree is a git worktree (target/old/<commit>/src:
# it needs the repository's history, a clone). Every earlier build shares
# target/old/cargo, so the crates they lock at the same versions are
# compiled once; not this checkout's target dir, where cargo would link the
# last build's module in place of this checkout's.
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:?usage: old-build.sh REV}
commit=$(git rev-parse --verify -q "$rev^{commit}") || { echo "old-build: no commit '$rev' in this repository" >&2; exit 1; }
old=$PWD/target/old
dir=$old/${commit:0:12}
so=$dir/redis_lock.so
if [[ ! -f $so ]]; then
  mkdir -p "$dir"
  if [[ ! -d $dir/src ]]; then
    git worktree prune
    git worktree add -q --detach "$dir/src" "$commit"
  fi
  echo "old-build: building $rev (${commit:0:12}) in $dir/src" >&2
  (cd "$dir/src" && CARGO_TARGET_DIR=$old/cargo cargo build --release --locked -q) >&2
  cp "$old/cargo/release/libredis_lock.so" "$so.tmp"
  mv "$so.tmp" "$so"
fi
echo "$so"
