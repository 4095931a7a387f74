#!/usr/bin/env bash
# make test-php: every .phpt under php-tests/ through PHP's own run-tests.php
# with the built extension, PHPT_JOBS tests at once (scripts/phpt.php: one
# run-tests.php per test, the slowest first, the tests marked
# `--CONFLICTS--` `all` alone at the end); with arguments, only those tests or
# folders (run-tests.php's options may come first, e.g. -m for valgrind).
# A test that passes only on run-tests.php's silent retry counts as failed.
set -euo pipefail
cd "$(dirname "$0")/.."
run_tests="$(php-config --extension-dir)/build/run-tests.php"
exec php -n scripts/phpt.php "$run_tests" "$(command -v php)" "$PWD/target/release/libredis_lock.so" "$@"
