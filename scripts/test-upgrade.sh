#!/usr/bin/env bash
# make test-upgrade: the rolling-upgrade rule of docs/protocol.md, checked with
# real processes of two builds on the same keys (php-tests/upgrade/mixed_versions.php):
#   - against the previous release (the newest tag v* that is not this
#     version; UPGRADE_FROM=rev picks another): the rule must hold;
#   - against UPGRADE_BREAK (default 8ec90b4, protocol 1: exact token
#     compares, no mark), the mutex only: the check must see the break, so
#     that a check which cannot fail is noticed.
# Each earlier build is made once from a git worktree (scripts/old-build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sh scripts/package-field.sh version)
# The newest release before this version; this version's own tag when the
# version was not raised since (a build after its release commit).
tags=$(git tag --list 'v*' --sort=-version:refname)
from=${UPGRADE_FROM:-$(grep -vx "v$version" <<<"$tags" | head -1 || true)}
from=${from:-$(head -1 <<<"$tags")}
[[ -n $from ]] || { echo "test-upgrade: no release tag (v*) in this repository's history: a clone with its tags is needed" >&2; exit 1; }
break_rev=${UPGRADE_BREAK:-8ec90b4}
status=0
run() { # run REV EXPECT
  local so
  so=$(bash scripts/old-build.sh "$1")
  php -n -d extension="$PWD/target/release/libredis_lock.so" php-tests/upgrade/mixed_versions.php \
    --old="$so" --label="$1" --expect="$2" ${UPGRADE_SECONDS:+--seconds=$UPGRADE_SECONDS} ${UPGRADE_KINDS:+--kinds=$UPGRADE_KINDS} || status=1
  echo
}
run "$from" compatible
UPGRADE_KINDS=mutex run "$break_rev" break
exit "$status"
