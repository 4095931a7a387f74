#!/usr/bin/env bash
# make test-php: every .phpt under php-tests/ (run-tests.php walks its folders)
# through PHP's own run-tests.php with the built extension; with arguments,
# only those tests or folders (run-tests.php's options may come first).
# run-tests.php silently runs a failed test a second time when its code sleeps
# or its output says "timed out"; a pass on that retry would hide an
# intermittent bug, so it counts as a failure here.
set -euo pipefail
cd "$(dirname "$0")/.."
run_tests="$(php-config --extension-dir)/build/run-tests.php"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
targets=()
for arg in "$@"; do [[ -e $arg ]] && targets+=("$arg"); done
((${#targets[@]})) || set -- "$@" php-tests/
status=0
NO_INTERACTION=1 php "$run_tests" -p "$(command -v php)" \
  -d extension="$PWD/target/release/libredis_lock.so" -q --show-diff "$@" 2>&1 | tee "$log" || status=$?
if grep -q "passed on retry" "$log"; then
  echo "php-tests: a test passed only on run-tests.php's retry:" >&2
  grep "passed on retry" "$log" >&2
  exit 1
fi
exit "$status"
