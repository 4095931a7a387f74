#!/usr/bin/env bash
# make test-repeat TEST=php-tests/queue/x.phpt N=50: runs one PHP test (or a folder,
# or several, separated by spaces) N times in a row through scripts/php-tests.sh
# (in parallel, as make test runs them; PHPT_JOBS=1 for one at a time)
# and counts the runs in which anything failed. Each failed run's output is
# kept in target/test-repeat/run-<i>.log; the last line is the count.
set -uo pipefail
cd "$(dirname "$0")/.."
tests=${TEST:-php-tests/}
n=${N:-10}
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "test-repeat: N must be a positive number, not '$n'" >&2; exit 2; }
for t in $tests; do
  [[ -e $t ]] || { echo "test-repeat: no such test or folder: $t" >&2; exit 2; }
done
logs=target/test-repeat
mkdir -p "$logs"
rm -f "$logs"/run-*.log
failed=0
for ((i = 1; i <= n; i++)); do
  start=$SECONDS
  # shellcheck disable=SC2086
  if bash scripts/php-tests.sh $tests >"$logs/run-$i.log" 2>&1; then
    echo "run $i/$n: passed ($((SECONDS - start)) s)"
    rm -f "$logs/run-$i.log"
  else
    failed=$((failed + 1))
    echo "run $i/$n: FAILED ($((SECONDS - start)) s), output in $logs/run-$i.log:"
    grep -E '^(FAIL|BORK|LEAK|WARN) ' "$logs/run-$i.log" | cut -c1-200
  fi
done
echo "test-repeat: $((n - failed)) passed, $failed failed"
((failed == 0))
