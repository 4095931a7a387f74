#!/usr/bin/env bash
# The frameworks' own lock features end to end on the redis_lock adapters:
# every adapters/e2e/{laravel,symfony}_*.php, each against a redis-server of
# its own on a free loopback port, with the frameworks from Debian's packages
# (php-laravel-framework; php-symfony-lock, -console, -messenger, -scheduler,
# -framework-bundle). A test whose framework feature is not installed is
# skipped, with the reason. Last line: `frameworks: N passed, M failed, K
# skipped`; exit 1 when any failed. A test passes when it exits 0 after
# printing its last line, "passed"; it skips with exit 77.
#   REDIS_LOCK_SO   the extension (default: target/release/libredis_lock.so)
#   E2E_JOBS        tests run at once (default 3)
#   extra arguments: test names to run (e.g. symfony_lock_factory)
set -uo pipefail
cd "$(dirname "$0")/.."

REDIS_LOCK_SO=${REDIS_LOCK_SO:-target/release/libredis_lock.so}
if [[ ! -f $REDIS_LOCK_SO ]]; then
  echo "no extension at $REDIS_LOCK_SO: build it first (make build)" >&2
  exit 2
fi
REDIS_LOCK_SO=$(realpath "$REDIS_LOCK_SO")
export REDIS_LOCK_SO
command -v redis-server >/dev/null || { echo "redis-server is missing (apt-get install redis-server)" >&2; exit 2; }

if (($#)); then
  tests=()
  for name in "$@"; do tests+=("adapters/e2e/${name%.php}.php"); done
else
  tests=(adapters/e2e/laravel_*.php adapters/e2e/symfony_*.php)
fi

logs=$(mktemp -d /tmp/redis_lock_e2e.XXXXXX)
trap 'rm -rf "$logs"' EXIT
# The tests' temporary files under $logs too: what a role killed by its test
# leaves behind goes with this run, not into the next one's /tmp.
export TMPDIR=$logs/tmp
mkdir "$TMPDIR"
jobs_max=${E2E_JOBS:-3}
start=$SECONDS

# Each test in the background (at most E2E_JOBS at once): its output and
# exit code and run time in $logs.
run() {
  local test=$1 name t0 status=0
  name=$(basename "$test" .php)
  t0=${EPOCHREALTIME/./}
  timeout -k 5 60 php -d "extension=$REDIS_LOCK_SO" "$test" >"$logs/$name.out" 2>&1 </dev/null || status=$?
  t0=$(((${EPOCHREALTIME/./} - t0) / 100000))
  echo "$status $((t0 / 10)).$((t0 % 10))" >"$logs/$name.rc"
}
for test in "${tests[@]}"; do
  [[ -f $test ]] || { echo "no test $test" >&2; exit 2; }
  while (($(jobs -rp | wc -l) >= jobs_max)); do wait -n || true; done
  run "$test" &
done
wait

passed=0 failed=0 skipped=0
for test in "${tests[@]}"; do
  name=$(basename "$test" .php)
  read -r status secs <"$logs/$name.rc"
  # Passed: exit 0 right after the test's last line, "passed" (a test that
  # ends early, or whose failure a framework's handler turned into exit 0,
  # has not passed).
  if [[ $status == 0 && $(tail -n 1 "$logs/$name.out") != passed ]]; then status=ended-early; fi
  case $status in
    0) passed=$((passed + 1)); echo "PASS $name (${secs} s)" ;;
    77) skipped=$((skipped + 1)); echo "SKIP $name: $(sed -n 's/^skip: //p' "$logs/$name.out" | head -1)" ;;
    *) failed=$((failed + 1))
       echo "FAIL $name (exit $status, ${secs} s):"
       sed 's/^/    /' "$logs/$name.out" ;;
  esac
done
echo "(${SECONDS} s)"
echo "frameworks: $passed passed, $failed failed, $skipped skipped"
((failed == 0))
