#!/usr/bin/env bash
# Runs inside one cell of the platform matrix (scripts/matrix.sh makes the
# chroot and calls this with the tree copied to /src): every step of the test
# suite with this cell's PHP and servers. Each step's outcome goes to
# /build/results as step=value words (the matrix prints them as a table);
# a failed step does not stop the next ones, but makes the exit status 1.
#   PHP_VERSION  the cell's PHP (8.2, 8.4, 8.5)     SERVERS  e.g. "redis valkey"
#   VALGRIND     1: run the valgrind check           CELL     the cell's name
#   SUITE        the Debian suite(s) it was made from
set -uo pipefail
cd /src
mkdir -p /build
results=/build/results
: >"$results"
rm -f /build/phpt-*.log # an earlier run's logs would be read as this one's failures
rm -rf /tmp/redis_lock_e2e_* # what killed end-to-end roles left in this kept chroot's /tmp
failed=0
# A value is good when it is "ok", "-" (not run in this cell) or N/N[+Kskip].
good() { [[ $1 == ok || $1 == - ]] && return 0; [[ $1 =~ ^([0-9]+)/([0-9]+)(\+[0-9]+skip)?$ ]] && ((BASH_REMATCH[1] == BASH_REMATCH[2] && BASH_REMATCH[2] > 0)); }
record() { echo "$1=$2" >>"$results"; echo "== $1: $2"; good "$2" || failed=1; }

# shellcheck source=scripts/cell-php.sh
source scripts/cell-php.sh
echo "suite=$SUITE" >>"$results"
echo "php=$(php -r 'echo PHP_VERSION;')" >>"$results"
[[ $(php -r 'echo PHP_MAJOR_VERSION . "." . PHP_MINOR_VERSION;') == "$PHP_VERSION" ]] \
  || { record php "FAILED(not $PHP_VERSION)"; }

# The scripts name target/release: the cell's build lives in /build/target.
ln -sfn "$CARGO_TARGET_DIR" /src/target
export CARGO_NET_OFFLINE=true NO_INTERACTION=1
# 3 .phpt tests at once here, not 4 as on the host: each of the last three
# runs of the cells (the suite twice in newest, with the phpize build beside
# it) met one more timing test that a busy machine upsets (docs/testing.md).
export PHPT_JOBS=${PHPT_JOBS:-3}

if cargo build --release --offline; then record build ok; else record build FAILED; exit 1; fi

# The classic phpize build compiles every crate again, in its own tree: in
# the background at the lowest CPU priority, on what the tests leave idle.
phpize_bg=
rm -f /build/phpize.rc
if [[ -f scripts/test-phpize.sh ]]; then
  ( nice -n 19 bash scripts/test-phpize.sh >/build/phpize.log 2>&1; echo $? >/build/phpize.rc ) &
  phpize_bg=$!
fi

# cargo test: "test result: ok. N passed; M failed; ..." per test binary.
out=$(cargo test --release --offline 2>&1); echo "$out"
sum=$(awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } } END { print p + 0 "/" p + f }' <<<"$out")
grep -q '^test result: FAILED\|^error' <<<"$out" && good "$sum" && sum="$sum(FAILED)"
record cargo "$sum"

# Results as run-tests.php prints them ("PASS title [php-tests/queue/x.phpt]"),
# colours and progress lines between them.
phpt_results() { sed 's/\x1b\[[0-9;]*m//g' "$1" | grep -oP '\b(PASS|FAIL|SKIP|BORK|LEAK|WARN|XFAIL) .*?\[php-tests/[^]]+\.phpt\]' | grep "${2:-}"; }
phpt_count() { # phpt_count LOG [FILTER] -> passed/run[+Kskip]
  local pass fail skip
  pass=$(phpt_results "$@" | grep -c '^PASS'); skip=$(phpt_results "$@" | grep -c '^SKIP')
  fail=$(phpt_results "$@" | grep -vc '^PASS\|^SKIP')
  echo "$pass/$((pass + fail))$( ((skip)) && echo "+${skip}skip")"
}
first=1
for server in $SERVERS; do
  log=/build/phpt-$server.log
  shims=/build/shims-$server
  if [[ $server == redis ]]; then
    path=$PATH
  else
    rm -rf "$shims"; bash scripts/server-shims.sh "$shims" "$server" || { record "phpt_$server" "FAILED(shims)"; continue; }
    path=$shims:$PATH
  fi
  echo "== phpt against $server: $(PATH=$path redis-server --version)"
  PATH=$path bash scripts/php-tests.sh >"$log" 2>&1; status=$?
  cat "$log"
  count=$(phpt_count "$log")
  ((status)) && good "$count" && count="$count(exit $status)"
  record "phpt_$server" "$count"
  if ((first)); then
    record fpm "$(phpt_count "$log" 'php-tests/fpm/')"
    first=0
  fi
done

# PHPUnit: "OK (48 tests, 368 assertions)" or "Tests: 48, Assertions: 368, Failures: 2, Errors: 1."
out=$(bash scripts/test-adapters.sh 2>&1); status=$?; echo "$out"
total=$(grep -oE '^OK \([0-9]+ tests?|^Tests: [0-9]+' <<<"$out" | grep -oE '[0-9]+' | tail -1)
bad=$(grep -oE '(Failures|Errors): [0-9]+' <<<"$out" | awk -F': ' '{ s += $2 } END { print s + 0 }')
if [[ -z $total ]]; then record adapters "FAILED(exit $status)"
else
  count="$((total - ${bad:-0}))/$total"
  ((status)) && good "$count" && count="$count(exit $status)"
  record adapters "$count"
fi

# The frameworks' own lock features end to end: "frameworks: N passed, M failed, K skipped".
if [[ -f scripts/test-frameworks.sh ]]; then
  out=$(bash scripts/test-frameworks.sh 2>&1); status=$?; echo "$out"
  if [[ $(tail -1 <<<"$out") =~ ^frameworks:\ ([0-9]+)\ passed,\ ([0-9]+)\ failed,\ ([0-9]+)\ skipped$ ]]; then
    count="${BASH_REMATCH[1]}/$((BASH_REMATCH[1] + BASH_REMATCH[2]))$( ((BASH_REMATCH[3])) && echo "+${BASH_REMATCH[3]}skip")"
    ((status)) && good "$count" && count="$count(exit $status)"
    record frameworks "$count"
  else
    record frameworks "FAILED(exit $status)"
  fi
fi

# Old and new lock code on one key (this cell's symfony and Laravel).
if [[ -f scripts/test-migration.sh ]]; then
  if bash scripts/test-migration.sh; then record migration ok; else record migration FAILED; fi
fi

if [[ $VALGRIND == 1 ]]; then
  if bash scripts/valgrind.sh; then record valgrind ok; else record valgrind FAILED; fi
else
  record valgrind -
fi

if [[ -n $phpize_bg ]]; then
  wait "$phpize_bg"
  cat /build/phpize.log
  if [[ $(cat /build/phpize.rc 2>/dev/null) == 0 ]]; then record phpize ok; else record phpize FAILED; fi
fi

if bash scripts/test-package.sh; then record deb ok; else record deb FAILED; fi

exit "$failed"
