#!/usr/bin/env bash
# make test: every part of the suite, arranged for 2 CPUs. The build comes
# first and once (the extension and the cargo test binaries); then the parts
# that compile (the older releases for test-upgrade, the classic phpize
# build) run in the background at the lowest CPU priority, on what the tests
# leave idle, while the tests run in the foreground: cargo test, the .phpt
# tests in parallel (scripts/phpt.php), and the parts that measure
# throughput, each alone. A failed part does not stop the others.
#
# Each part's whole output is in target/test-logs/PART.log; a table of the
# parts' times and results ends the run, then `test: N passed, N failed`.
#   TEST_PARTS="phpt upgrade"   only these parts (after the build)
set -uo pipefail
cd "$(dirname "$0")/.."
logs=target/test-logs
mkdir -p "$logs"
rm -f "$logs"/*.log "$logs"/*.rc
all_parts=(rust phpt upgrade migration valgrind adapters frameworks phpize package)
read -ra parts <<<"${TEST_PARTS:-${all_parts[*]}}"
for p in "${parts[@]}"; do
  [[ " ${all_parts[*]} " == *" $p "* ]] || { echo "test: no part '$p' (parts: ${all_parts[*]})" >&2; exit 2; }
done
wanted() { [[ " ${parts[*]} " == *" $1 "* ]]; }

declare -A took result
order=()
started=$EPOCHREALTIME
secs() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }'; }
note() { order+=("$1"); took[$1]=$2; result[$1]=$3; }

# part NAME CMD...: in the foreground, its output shown and kept.
part() {
  local name=$1 t0=$EPOCHREALTIME rc; shift
  echo "== $name: $*"
  "$@" 2>&1 | tee "$logs/$name.log"
  rc=${PIPESTATUS[0]}
  note "$name" "$(secs "$t0")" "$rc"
  echo "== $name: exit $rc after ${took[$name]} s"
}

# background NAME CMD...: at nice 19, its output kept; join NAME shows it.
declare -A bg
background() {
  local name=$1; shift
  echo "== $name: started in the background: $*"
  ( t0=$EPOCHREALTIME
    nice -n 19 "$@" >"$logs/$name.log" 2>&1
    echo "$? $(secs "$t0")" >"$logs/$name.rc" ) &
  bg[$name]=$!
}
join() {
  local name=$1 rc t
  wait "${bg[$name]}"
  read -r rc t <"$logs/$name.rc"
  echo "== $name (in the background):"
  cat "$logs/$name.log"
  note "$name (background)" "$t" "$rc"
  echo "== $name: exit $rc after $t s"
}

# The extension and the test binaries, compiled once; nothing else can run
# without them.
part build bash -c 'cargo build --release && cargo test --release --no-run'
if [[ ${result[build]} != 0 ]]; then
  echo "test: the build failed"
  echo "test: 0 passed, 1 failed"
  exit 1
fi

wanted upgrade && background upgrade-build bash scripts/test-upgrade.sh --build
wanted phpize && background phpize bash scripts/test-phpize.sh

wanted rust && part rust cargo test --release
wanted phpt && part phpt bash scripts/php-tests.sh
wanted migration && part migration bash scripts/test-migration.sh
wanted valgrind && part valgrind bash scripts/valgrind.sh
wanted adapters && part adapters bash scripts/test-adapters.sh
wanted frameworks && part frameworks bash scripts/test-frameworks.sh
# Late, so that older releases missing from the cache have been built by now.
if wanted upgrade; then
  join upgrade-build
  part upgrade bash scripts/test-upgrade.sh
fi
wanted phpize && join phpize
# Last: it installs into the system PHP (in a private mount namespace).
wanted package && part package bash scripts/test-package.sh

passed=0 failed=0
echo
echo "| part | seconds | result |"
echo "|---|---:|---|"
for p in "${order[@]}"; do
  if [[ ${result[$p]} == 0 ]]; then r=ok; passed=$((passed + 1)); else r="FAILED (exit ${result[$p]})"; failed=$((failed + 1)); fi
  echo "| $p | ${took[$p]} | $r |"
done
echo "| total | $(secs "$started") | |"
echo "(each part's output: $logs/PART.log)"
echo "test: $passed passed, $failed failed"
((failed == 0))
