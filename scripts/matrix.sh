#!/usr/bin/env bash
# make test-matrix [CELL="newest next"]: the whole test suite on every platform
# users run, each cell a Debian chroot made with debootstrap from the mirror
# in this machine's apt sources, kept in a cache outside the checkout and
# created when missing. Per cell: build (cargo, and phpize), cargo tests,
# every .phpt against every server of the cell, the adapters' PHPUnit suite,
# the PHP-FPM tests (php-tests/fpm/), valgrind (where the cell says so), the
# package round trip. One table at the end; exit 1 on any failure, also a
# cell that cannot be set up. Runs as root; leaves no mount behind.
#   CELLS            cells to run (default: all, oldest to next)
#   MATRIX_CACHE     where the chroots live (default /var/cache/redis-lock-matrix)
#   MATRIX_MIRROR    Debian mirror (default: the one in this machine's apt sources)
#   MATRIX_SETUP_ONLY=1  make or update the cells' chroots, test nothing
set -euo pipefail
cd "$(dirname "$0")/.."


# shellcheck source=scripts/cells.sh
source scripts/cells.sh
cells_begin "make test-matrix" "${CELLS:-}"
trap unmount_all EXIT
trap 'exit 130' INT TERM

declare -A RESULT
run_cell() {
  local cell=$1 dir=$CACHE/$1 log=$CACHE/$1.log status=0
  if ! ensure_cell "$cell"; then
    unmount_all
    RESULT[$cell]="setup=FAILED"
    return 1
  fi
  if [[ ${MATRIX_SETUP_ONLY:-} == 1 ]]; then
    unmount_all
    RESULT[$cell]="setup=ok"
    return 0
  fi
  copy_tree "$dir"
  echo "[$cell] testing (log: $log)"
  chroot "$dir" env -i HOME=/root PATH=/root/.cargo/bin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 CELL="$cell" SUITE="$(cell_suite "$cell")$([[ $cell == next ]] && echo +experimental)" PHP_VERSION="$(cell_php "$cell")" SERVERS="$(cell_servers "$cell")" \
    VALGRIND="$(cell_valgrind "$cell" && echo 1 || echo 0)" CARGO_TARGET_DIR=/build/target \
    bash /src/scripts/matrix-cell.sh >"$log" 2>&1 || status=$?
  # The profiler panel in this machine's headless Chromium, the application
  # in the cell (which has WebProfilerBundle): newest only, where it is built.
  if [[ $cell == newest ]]; then
    local browser=0
    # Chromium on this machine (installed if missing): the test must run, not skip.
    bash scripts/deps.sh browser >>"$log" 2>&1 || browser=1
    ((browser)) || PHP_VERSION=$(cell_php "$cell") bash scripts/test-profiler-browser.sh "$dir" >>"$log" 2>&1 || browser=$?
    case $browser in 0) echo "browser=ok" ;; 77) echo "browser=-" ;; *) echo "browser=FAILED"; status=1 ;; esac >>"$dir/build/results"
  fi
  unmount_all
  RESULT[$cell]="setup=ok $(cat "$dir/build/results" 2>/dev/null || echo "run=FAILED")"
  if ((status)); then
    echo "[$cell] FAILED (exit $status); last lines of $log:" >&2
    tail -15 "$log" >&2
    FAILURES[$cell]=$(failed_tests "$dir" "$log")
  fi
  return "$status"
}

# What failed in a cell, for the end of the output (the part of a run CI
# keeps): each failed .phpt with the first changed lines of its diff, and
# the failed PHPUnit tests' names.
declare -A FAILURES
failed_tests() {
  local dir=$1 log=$2 phpt
  for phpt in "$dir"/build/phpt-*.log; do
    [[ -f $phpt ]] || continue
    sed 's/\x1b\[[0-9;]*m//g' "$phpt" | awk -v server="$(basename "$phpt" .log | sed 's/^phpt-//')" '
      /^========DIFF========/ { in_diff = 1; diff = ""; n = 0; next }
      /^========DONE========/ { in_diff = 0; next }
      in_diff && /^[0-9]+[+-] / && n < 4 { diff = diff "    " substr($0, 1, 200) "\n"; n++; next }
      match($0, /(FAIL|BORK|LEAK) .*\[php-tests\/[^]]+\.phpt\]/) {
        name = substr($0, RSTART, RLENGTH); sub(/.*\[php-tests\//, "", name); sub(/\]$/, "", name)
        printf "  phpt against %s: %s\n%s", server, name, diff; diff = ""
      }'
  done
  grep -E '^[0-9]+\) [A-Za-z\\]+::' "$log" | sed -n 1,5p | cut -c1-200 | sed 's/^/  adapters: /'
  # Each failed end-to-end test with its FAIL: line and the few after it.
  awk '/^FAIL [^ ]+ \(exit/ { if (++n > 5) exit; print "  frameworks: " substr($0, 1, 200); take = 0; next }
       /^    FAIL:/ { take = 4 }
       take > 0 && /^    / { print "  " substr($0, 1, 200); take--; next }
       !/^    / { take = 0 }' "$log"
  grep -E '^browser: FAILED' "$log" | sed -n 1p | cut -c1-200 | sed 's/^/  /'
}

prepare_cells

failed=0
BAD_CELLS=()
for cell in "${CELLS[@]}"; do
  start=$SECONDS
  run_cell "$cell" || { failed=1; BAD_CELLS+=("$cell"); }
  RESULT[$cell]+=" time=$((SECONDS - start))s"
done

# One table: a row per cell, a column per step.
columns=(setup suite php build cargo phpt_redis phpt_valkey fpm adapters frameworks browser migration valgrind phpize deb time)
printf '\n| cell |'; printf ' %s |' "${columns[@]}"; printf '\n|---|'; printf -- '---|%.0s' "${columns[@]}"; echo
for cell in "${CELLS[@]}"; do
  printf '| %s |' "$cell"
  for col in "${columns[@]}"; do
    value=$(tr ' ' '\n' <<<"${RESULT[$cell]:-}" | sed -n "s/^$col=//p" | head -1)
    printf ' %s |' "${value:--}"
  done
  echo
done
for cell in "${BAD_CELLS[@]}"; do
  [[ -n ${FAILURES[$cell]:-} ]] && printf 'failed in %s:\n%s\n' "$cell" "${FAILURES[$cell]}"
done
if grep -q "setup=FAILED\|run=FAILED" <<<"${RESULT[*]}"; then failed=1; fi
echo "matrix: $((${#CELLS[@]} - ${#BAD_CELLS[@]})) passed, ${#BAD_CELLS[@]} failed${BAD_CELLS:+ (${BAD_CELLS[*]})}"
exit "$failed"
