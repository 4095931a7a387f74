#!/usr/bin/env bash
# make test-upgrade: the rolling-upgrade rule of docs/protocol.md, checked with
# real processes of two builds on the same keys (php-tests/upgrade/mixed_versions.php):
#   - against the previous release (the newest version in CHANGELOG.md that
#     is not this one, else this one's release commit; UPGRADE_FROM=rev picks
#     another): the rule must hold;
#   - against UPGRADE_BREAK (default 8ec90b4, protocol 1: exact token
#     compares, no mark), the mutex only: the check must see the break, so
#     that a check which cannot fail is noticed.
# Each earlier build is made once and kept outside the clone (scripts/old-build.sh);
# `test-upgrade.sh --build` only makes them (make test does that in the
# background while the .phpt tests run).
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sh scripts/package-field.sh version)
# A release is a version with its own section in CHANGELOG.md; its commit is
# the one that raised Cargo.toml's version to it (its tag v* points there too,
# but a clone need not carry tags). Newest first: "VERSION COMMIT".
releases() {
  local h v prev=
  for h in $(git log --reverse --format=%H -- Cargo.toml); do
    v=$(git show "$h:Cargo.toml" | sed -n 's/^version *= *"\(.*\)"/\1/p' | sed -n 1p)
    [[ -n $v && $v != "$prev" ]] && grep -q "^## \[$v\]" CHANGELOG.md && echo "$v $h"
    prev=$v
  done | tac
}
# The newest release before this version; this version's own release when the
# version was not raised since (a build after its release commit).
list=$(releases)
from=${UPGRADE_FROM:-$(awk -v v="$version" '$1 != v {print $2; exit}' <<<"$list")}
from=${from:-$(awk 'NR == 1 {print $2}' <<<"$list")}
[[ -n $from ]] || { echo "test-upgrade: no earlier release in this repository's history (a shallow clone?): git fetch --unshallow" >&2; exit 1; }
break_rev=${UPGRADE_BREAK:-8ec90b4}
if [[ ${1:-} == --build ]]; then
  bash scripts/old-build.sh "$from" "$break_rev" >/dev/null
  exit
fi
status=0
run() { # run REV EXPECT [LABEL]
  local so
  so=$(bash scripts/old-build.sh "$1")
  php -n -d extension="$PWD/target/release/libredis_lock.so" php-tests/upgrade/mixed_versions.php \
    --old="$so" --label="${3:-$1}" --expect="$2" ${UPGRADE_SECONDS:+--seconds=$UPGRADE_SECONDS} ${UPGRADE_KINDS:+--kinds=$UPGRADE_KINDS} || status=1
  echo
}
run "$from" compatible "${UPGRADE_FROM:-${from:0:7}}"
UPGRADE_KINDS=mutex run "$break_rev" break
exit "$status"
